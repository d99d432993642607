package io.queryapigate.call;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.auth.Caller;
import io.queryapigate.cache.CachedResponse;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.output.format.CeilingRowWriter;
import io.queryapigate.output.format.CountingOutputStream;
import io.queryapigate.output.format.RowWriter;
import io.queryapigate.paging.PageSink;
import io.queryapigate.paging.PagedSql;
import io.queryapigate.params.ParamRules;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.sql.SqlShape;
import io.queryapigate.sql.SqlText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one call, saved query or ad-hoc SQL, as the request's story: authorise and resolve what runs, check it with
 * the guard, bind the parameters, plan the masking, answer from the response cache or run it on the connection,
 * render the rows, record how it ended.
 */
public final class QueryService {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);

    /** What a call runs, once authorised, resolved and checked. */
    private record Statement(Connection connection, String sql, List<Parameter> parameters, GuardResult verdict,
            Duration timeout, Masking.Plan mask, String cacheKey, int cacheTtl) {}

    private final SavedQueryResolver resolver;
    private final CallAuthorizer authorizer;
    private final Guarding guarding;
    private final Masking masking;
    private final ResponseCache responses;
    private final ConnectionRegistry connections;
    private final CallRecorder recorder;
    private final CallLimits limits;
    private final Clock clock;
    private final Counter cacheHits;
    private final Counter cacheMisses;
    private final Counter streamsTruncated;

    public QueryService(SavedQueryResolver resolver, CallAuthorizer authorizer, Guarding guarding, Masking masking,
            ResponseCache responses, ConnectionRegistry connections, CallRecorder recorder, CallLimits limits,
            MetricRegistry metrics, Clock clock) {
        this.resolver = resolver;
        this.authorizer = authorizer;
        this.guarding = guarding;
        this.masking = masking;
        this.responses = responses;
        this.connections = connections;
        this.recorder = recorder;
        this.limits = limits;
        this.clock = clock;
        this.cacheHits = metrics.counter("cache.hits");
        this.cacheMisses = metrics.counter("cache.misses");
        this.streamsTruncated = metrics.counter("streams.truncated");
    }

    public CallResult run(CallRequest request) {
        CallRecorder.Call call = recorder.start(request);
        try {
            Statement statement = request.isSavedQuery() ? savedQuery(request, call) : adHoc(request);
            CallResult result = cached(statement, request);
            if (result == null) {
                result = execute(statement, request, call);
                if (result.stream() != null) {
                    return result; // a stream records itself when it ends
                }
                result = cache(statement, result);
            }
            call.succeeded(result.rows(), result.body().length);
            return result;
        } catch (ApiException e) {
            call.failed(e);
            throw e;
        } catch (DialectException e) {
            RuntimeException failed = failure(request, e);
            call.failed(failed);
            throw failed;
        }
    }

    private Statement savedQuery(CallRequest request, CallRecorder.Call call) {
        Caller caller = request.caller();
        String name = request.queryName();
        authorizer.mayLookUp(caller, name);
        SavedQueryResolver.Resolved q = resolver.resolve(caller, name, request.version());
        call.query(q.query().id(), q.version().version());
        String own = q.version().connectionName();
        call.connection(own);
        String connectionName = authorizer.savedQueryConnection(caller, name, own, request.connection());
        call.connection(connectionName);
        Connection connection = connection(connectionName);
        GuardResult verdict = q.guard();
        if (Guarding.restricted(caller) || !verdict.isRead() || !connectionName.equals(own)) {
            verdict = guarding.check(caller, connection, q.sql().jdbcSql());
        }
        Map<String, Object> values = q.rules().resolve(request.textParams(), request.jsonParams());
        List<Parameter> parameters = q.rules().bind(q.sql().markers(), values);
        Duration timeout = Timeouts.effective(connection.timeout(), request.timeout());
        Masking.Plan mask = maskPlan(caller, connection, verdict);
        int ttl = q.version().cacheTtl();
        String cacheKey = ttl > 0 && verdict.isRead() && !request.output().stream()
                ? ResponseKeys.of(q, connectionName, values, mask, request.output()) : null;
        return new Statement(connection, q.sql().jdbcSql(), parameters, verdict, timeout, mask, cacheKey, ttl);
    }

    private Statement adHoc(CallRequest request) {
        Caller caller = request.caller();
        String connectionName = authorizer.adHocConnection(caller, request.connection());
        if (request.sql() == null || request.sql().isBlank()) {
            throw ApiException.badRequest("sql_required", "sql is required.");
        }
        if (request.jsonParams() != null && !request.jsonParams().isNull() && !request.jsonParams().isObject()) {
            throw ApiException.badRequest("invalid_body", "params must be an object.");
        }
        Connection connection = connection(connectionName);
        SqlText text = SqlText.parse(request.sql(), backslashEscapes(connection));
        SqlShape.checkShape(text, limits.maxSqlLength());
        GuardResult verdict = guarding.check(caller, connection, text.jdbcSql());
        List<Parameter> parameters = ParamRules.bindAdHoc(text.markers(), request.jsonParams());
        Duration timeout = Timeouts.effective(connection.timeout(), request.timeout());
        return new Statement(connection, text.jdbcSql(), parameters, verdict, timeout,
                maskPlan(caller, connection, verdict), null, 0);
    }

    private Masking.Plan maskPlan(Caller caller, Connection connection, GuardResult verdict) {
        if (caller.admin() || caller.grants().mask().isEmpty()) {
            return Masking.Plan.NONE;
        }
        return masking.plan(verdict, caller.grants().mask(), connection);
    }

    /** The cached answer of a cacheable saved query, or null. */
    private CallResult cached(Statement s, CallRequest request) {
        if (s.cacheKey() == null) {
            return null;
        }
        var hit = responses.get(s.cacheKey());
        if (hit.isEmpty()) {
            cacheMisses.inc();
            return null;
        }
        cacheHits.inc();
        OutputRequest out = request.output();
        return new CallResult(hit.get().body(), hit.get().rows(), false, s.connection().name(), "HIT",
                hit.get().etag(), s.cacheTtl(), out.format().contentType(),
                out.format().contentDisposition(out.baseName(), false), hit.get().headers(), null);
    }

    private CallResult cache(Statement s, CallResult result) {
        if (s.cacheKey() == null) {
            return result;
        }
        String etag = ResponseKeys.etag(result.body());
        if (!result.truncated()) {
            responses.put(s.cacheKey(), new CachedResponse(result.body(), etag, result.rows(),
                    clock.millis() + s.cacheTtl() * 1000L, result.headers()));
        }
        return result.cached("MISS", etag, s.cacheTtl());
    }

    /** Runs the statement: a stream, a page, or the whole (buffered) result. */
    private CallResult execute(Statement s, CallRequest request, CallRecorder.Call call) {
        OutputRequest out = request.output();
        AccessMode mode = s.verdict().isRead() ? AccessMode.READ : AccessMode.WRITE;
        // a table-restricted call resolves unqualified names where the guard resolved them
        String schema = Guarding.restricted(request.caller()) ? s.connection().namespace().schema() : null;
        if (out.stream()) {
            if (mode != AccessMode.READ) {
                throw ApiException.forbidden("read_only", "Streams are reads only.");
            }
            return stream(s, request, schema, call);
        }
        PagedSql paged = null;
        String sql = s.sql();
        if (out.page().isPresent()) {
            if (mode != AccessMode.READ) {
                throw ApiException.badRequest("invalid_paging", "Only reads can be paged.");
            }
            paged = limits.paging().rewrite(sql, out.page().get(), s.connection().family().name()
                    .toLowerCase(java.util.Locale.ROOT));
            sql = paged.sql();
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
        RowWriter writer = out.format().newWriter(buffer, limits.writerOptions());
        SinkChain sink = SinkChain.of(writer, masking, s.mask(), paged);
        QueryStats stats = s.connection().dialect().execute(new QueryRequest(sql, s.parameters(), mode, s.timeout(),
                limits.maxRows(), false, request.requestId(), schema), sink);
        if (mode == AccessMode.WRITE && !sink.resultSet() && stats.updateCount() >= 0) {
            return new CallResult(("{\"rows_affected\":" + stats.updateCount() + "}")
                    .getBytes(StandardCharsets.UTF_8), 0, false, s.connection().name());
        }
        writer.finish();
        PageSink pager = sink.pager();
        Map<String, String> headers = pager != null ? pager.headers()
                : stats.truncated() ? Map.of("X-Truncated", "true") : Map.of();
        long rows = pager != null ? pager.rows() : stats.rows();
        return new CallResult(buffer.toByteArray(), rows, paged == null && stats.truncated(), s.connection().name(),
                null, null, 0, out.format().contentType(), out.format().contentDisposition(out.baseName(), false),
                headers, null);
    }

    /**
     * A streamed export: the rows go from the database's streaming path to the response as they come; a client
     * that goes away cancels the query; the configured ceiling ends the stream with the format's trailer.
     */
    private CallResult stream(Statement s, CallRequest request, String schema, CallRecorder.Call call) {
        OutputRequest out = request.output();
        long ceiling = limits.streamMaxRows();
        QueryRequest query = new QueryRequest(s.sql(), s.parameters(), AccessMode.READ, s.timeout(),
                ceiling > 0 ? ceiling + 1 : Long.MAX_VALUE, true, request.requestId(), schema);
        CallResult.Body body = os -> {
            CountingOutputStream counted = new CountingOutputStream(os);
            RowWriter writer = out.format().newWriter(counted, limits.writerOptions());
            RowWriter top = ceiling > 0 ? CeilingRowWriter.capped(writer, ceiling) : writer;
            try {
                QueryStats stats = s.connection().dialect().execute(query, SinkChain.streamed(top, masking,
                        s.mask()));
                top.finish();
                if (top instanceof CeilingRowWriter capped && capped.truncated()) {
                    streamsTruncated.inc();
                }
                call.succeeded(stats.rows(), counted.count());
            } catch (DialectException e) {
                top.abort("query failed: " + e.error().name().toLowerCase(java.util.Locale.ROOT));
                call.streamFailed(e, counted.count());
            } catch (RuntimeException e) {
                call.streamFailed(e, counted.count());
                throw e;
            }
        };
        return new CallResult(null, 0, false, s.connection().name(), null, null, 0, out.format().contentType(),
                out.format().contentDisposition(out.baseName(), true), Map.of(), body);
    }

    /**
     * What a failed call tells its caller: a refusal raised while the rows arrived (masking) as itself; for a
     * caller restricted to tables or with masked columns, and for any key but the administrator's running a saved
     * query (whose SQL it did not write), the error's class and SQLSTATE but not the database's message, which can
     * echo values ({@code invalid input syntax for type integer: "123-45-6789"}) and names of objects beyond the
     * caller's reach; the message goes to the log under the request id.
     */
    private static RuntimeException failure(CallRequest request, DialectException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ApiException refusal) {
                return refusal;
            }
        }
        Caller caller = request.caller();
        if (e.error() != DialectError.SYNTAX
                || !(Guarding.restricted(caller) || request.isSavedQuery() && !caller.admin())) {
            return e;
        }
        LOG.info("request {}: the database refused the query (key {}): {}", request.requestId(), caller.keyId(),
                e.getMessage());
        return new DialectException(e.error(), (e.sqlState() == null ? "" : "SQLSTATE " + e.sqlState() + "; ")
                + "the database's message is withheld for this API key (the server log has it under this request "
                + "id).", e.sqlState(), null);
    }

    /** True when the connection's SQL reads backslashes in literals as escapes (for marker parsing). */
    public static boolean backslashEscapes(Connection connection) {
        return connection.family() == SqlDialectFamily.MYSQL || connection.family() == SqlDialectFamily.CLICKHOUSE;
    }

    private Connection connection(String name) {
        return connections.get(name).orElseThrow(() ->
                ApiException.notFound("connection_not_found", "No connection named '" + name + "'."));
    }
}
