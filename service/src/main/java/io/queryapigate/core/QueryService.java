package io.queryapigate.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.errors.ApiException;
import io.queryapigate.output.JsonRowWriter;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs saved queries and ad-hoc SQL for a caller: authorise, validate, bind, execute, render, record. */
public final class QueryService {
    private final Store store;
    private final ConnectionRegistry connections;
    private final EventLog events;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final long maxRows;
    private final long maxSqlLength;

    public QueryService(Store store, ConnectionRegistry connections, EventLog events, ObjectMapper mapper,
            Clock clock, long maxRows, long maxSqlLength) {
        this.store = store;
        this.connections = connections;
        this.events = events;
        this.mapper = mapper;
        this.clock = clock;
        this.maxRows = maxRows;
        this.maxSqlLength = maxSqlLength;
    }

    /** A saved query's version as it is run: the row plus its parsed SQL and rules. */
    public record Resolved(SavedQueryRow query, QueryVersionRow version, SqlText sql, ParamRules rules) {}

    /**
     * Runs a saved query: the published version, or {@code version} when given.
     *
     * @param textParams parameters from the query string
     * @param jsonParams parameters from a JSON body ({@code params}), or null
     */
    public CallResult runSaved(Caller caller, String name, String versionText, Map<String, String> textParams,
            JsonNode jsonParams, String connectionOverride, String timeoutText, String requestId) {
        long start = System.nanoTime();
        Long queryId = null;
        Integer version = null;
        String connectionName = null;
        try {
            // a key that can reach no query by this name and holds no connection grant learns nothing from a lookup
            if (!caller.admin() && !caller.grants().hasQueryByName(name) && !caller.grants().hasAnyConnection()) {
                throw ApiException.forbidden("query_not_granted", "This API key may not run the query '" + name
                        + "'.");
            }
            Resolved resolved = resolve(caller, name, versionText);
            queryId = resolved.query().id();
            version = resolved.version().version();
            String own = resolved.version().connectionName();
            connectionName = own;
            if (!caller.canRunQuery(name, own)) {
                throw ApiException.forbidden("query_not_granted", "This API key may not run the query '" + name
                        + "'.");
            }
            if (connectionOverride != null && !connectionOverride.isBlank() && !connectionOverride.equals(own)) {
                if (!caller.canUseConnection(connectionOverride)) {
                    throw ApiException.forbidden("connection_not_granted",
                            "This API key may not use the connection '" + connectionOverride + "'.");
                }
                connectionName = connectionOverride;
            }
            Connection connection = connection(connectionName);
            Map<String, Object> values = resolved.rules().resolve(textParams, jsonParams);
            List<Parameter> parameters = resolved.rules().bind(resolved.sql().markers(), values);
            Duration timeout = Timeouts.effective(connection.timeout(), timeoutText);
            CallResult result = execute(connection, resolved.sql().jdbcSql(), parameters, timeout, requestId);
            record(caller, requestId, queryId, version, null, connectionName, 200, result.rows(),
                    result.body().length, null, start);
            return result;
        } catch (ApiException e) {
            record(caller, requestId, queryId, version, null, connectionName, e.status(), 0, 0, e.code(), start);
            throw e;
        } catch (DialectException e) {
            record(caller, requestId, queryId, version, null, connectionName, statusOf(e), 0, 0,
                    e.error().name().toLowerCase(java.util.Locale.ROOT), start);
            throw e;
        }
    }

    /** Runs ad-hoc SQL on a named connection; reads only. */
    public CallResult runAdHoc(Caller caller, String sql, JsonNode params, String connectionName, String timeoutText,
            String requestId) {
        long start = System.nanoTime();
        Long sqlHash = sql == null ? null : sqlHash(sql);
        try {
            if (connectionName == null || connectionName.isBlank()) {
                throw ApiException.badRequest("connection_required", "connection_name is required.");
            }
            if (!caller.canRunAdHoc(connectionName)) {
                throw ApiException.forbidden("adhoc_not_granted",
                        "This API key may not run ad-hoc SQL on the connection '" + connectionName + "'.");
            }
            if (sql == null || sql.isBlank()) {
                throw ApiException.badRequest("sql_required", "sql is required.");
            }
            if (params != null && !params.isNull() && !params.isObject()) {
                throw ApiException.badRequest("invalid_body", "params must be an object.");
            }
            Connection connection = connection(connectionName);
            SqlText text = SqlText.parse(sql, false);
            ReadGuard.checkShape(text, maxSqlLength);
            ReadGuard.checkRead(text);
            List<Parameter> parameters = ParamRules.bindAdHoc(text.markers(), params);
            Duration timeout = Timeouts.effective(connection.timeout(), timeoutText);
            CallResult result = execute(connection, text.jdbcSql(), parameters, timeout, requestId);
            record(caller, requestId, null, null, sqlHash, connectionName, 200, result.rows(), result.body().length,
                    null, start);
            return result;
        } catch (ApiException e) {
            record(caller, requestId, null, null, sqlHash, connectionName, e.status(), 0, 0, e.code(), start);
            throw e;
        } catch (DialectException e) {
            record(caller, requestId, null, null, sqlHash, connectionName, statusOf(e), 0, 0,
                    e.error().name().toLowerCase(java.util.Locale.ROOT), start);
            throw e;
        }
    }

    private CallResult execute(Connection connection, String sql, List<Parameter> parameters, Duration timeout,
            String requestId) {
        QueryRequest request = new QueryRequest(sql, parameters, AccessMode.READ, timeout, maxRows, false,
                requestId);
        JsonRowWriter writer = new JsonRowWriter();
        QueryStats stats = connection.dialect().execute(request, writer);
        return new CallResult(writer.finish(), stats.rows(), stats.truncated(), connection.name());
    }

    /** Finds the saved query and the version to run; drafts are visible to administrators only. */
    public Resolved resolve(Caller caller, String name, String versionText) {
        SavedQueryRow query = store.queries().findByName(name)
                .orElseThrow(() -> ApiException.notFound("query_not_found", "No saved query named '" + name + "'."));
        int version;
        if (versionText == null || versionText.isBlank()) {
            if (query.publishedVersion() == null) {
                throw ApiException.notFound("not_published", "The query '" + name + "' has no published version.");
            }
            version = query.publishedVersion();
        } else {
            try {
                version = Integer.parseInt(versionText.strip());
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid_version", "version must be a positive integer.");
            }
            if (version < 1) {
                throw ApiException.badRequest("invalid_version", "version must be a positive integer.");
            }
            boolean draft = query.publishedVersion() == null || version > query.publishedVersion();
            if (draft && !caller.admin()) {
                throw ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + version
                        + ".");
            }
        }
        int v = version;
        QueryVersionRow row = store.queries().findVersion(query.id(), v).orElseThrow(() ->
                ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + v + "."));
        SqlText sql = SqlText.parse(row.sqlText(), false);
        ParamRules rules;
        try {
            rules = ParamRules.parse(mapper.readTree(row.parameters()));
        } catch (IOException e) {
            throw new IllegalStateException("stored parameter rules of " + name + " v" + v + " are unreadable", e);
        }
        return new Resolved(query, row, sql, rules);
    }

    public Optional<Connection> findConnection(String name) {
        return connections.get(name);
    }

    private Connection connection(String name) {
        return connections.get(name).orElseThrow(() ->
                ApiException.notFound("connection_not_found", "No connection named '" + name + "'."));
    }

    private void record(Caller caller, String requestId, Long queryId, Integer version, Long sqlHash,
            String connection, int status, long rows, long bytes, String errorCode, long startNanos) {
        long micros = (System.nanoTime() - startNanos) / 1_000;
        events.record(new EventRow(clock.millis(), requestId, caller.keyId(), queryId, version, sqlHash, connection,
                status, rows, micros, bytes, errorCode));
    }

    static int statusOf(DialectException e) {
        return switch (e.error()) {
            case SYNTAX -> 400;
            case NOT_READ_ONLY, PERMISSION_DENIED -> 403;
            case TIMEOUT -> 504;
            case ROW_LIMIT -> 413;
            case CANCELLED, UNAVAILABLE -> 503;
            case INTERNAL -> 500;
        };
    }

    static long sqlHash(String sql) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sql.getBytes(StandardCharsets.UTF_8));
            long h = 0;
            for (int i = 0; i < 8; i++) {
                h = (h << 8) | (d[i] & 0xFF);
            }
            return h;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
