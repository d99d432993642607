package io.queryapigate.call;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Guarding;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.params.ParamRules;
import io.queryapigate.sql.SqlText;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.io.IOException;

/**
 * Finds the saved query and the version a call runs, and prepares it once per version: the SQL's markers, the
 * parameter rules and the guard's classification (checked as the publisher saved it). A version's SQL never
 * changes, so what is prepared is kept (unless the metadata cache's TTL is zero) until the query row, which comes from
 * the metadata cache, says the query changed ({@code updatedAt}: a version's cache_ttl may be edited in place).
 */
public final class SavedQueryResolver {

    /**
     * A saved query's version as it is run.
     *
     * @param mongo true when its statement is a MongoDB query document ({@code query_type: mongo}), whose markers are
     *     the document's placeholders
     */
    public record Resolved(SavedQueryRow query, QueryVersionRow version, SqlText sql, ParamRules rules,
            GuardResult guard, Connection connection, boolean mongo) {}

    /**
     * What is prepared for a version, as of the query row's {@code updatedAt} (a version's cache_ttl may change) and
     * its connection's generation (a connection replaced through the API may read SQL by other rules).
     */
    private record Prepared(QueryVersionRow row, SqlText sql, ParamRules rules, GuardResult guard, long asOf,
            Connection connection, boolean mongo) {}

    private final MetadataCache cache;
    private final ConnectionRegistry connections;
    private final Guarding guarding;
    private final ObjectMapper mapper;
    private final Cache<Long, Prepared> prepared;

    public SavedQueryResolver(MetadataCache cache, ConnectionRegistry connections, Guarding guarding,
            ObjectMapper mapper) {
        this.cache = cache;
        this.connections = connections;
        this.guarding = guarding;
        this.mapper = mapper;
        this.prepared = Caffeine.newBuilder().maximumSize(cache.maxVersions()).build();
    }

    /**
     * The published version, or {@code versionText} (drafts for administrators only), of the query of that name in
     * the caller's workspace (another workspace's is not found, as a missing one).
     */
    public Resolved resolve(Caller caller, String name, String versionText) {
        SavedQueryRow query = cache.queryByName(name).filter(q -> q.workspace().equals(caller.workspace()))
                .orElseThrow(() -> ApiException.notFound("query_not_found", "No saved query named '" + name + "'."));
        int version = version(caller, query, name, versionText);
        Prepared p = prepared(query, version);
        if (p == null) {
            throw ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + version
                    + ".");
        }
        return new Resolved(query, p.row(), p.sql(), p.rules(), p.guard(), p.connection(), p.mongo());
    }

    private static int version(Caller caller, SavedQueryRow query, String name, String versionText) {
        if (versionText == null || versionText.isBlank()) {
            if (query.publishedVersion() == null) {
                throw ApiException.notFound("not_published", "The query '" + name + "' has no published version.");
            }
            return query.publishedVersion();
        }
        int version;
        try {
            version = Integer.parseInt(versionText.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_request", "version must be an integer");
        }
        if (version < 1) {
            throw ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + version
                    + ".");
        }
        boolean draft = query.publishedVersion() == null || version > query.publishedVersion();
        if (draft && !caller.admin()) {
            throw ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + version
                    + ".");
        }
        return version;
    }

    private Prepared prepared(SavedQueryRow query, int version) {
        long id = query.id() << 20 | version;
        Prepared p = cache.enabled() ? prepared.getIfPresent(id) : null;
        if (p != null && p.asOf() == query.updatedAt()) {
            Connection now = connections.require(p.row().connectionName());
            if (now.generation() == p.connection().generation()) {
                return p;
            }
            p = prepare(p.row(), query.updatedAt());
            prepared.put(id, p);
            return p;
        }
        QueryVersionRow row = cache.versionRow(query.id(), version).orElse(null);
        if (row == null) {
            return null;
        }
        p = prepare(row, query.updatedAt());
        if (cache.enabled()) {
            prepared.put(id, p);
        }
        return p;
    }

    /** Prepares a version; a draft saved with markers it does not declare is refused as saving it published was. */
    private Prepared prepare(QueryVersionRow row, long asOf) {
        Connection connection = connections.require(row.connectionName());
        ParamRules rules;
        boolean mongo;
        try {
            rules = ParamRules.parse(mapper.readTree(row.parameters()));
            mongo = row.details() != null && mapper.readTree(row.details()) instanceof ObjectNode details
                    && MongoStatements.isSaved(details);
        } catch (IOException e) {
            throw new IllegalStateException("stored parameter rules or details of query " + row.queryId() + " v" + row.version()
                    + " are unreadable", e);
        }
        if (mongo) {
            SqlText document = MongoStatements.text(row.sqlText());
            rules.checkAgainst(document.markerNames());
            return new Prepared(row, document, rules, MongoStatements.checkForSaving(row.sqlText()), asOf, connection,
                    true);
        }
        SqlText sql = SqlText.parse(row.sqlText(), connection.lexicalRules());
        rules.checkAgainst(sql.markerNames());
        return new Prepared(row, sql, rules, guarding.checkForSaving(connection, sql.jdbcSql()), asOf, connection,
                false);
    }
}
