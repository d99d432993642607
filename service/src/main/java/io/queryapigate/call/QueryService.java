package io.queryapigate.call;

import io.queryapigate.store.MetadataCache;
import io.queryapigate.sql.SqlText;
import io.queryapigate.sql.SqlShape;
import io.queryapigate.params.ParamRules;
import io.queryapigate.output.format.CountingOutputStream;
import io.queryapigate.guard.Masking;
import io.queryapigate.guard.Guarding;
import io.queryapigate.events.EventLog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.auth.Caller;
import io.queryapigate.cache.CachedResponse;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.output.format.CeilingRowWriter;
import io.queryapigate.config.FormatsConfig;
import io.queryapigate.paging.PageSink;
import io.queryapigate.paging.PagedSql;
import io.queryapigate.paging.Paging;
import io.queryapigate.output.format.RowWriter;
import io.queryapigate.output.format.WriterOptions;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
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
    private final MetadataCache cache;
    private final Guarding guarding;
    private final Masking masking;
    private final ResponseCache responses;
    private final Paging paging;
    private final WriterOptions writerOptions;
    private final long streamMaxRows;
    private final Counter cacheHits;
    private final MetricRegistry metrics;
    private final com.codahale.metrics.Histogram rowsOut;
    private final Counter cacheMisses;
    private final ConnectionRegistry connections;
    private final EventLog events;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final long maxRows;
    private final long maxSqlLength;

    public QueryService(MetadataCache cache, Guarding guarding, Masking masking, ResponseCache responses,
            ConnectionRegistry connections, EventLog events, ObjectMapper mapper, Clock clock, long maxRows,
            long maxSqlLength, MetricRegistry metrics, FormatsConfig output) {
        this.paging = output.paging();
        this.writerOptions = output.writerOptions();
        this.streamMaxRows = output.getStreamMaxRows();
        this.cache = cache;
        this.guarding = guarding;
        this.masking = masking;
        this.responses = responses;
        this.cacheHits = metrics.counter("cache.hits");
        this.metrics = metrics;
        this.rowsOut = metrics.histogram("calls.rows");
        this.cacheMisses = metrics.counter("cache.misses");
        this.connections = connections;
        this.events = events;
        this.mapper = mapper;
        this.clock = clock;
        this.maxRows = maxRows;
        this.maxSqlLength = maxSqlLength;
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(QueryService.class);

    /** A saved query's version as it is run: the row plus its parsed SQL, rules and the guard's classification. */
    public record Resolved(SavedQueryRow query, QueryVersionRow version, SqlText sql, ParamRules rules,
            GuardResult guard) {}

    /** What is derived once per immutable version. */
    record Prepared(QueryVersionRow row, SqlText sql, ParamRules rules, GuardResult guard) {}

    /**
     * Runs a saved query: the published version, or {@code version} when given.
     *
     * @param textParams parameters from the query string
     * @param jsonParams parameters from a JSON body ({@code params}), or null
     */
    public CallResult runSaved(Caller caller, String name, String versionText, Map<String, String> textParams,
            JsonNode jsonParams, String connectionOverride, String timeoutText, String requestId, OutputRequest out) {
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
            GuardResult verdict = resolved.guard();
            if (Guarding.restricted(caller) || !verdict.isRead() || !connectionName.equals(own)) {
                verdict = guarding.check(caller, connection, resolved.sql().jdbcSql());
            }
            Map<String, Object> values = resolved.rules().resolve(textParams, jsonParams);
            List<Parameter> parameters = resolved.rules().bind(resolved.sql().markers(), values);
            Duration timeout = Timeouts.effective(connection.timeout(), timeoutText);
            Masking.Plan mask = maskPlan(caller, connection, verdict);
            int ttl = resolved.version().cacheTtl();
            String cacheKey = null;
            if (ttl > 0 && verdict.isRead() && !out.stream()) {
                cacheKey = cacheKey(resolved, connectionName, values, mask, out);
                var hit = responses.get(cacheKey);
                if (hit.isPresent()) {
                    cacheHits.inc();
                    CallResult result = new CallResult(hit.get().body(), hit.get().rows(), false, connectionName,
                            "HIT", hit.get().etag(), ttl, out.format().contentType(),
                            out.format().contentDisposition(out.baseName(), false), hit.get().headers(), null);
                    record(name, caller, requestId, queryId, version, null, connectionName, 200, result.rows(),
                            result.body().length, null, start);
                    return result;
                }
                cacheMisses.inc();
            }
            Call call = new Call(name, caller, requestId, queryId, version, null, start);
            CallResult result = execute(connection, resolved.sql().jdbcSql(), parameters, verdict, mask, timeout,
                    requestId, pinnedSchema(caller, connection), out, call);
            if (result.stream() != null) {
                return result;
            }
            if (cacheKey != null) {
                String etag = etag(result.body());
                if (!result.truncated()) {
                    responses.put(cacheKey, new CachedResponse(result.body(), etag, result.rows(),
                            clock.millis() + ttl * 1000L, result.headers()));
                }
                result = result.cached("MISS", etag, ttl);
            }
            record(name, caller, requestId, queryId, version, null, connectionName, 200, result.rows(),
                    result.body().length, null, start);
            return result;
        } catch (ApiException e) {
            record(name, caller, requestId, queryId, version, null, connectionName, e.status(), 0, 0, e.code(), start);
            throw e;
        } catch (DialectException e) {
            RuntimeException failed = failure(caller, requestId, e, true);
            record(name, caller, requestId, queryId, version, null, connectionName, statusOf(failed), 0, 0,
                    codeOf(failed), start);
            throw failed;
        }
    }

    /** Runs ad-hoc SQL on a named connection; reads only. */
    public CallResult runAdHoc(Caller caller, String sql, JsonNode params, String connectionName, String timeoutText,
            String requestId, OutputRequest out) {
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
            SqlText text = SqlText.parse(sql, connection.lexicalRules());
            SqlShape.checkShape(text, maxSqlLength);
            GuardResult verdict = guarding.check(caller, connection, text.jdbcSql());
            List<Parameter> parameters = ParamRules.bindAdHoc(text.markers(), params);
            Duration timeout = Timeouts.effective(connection.timeout(), timeoutText);
            Masking.Plan mask = maskPlan(caller, connection, verdict);
            Call call = new Call(null, caller, requestId, null, null, sqlHash, start);
            CallResult result = execute(connection, text.jdbcSql(), parameters, verdict, mask, timeout, requestId,
                    pinnedSchema(caller, connection), out, call);
            if (result.stream() != null) {
                return result;
            }
            record(null, caller, requestId, null, null, sqlHash, connectionName, 200, result.rows(), result.body().length,
                    null, start);
            return result;
        } catch (ApiException e) {
            record(null, caller, requestId, null, null, sqlHash, connectionName, e.status(), 0, 0, e.code(), start);
            throw e;
        } catch (DialectException e) {
            RuntimeException failed = failure(caller, requestId, e, false);
            record(null, caller, requestId, null, null, sqlHash, connectionName, statusOf(failed), 0, 0,
                    codeOf(failed), start);
            throw failed;
        }
    }

    private Masking.Plan maskPlan(Caller caller, Connection connection, GuardResult verdict) {
        if (caller.admin() || caller.grants().mask().isEmpty()) {
            return Masking.Plan.NONE;
        }
        return masking.plan(verdict, caller.grants().mask(), connection);
    }

    /**
     * What a failed call tells its caller: a refusal raised while the rows arrived (masking) as itself; for a
     * caller restricted to tables or with masked columns, and for any key but the administrator's running a saved
     * query (whose SQL it did not write), the error's class and SQLSTATE but not the database's message, which can
     * echo values ({@code invalid input syntax for type integer: "123-45-6789"}) and names of objects beyond the
     * caller's reach; the message goes to the log under the request id.
     */
    private static RuntimeException failure(Caller caller, String requestId, DialectException e, boolean saved) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ApiException refusal) {
                return refusal;
            }
        }
        if (e.error() != io.queryapigate.dialect.spi.DialectError.SYNTAX
                || !(Guarding.restricted(caller) || saved && !caller.admin())) {
            return e;
        }
        LOG.info("request {}: the database refused the query (key {}): {}", requestId, caller.keyId(),
                e.getMessage());
        return new DialectException(e.error(), (e.sqlState() == null ? "" : "SQLSTATE " + e.sqlState() + "; ")
                + "the database's message is withheld for this API key (the server log has it under this request "
                + "id).", e.sqlState(), null);
    }

    /** Query, version, connection, format, parameter values and the caller's masking rules decide the body. */
    private static String cacheKey(Resolved resolved, String connection, Map<String, Object> values,
            Masking.Plan mask, OutputRequest out) {
        StringBuilder sb = new StringBuilder(128);
        sb.append(resolved.query().id()).append('|').append(resolved.version().version()).append('|')
                .append(connection).append('|').append(out.format().formatName()).append('|')
                .append(out.page().map(p -> p.page() + "x" + p.pageSize()).orElse("-")).append('|');
        new java.util.TreeMap<>(values).forEach((k, v) -> sb.append(k).append('=')
                .append(v == null ? "\u0000" : v.getClass().getSimpleName() + ":" + v).append('\u0001'));
        sb.append('|').append(mask.actions());
        return hex(sha256(sb.toString().getBytes(StandardCharsets.UTF_8)), 32);
    }

    static String etag(byte[] body) {
        return "\"" + hex(sha256(body), 32) + "\"";
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes, int chars) {
        return java.util.HexFormat.of().formatHex(bytes).substring(0, chars);
    }

    // a table-restricted call resolves unqualified names where the guard resolved them
    private static String pinnedSchema(Caller caller, Connection connection) {
        return Guarding.restricted(caller) ? connection.namespace().schema() : null;
    }

    /** Who and what a call is, for its event when it ends (streams end after the response began). */
    private record Call(String queryName, Caller caller, String requestId, Long queryId, Integer version,
            Long sqlHash, long startNanos) {}

    private CallResult execute(Connection connection, String sql, List<Parameter> parameters, GuardResult verdict,
            Masking.Plan mask, Duration timeout, String requestId, String schema, OutputRequest out, Call call) {
        AccessMode mode = verdict.isRead() ? AccessMode.READ : AccessMode.WRITE;
        if (out.stream()) {
            if (mode != AccessMode.READ) {
                throw ApiException.forbidden("read_only", "Streams are reads only.");
            }
            return stream(connection, sql, parameters, mask, timeout, requestId, schema, out, call);
        }
        if (out.page().isPresent()) {
            if (mode != AccessMode.READ) {
                throw ApiException.badRequest("invalid_paging", "Only reads can be paged.");
            }
            PagedSql paged = paging.rewrite(sql, out.page().get(), connection.family(), connection.lexicalRules());
            QueryRequest request = new QueryRequest(paged.sql(), parameters, mode, timeout, maxRows, false,
                    requestId, schema);
            java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream(4096);
            RowWriter writer = out.format().newWriter(buffer, writerOptions);
            PageSink pager = paged.sink(masking.apply(mask, writer));
            connection.dialect().execute(request, pager);
            writer.finish();
            return new CallResult(buffer.toByteArray(), pager.rows(), false, connection.name(), null, null, 0,
                    out.format().contentType(), out.format().contentDisposition(out.baseName(), false),
                    pager.headers(), null);
        }
        QueryRequest request = new QueryRequest(sql, parameters, mode, timeout, maxRows, false, requestId, schema);
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream(4096);
        RowWriter writer = out.format().newWriter(buffer, writerOptions);
        boolean[] resultSet = {false};
        RowSink sink = masking.apply(mask, writer);
        QueryStats stats = connection.dialect().execute(request, new RowSink() {
            @Override
            public void columns(List<io.queryapigate.dialect.spi.ColumnInfo> columns) {
                resultSet[0] = !columns.isEmpty();
                sink.columns(columns);
            }

            @Override
            public boolean row(Object[] values) {
                return sink.row(values);
            }

            @Override
            public void onCancellable(Runnable cancel) {
                sink.onCancellable(cancel);
            }
        });
        if (mode == AccessMode.WRITE && !resultSet[0] && stats.updateCount() >= 0) {
            return new CallResult(("{\"rows_affected\":" + stats.updateCount() + "}")
                    .getBytes(StandardCharsets.UTF_8), 0, false, connection.name());
        }
        writer.finish();
        byte[] body = buffer.toByteArray();
        return new CallResult(body, stats.rows(), stats.truncated(), connection.name(), null, null, 0,
                out.format().contentType(), out.format().contentDisposition(out.baseName(), false),
                stats.truncated() ? Map.of("X-Truncated", "true") : Map.of(), null);
    }

    /**
     * A streamed export: the rows go from the database's streaming path to the response as they come; a client
     * that goes away cancels the query; the configured ceiling ends the stream with the format's trailer.
     */
    private CallResult stream(Connection connection, String sql, List<Parameter> parameters, Masking.Plan mask,
            Duration timeout, String requestId, String schema, OutputRequest out, Call call) {
        long ceiling = streamMaxRows;
        QueryRequest request = new QueryRequest(sql, parameters, AccessMode.READ, timeout,
                ceiling > 0 ? ceiling + 1 : Long.MAX_VALUE, true, requestId, schema);
        CallResult.Body body = os -> {
            CountingOutputStream counted = new CountingOutputStream(os);
            RowWriter writer = out.format().newWriter(counted, writerOptions);
            RowWriter top = ceiling > 0 ? CeilingRowWriter.capped(writer, ceiling) : writer;
            java.util.concurrent.atomic.AtomicReference<Runnable> cancel = new java.util.concurrent.atomic
                    .AtomicReference<>();
            RowSink sink = masking.apply(mask, new RowSink() {
                @Override
                public void columns(List<io.queryapigate.dialect.spi.ColumnInfo> columns) {
                    top.columns(columns);
                }

                @Override
                public boolean row(Object[] values) {
                    try {
                        return top.row(values);
                    } catch (java.io.UncheckedIOException gone) {
                        Runnable c = cancel.get();
                        if (c != null) {
                            c.run();
                        }
                        throw gone;
                    }
                }

                @Override
                public void onCancellable(Runnable c) {
                    cancel.set(c);
                }
            });
            try {
                QueryStats stats = connection.dialect().execute(request, sink);
                top.finish();
                if (top instanceof CeilingRowWriter capped && capped.truncated()) {
                    metrics.counter("streams.truncated").inc();
                }
                record(call.queryName(), call.caller(), requestId, call.queryId(), call.version(), call.sqlHash(),
                        connection.name(), 200, stats.rows(), counted.count(), null, call.startNanos());
            } catch (DialectException e) {
                top.abort("query failed: " + e.error().name().toLowerCase(java.util.Locale.ROOT));
                record(call.queryName(), call.caller(), requestId, call.queryId(), call.version(), call.sqlHash(),
                        connection.name(), statusOf(e), 0, counted.count(), "stream_" + e.error().name()
                                .toLowerCase(java.util.Locale.ROOT), call.startNanos());
            } catch (RuntimeException e) {
                record(call.queryName(), call.caller(), requestId, call.queryId(), call.version(), call.sqlHash(),
                        connection.name(), 499, 0, counted.count(), "client_gone", call.startNanos());
                throw e;
            }
        };
        return new CallResult(null, 0, false, connection.name(), null, null, 0, out.format().contentType(),
                out.format().contentDisposition(out.baseName(), true), Map.of(), body);
    }

    /** Finds the saved query and the version to run; drafts are visible to administrators only. */
    public Resolved resolve(Caller caller, String name, String versionText) {
        SavedQueryRow query = cache.queryByName(name)
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
        Prepared prepared = cache.version(query.id(), v, this::prepare).orElseThrow(() ->
                ApiException.notFound("version_not_found", "The query '" + name + "' has no version " + v + "."));
        return new Resolved(query, prepared.row(), prepared.sql(), prepared.rules(), prepared.guard());
    }

    private Prepared prepare(QueryVersionRow row) {
        Connection connection = connection(row.connectionName());
        SqlText sql = SqlText.parse(row.sqlText(), connection.lexicalRules());
        ParamRules rules;
        try {
            rules = ParamRules.parse(mapper.readTree(row.parameters()));
        } catch (IOException e) {
            throw new IllegalStateException("stored parameter rules of query " + row.queryId() + " v" + row.version()
                    + " are unreadable", e);
        }
        return new Prepared(row, sql, rules, guarding.checkForSaving(connection, sql.jdbcSql()));
    }

    /** The paging rules, for parsing a request's page and page_size. */
    public Paging paging() {
        return paging;
    }

    public Optional<Connection> findConnection(String name) {
        return connections.get(name);
    }

    private Connection connection(String name) {
        return connections.get(name).orElseThrow(() ->
                ApiException.notFound("connection_not_found", "No connection named '" + name + "'."));
    }

    private void record(String queryName, Caller caller, String requestId, Long queryId, Integer version, Long sqlHash,
            String connection, int status, long rows, long bytes, String errorCode, long startNanos) {
        long nanos = System.nanoTime() - startNanos;
        long micros = nanos / 1_000;
        metrics.meter("calls.status." + status).mark();
        if (connection != null) {
            metrics.timer("connections." + connection).update(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
        if (queryName != null && queryId != null) {
            metrics.timer("queries." + queryName).update(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
        if (status == 200) {
            rowsOut.update(rows);
        }
        events.record(new EventRow(clock.millis(), requestId, caller.keyId(), queryId, version, sqlHash, connection,
                status, rows, micros, bytes, errorCode));
    }

    private static int statusOf(RuntimeException failed) {
        return failed instanceof ApiException refusal ? refusal.status() : statusOf((DialectException) failed);
    }

    private static String codeOf(RuntimeException failed) {
        return failed instanceof ApiException refusal ? refusal.code()
                : ((DialectException) failed).error().name().toLowerCase(java.util.Locale.ROOT);
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
