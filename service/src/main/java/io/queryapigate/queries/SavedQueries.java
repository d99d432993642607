package io.queryapigate.queries;

import io.queryapigate.store.MetadataCache;
import io.queryapigate.sql.SqlText;
import io.queryapigate.sql.SqlShape;
import io.queryapigate.params.ParamRules;
import io.queryapigate.guard.Guarding;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.HistoryDao;
import io.queryapigate.store.QueryDao;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/** Saving, versioning and publishing saved queries. Versions are immutable once saved. */
public final class SavedQueries {
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    private final Store store;
    private final MetadataCache cache;
    private final Guarding guarding;
    private final ConnectionRegistry connections;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final long maxSqlLength;

    public SavedQueries(Store store, MetadataCache cache, Guarding guarding, ConnectionRegistry connections,
            ObjectMapper mapper, Clock clock, long maxSqlLength) {
        this.store = store;
        this.cache = cache;
        this.guarding = guarding;
        this.connections = connections;
        this.mapper = mapper;
        this.clock = clock;
        this.maxSqlLength = maxSqlLength;
    }

    /** What a new version consists of, validated. */
    public record Definition(String sql, JsonNode parameters, String connection, String description, int cacheTtl) {}

    /** Validates a definition: one read statement, a known connection, rules matching the SQL's markers. */
    public Definition validate(String sql, JsonNode parameters, String connection, String description,
            Integer cacheTtl) {
        if (sql == null || sql.isBlank()) {
            throw ApiException.badRequest("sql_required", "sql is required.");
        }
        if (connection == null || connection.isBlank()) {
            throw ApiException.badRequest("connection_required", "connection_name is required.");
        }
        ConnectionRegistry.Connection target = connections.get(connection).orElseThrow(() ->
                ApiException.badRequest("connection_not_found", "No connection named '" + connection + "'."));
        if (cacheTtl != null && (cacheTtl < 0 || cacheTtl > 86_400)) {
            throw ApiException.badRequest("invalid_cache_ttl", "cache_ttl must be between 0 and 86400 seconds.");
        }
        SqlText text = SqlText.parse(sql, target.lexicalRules());
        SqlShape.checkShape(text, maxSqlLength);
        guarding.checkForSaving(target, text.jdbcSql());
        ParamRules rules = ParamRules.parse(parameters);
        rules.checkAgainst(text.markerNames());
        return new Definition(sql.strip(), rules.toJson(), connection, description, cacheTtl == null ? 0 : cacheTtl);
    }

    /** Creates a query with version 1; published at once when {@code publish}. */
    public int create(String name, Definition d, String author, boolean publish) {
        checkName(name);
        long now = clock.millis();
        try {
            return store.jdbi().inTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                if (dao.findByName(name).isPresent()) {
                    throw new ApiException(409, "query_exists", "A query named '" + name + "' already exists.");
                }
                long id = dao.insertQuery(name, now);
                dao.insertVersion(row(id, 1, d, author, now));
                if (publish) {
                    dao.publish(id, 1, now);
                }
                return 1;
            });
        } catch (UnableToExecuteStatementException e) {
            if (store.queries().findByName(name).isPresent()) {
                throw new ApiException(409, "query_exists", "A query named '" + name + "' already exists.");
            }
            throw e;
        } finally {
            cache.invalidateQuery(name);
        }
    }

    /** Adds the next version; published at once when {@code publish}. */
    public int addVersion(String name, Definition d, String author, boolean publish) {
        try {
            long now = clock.millis();
            return store.jdbi().inTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).orElseThrow(() -> notFound(name));
                int next = dao.maxVersion(q.id()) + 1;
                dao.insertVersion(row(q.id(), next, d, author, now));
                if (publish) {
                    dao.publish(q.id(), next, now);
                }
                return next;
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    public void publish(String name, int version) {
        try {
            long now = clock.millis();
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).orElseThrow(() -> notFound(name));
                if (dao.findVersion(q.id(), version).isEmpty()) {
                    throw ApiException.notFound("version_not_found", "The query '" + name + "' has no version "
                            + version + ".");
                }
                dao.publish(q.id(), version, now);
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    public void unpublish(String name) {
        try {
            long now = clock.millis();
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).orElseThrow(() -> notFound(name));
                dao.publish(q.id(), null, now);
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    public void delete(String name) {
        try {
            store.jdbi().useTransaction(h -> {
                QueryDao dao = h.attach(QueryDao.class);
                SavedQueryRow q = dao.findByName(name).orElseThrow(() -> notFound(name));
                h.attach(HistoryDao.class).deleteForQuery(q.id());
                dao.deleteVersions(q.id());
                dao.deleteQuery(q.id());
            });
        } finally {
            cache.invalidateQuery(name);
        }
    }

    public SavedQueryRow get(String name) {
        return store.queries().findByName(name).orElseThrow(() -> notFound(name));
    }

    public List<QueryVersionRow> versions(long queryId) {
        return store.queries().versions(queryId);
    }

    public List<SavedQueryRow> list() {
        return store.queries().list();
    }

    public JsonNode parametersOf(QueryVersionRow row) {
        try {
            return mapper.readTree(row.parameters());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private QueryVersionRow row(long id, int version, Definition d, String author, long now) {
        try {
            return new QueryVersionRow(id, version, d.sql(), mapper.writeValueAsString(d.parameters()),
                    d.connection(), d.description(), author, d.cacheTtl(), now);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new ApiException(400, "invalid_name", "A query name is 1-100 letters, digits, '.', '_' or '-',"
                    + " starting with a letter or digit.", Map.of("name", "is not a valid query name"));
        }
    }

    static ApiException notFound(String name) {
        return ApiException.notFound("query_not_found", "No saved query named '" + name + "'.");
    }
}
