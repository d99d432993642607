package io.queryapigate.call;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.queryapigate.errors.DialectErrors;
import io.queryapigate.errors.SecretUnavailableMapper;
import io.queryapigate.tracing.Tracing;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.auth.Caller;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Guarding;
import io.queryapigate.guard.Masking;
import io.queryapigate.limits.Admission;
import io.queryapigate.limits.Concurrency;
import io.queryapigate.limits.Quotas;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.params.ParamRules;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.sql.SqlShape;
import io.queryapigate.sql.SqlText;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs one call, a saved query or ad-hoc SQL, as the request's story: check the key's quota, authorise and resolve
 * what runs, check it with the guard, bind the parameters, plan the masking, answer from the response cache or run it
 * on the connection ({@link Execution}) in one of the key's concurrent slots, and record how it ended
 * ({@link CallRecorder}) and count it against the quota. A key's own limits narrow the server's: {@code max_rows}
 * shrinks its pages and caps its rows, {@code query_timeout} lowers its time limit.
 */
public final class QueryService {
    private static final AttributeKey<String> QUERY = AttributeKey.stringKey("queryapigate.query");
    private static final AttributeKey<Long> VERSION = AttributeKey.longKey("queryapigate.version");
    private static final AttributeKey<String> CONNECTION = AttributeKey.stringKey("queryapigate.connection");
    private static final AttributeKey<String> DIALECT = AttributeKey.stringKey("db.system.name");
    private static final AttributeKey<Long> ROWS = AttributeKey.longKey("queryapigate.rows");
    private static final AttributeKey<String> CACHE = AttributeKey.stringKey("queryapigate.cache");
    private final SavedQueryResolver resolver;
    private final CallAuthorizer authorizer;
    private final Guarding guarding;
    private final Masking masking;
    private final ConnectionRegistry connections;
    private final CallRecorder recorder;
    private final CachedAnswers cache;
    private final Execution execution;
    private final Quotas quotas;
    private final Concurrency concurrency;
    private final Admission admission;
    private final long maxSqlLength;
    private final Tracing tracing;

    public QueryService(SavedQueryResolver resolver, CallAuthorizer authorizer, Guarding guarding, Masking masking,
            ResponseCache responses, ConnectionRegistry connections, CallRecorder recorder, CallLimits limits,
            Quotas quotas, Concurrency concurrency, MetricRegistry metrics, Clock clock) {
        this(resolver, authorizer, guarding, masking, responses, connections, recorder, limits, quotas, concurrency,
                metrics, clock, Tracing.OFF, Admission.NONE);
    }

    /**
     * With spans for the call, the guard, the database call and the rendering when {@code tracing} is on, and the
     * calls that go to a connection shed by {@code admission} when it is overloaded.
     */
    public QueryService(SavedQueryResolver resolver, CallAuthorizer authorizer, Guarding guarding, Masking masking,
            ResponseCache responses, ConnectionRegistry connections, CallRecorder recorder, CallLimits limits,
            Quotas quotas, Concurrency concurrency, MetricRegistry metrics, Clock clock, Tracing tracing,
            Admission admission) {
        this.admission = admission;
        this.tracing = tracing;
        this.resolver = resolver;
        this.authorizer = authorizer;
        this.guarding = guarding;
        this.masking = masking;
        this.connections = connections;
        this.recorder = recorder;
        this.cache = new CachedAnswers(responses, clock, metrics);
        this.execution = new Execution(masking, limits, quotas, metrics, tracing);
        this.quotas = quotas;
        this.concurrency = concurrency;
        this.maxSqlLength = limits.maxSqlLength();
    }

    public CallResult run(CallRequest request) {
        // named once the saved query is found, never by the name the caller sent
        Span span = tracing.start(request.isSavedQuery() ? "query" : "execute_sql");
        try (Scope ignored = tracing.enter(span)) {
            return run(request, span);
        } finally {
            span.end();
        }
    }

    /**
     * An AI agent's write through a saved query marked {@code agent_writes} (package {@code agentwrites}): the same
     * story as {@link #run(CallRequest)} on the query's own connection, answered as JSON, the statement run by its
     * dialect in a transaction rolled back when it changes more than {@code maxAffectedRows} rows (409
     * {@code too_many_rows_affected}). A saved query that only reads is refused ({@code read_only}), as is a
     * connection whose dialect cannot roll back above a ceiling.
     */
    public CallResult runWrite(CallRequest request, long maxAffectedRows) {
        if (!request.isSavedQuery() || request.connection() != null || request.output().stream()
                || maxAffectedRows < 1) {
            throw new IllegalArgumentException("an agent write is a saved query on its own connection, unstreamed,"
                    + " with a ceiling");
        }
        Span span = tracing.start("query");
        try (Scope ignored = tracing.enter(span)) {
            return run(request, span, maxAffectedRows);
        } finally {
            span.end();
        }
    }

    /** What a preview ran: its answer and the guard's verdict on the statement. */
    public record Previewed(CallResult result, GuardResult verdict) {}

    /**
     * The Console designer's preview ({@code POST /api/v1/queries/preview}): ad-hoc SQL given with a saved query's
     * parameter {@code rules}, run as that saved query would run for this caller (the caller's grant of the
     * connection, the guard as for the caller, the values resolved and bound by the rules, the caller's limits,
     * masking and time limit, a page of JSON), but only as a read: a write is refused by the guard, never run.
     * Never cached; recorded as an ad-hoc call.
     */
    public Previewed preview(CallRequest request, ParamRules rules) {
        if (request.isSavedQuery() || request.output().stream() || !"sql".equals(request.language())) {
            throw new IllegalArgumentException("a preview is unsaved SQL, unstreamed");
        }
        Span span = tracing.start("preview");
        GuardResult[] verdict = {null};
        try (Scope ignored = tracing.enter(span)) {
            CallResult result = run(request, span, 0, r -> {
                CheckedStatement s = previewed(r, rules);
                verdict[0] = s.verdict();
                return s;
            });
            return new Previewed(result, verdict[0]);
        } finally {
            span.end();
        }
    }

    private CallResult run(CallRequest request, Span span) {
        return run(request, span, 0);
    }

    private CallResult run(CallRequest request, Span span, long maxAffectedRows) {
        return run(request, span, maxAffectedRows, null);
    }

    /** @param statementOf what the call runs, or null for a saved query's or ad-hoc SQL's own statement */
    private CallResult run(CallRequest request, Span span, long maxAffectedRows,
            Function<CallRequest, CheckedStatement> statementOf) {
        request = smallerPage(request);
        CallRecorder.Call call = recorder.start(request);
        CheckedStatement statement = null;
        boolean streaming = false;
        try {
            quotas.check(request.caller());
            statement = check(request, call, statementOf);
            if (maxAffectedRows > 0) {
                statement = asAgentWrite(statement, maxAffectedRows);
            }
            CallResult result = cache.lookup(statement, request.output()).orElse(null);
            if (result == null) {
                result = execute(statement, request, call);
                if (result.stream() != null) {
                    streaming = true; // the stream leaves its connection when it ends
                    quotas.count(request.caller(), 1, 0); // its rows are counted when it ends
                    return result; // a stream records its own end, after the response began
                }
                result = cache.store(statement, result);
            } else {
                call.cacheHit();
                if (span.isRecording()) {
                    span.setAttribute(CACHE, "hit");
                }
            }
            if (span.isRecording()) {
                span.setAttribute(ROWS, result.rows());
            }
            call.succeeded(result.rows(), result.body().length);
            quotas.count(request.caller(), 1, result.rows());
            return result;
        } catch (ApiException e) {
            call.failed(e);
            Tracing.failed(span, e.code());
            throw e;
        } catch (AffectedRowsExceeded e) {
            ApiException failed = new ApiException(409, "too_many_rows_affected", "This write would have changed "
                    + e.affected() + " rows, and this query may change at most " + e.ceiling()
                    + " - nothing was changed.");
            call.failed(failed);
            Tracing.failed(span, failed.code());
            throw failed;
        } catch (DialectException e) {
            RuntimeException failed = FailureDisclosure.toCaller(request, e);
            call.failed(failed);
            Tracing.failed(span, failed instanceof ApiException refusal ? refusal.code()
                    : DialectErrors.of(e.error()).code());
            throw failed;
        } catch (SecretUnavailableException e) { // the connection's secret cannot be resolved: 503, recorded
            call.failed(e);
            Tracing.failed(span, SecretUnavailableMapper.CODE);
            throw e;
        } finally {
            if (statement != null && !streaming) {
                statement.connection().exit();
            }
        }
    }

    /**
     * The statement checked and its connection entered, so a replacement of the connection lets this call finish on
     * it; checked again when the connection was replaced or removed between the look-up and the entry.
     */
    private CheckedStatement check(CallRequest request, CallRecorder.Call call,
            Function<CallRequest, CheckedStatement> statementOf) {
        for (int attempt = 0; attempt < 10; attempt++) {
            CheckedStatement statement = statementOf != null ? statementOf.apply(request)
                    : request.isSavedQuery() ? savedQuery(request, call) : adHoc(request);
            if (statement.connection().enter()) {
                return statement;
            }
        }
        throw new ApiException(503, "unavailable", "The connection kept changing while this call started; try again.");
    }

    /** The checked statement as an agent write: a write, on a dialect that rolls back above the ceiling. */
    private static CheckedStatement asAgentWrite(CheckedStatement statement, long maxAffectedRows) {
        if (statement.verdict().isRead()) {
            throw ApiException.forbidden("read_only", "This saved query only reads; it is not an agent write.");
        }
        if (!statement.connection().dialect().capabilities().contains(Capability.AFFECTED_ROWS_CEILING)) {
            throw ApiException.forbidden("read_only", "Agents can't write on '" + statement.connection().dialectName()
                    + "' connections.");
        }
        return statement.withCeiling(maxAffectedRows);
    }

    // the slot and the connection's place are released here, or by a stream once it ended
    private CallResult execute(CheckedStatement statement, CallRequest request, CallRecorder.Call call) {
        Concurrency.Slot key = concurrency.acquire(request.caller(), statement.timeout(), request.output().stream());
        Admission.Ticket place;
        try {
            Connection c = statement.connection();
            place = admission.enter(c.dialect(), c.name(), c.concurrentCalls(), statement.timeout());
        } catch (RuntimeException e) {
            key.release();
            throw e;
        }
        Concurrency.Slot slot = () -> {
            place.release();
            key.release();
        };
        CallResult result = null;
        try {
            result = execution.run(statement, request, call, slot);
            return result;
        } finally {
            if (result == null || result.stream() == null) {
                slot.release();
            }
        }
    }

    /** A key's {@code max_rows} below the page size asked for gives pages of {@code max_rows} rows. */
    private static CallRequest smallerPage(CallRequest request) {
        Integer maxRows = request.caller().grants().maxRows();
        Optional<PageRequest> page = request.output().page();
        if (maxRows == null || page.isEmpty() || page.get().pageSize() <= maxRows) {
            return request;
        }
        OutputRequest out = request.output();
        return request.withOutput(new OutputRequest(out.format(), Optional.of(new PageRequest(page.get().page(),
                maxRows, page.get().asked())), out.stream(), out.baseName()));
    }

    private CheckedStatement savedQuery(CallRequest request, CallRecorder.Call call) {
        Caller caller = request.caller();
        String name = request.queryName();
        authorizer.mayLookUp(caller, name);
        SavedQueryResolver.Resolved q = resolver.resolve(caller, name, request.version());
        call.query(q.query().id(), q.version().version());
        Span span = tracing.on() ? Span.current() : Span.getInvalid();
        if (span.isRecording()) {
            span.updateName("query " + name);
            span.setAttribute(QUERY, name);
            span.setAttribute(VERSION, q.version().version());
        }
        String own = q.version().connectionName();
        call.connection(own);
        String connectionName = authorizer.savedQueryConnection(caller, name, own, request.connection());
        call.connection(connectionName);
        Connection connection = connectionName.equals(own) ? q.connection() : connection(caller, connectionName);
        sameLanguage(q.mongo() ? CallRequest.MONGO : "sql", connection);
        GuardResult verdict = q.guard();
        if (q.mongo()) {
            verdict = MongoStatements.check(q.sql().jdbcSql(), caller);
        } else if (Guarding.restricted(caller) || !verdict.isRead() || !connectionName.equals(own)) {
            verdict = guard(caller, connection, q.sql().jdbcSql());
        }
        if (span.isRecording()) {
            span.setAttribute(CONNECTION, connectionName);
            span.setAttribute(DIALECT, connection.dialectName());
        }
        Map<String, Object> values = q.rules().resolve(request.textParams(), request.jsonParams(), claims(caller));
        List<Parameter> parameters = q.rules().bind(q.sql().markers(), values);
        Duration timeout = Timeouts.effective(Timeouts.forCaller(connection.timeout(), caller), request.timeout());
        Masking.Plan mask = q.mongo() ? Masking.Plan.NONE : maskPlan(caller, connection, verdict);
        int ttl = q.version().cacheTtl();
        String cacheKey = ttl > 0 && verdict.isRead() && !request.output().stream()
                ? CachedAnswers.key(q, connectionName, values, mask, request.output(), caller.grants().maxRows())
                : null;
        return new CheckedStatement(connection, q.sql().jdbcSql(), parameters, verdict, timeout, mask, cacheKey, ttl,
                cacheKey == null ? null : CachedAnswers.about(q, connectionName, request.output()));
    }

    /**
     * Where a saved query's {@code from_claim} values come from: the caller's claims (a signed-in user's token, a
     * key's fixed ones); an administrator without claims supplies them like any other parameter (to test a query).
     */
    public static Map<String, Object> claims(Caller caller) {
        Map<String, Object> claims = caller.identity().claims();
        return claims.isEmpty() && caller.admin() ? null : claims;
    }

    private CheckedStatement adHoc(CallRequest request) {
        Caller caller = request.caller();
        String connectionName = authorizer.adHocConnection(caller, request.connection());
        if (request.sql() == null || request.sql().isBlank()) {
            throw ApiException.badRequest("sql_required", "sql is required.");
        }
        if (request.jsonParams() != null && !request.jsonParams().isNull() && !request.jsonParams().isObject()) {
            throw ApiException.badRequest("invalid_body", "params must be an object.");
        }
        Connection connection = connection(caller, connectionName);
        sameLanguage(request.language(), connection);
        if (CallRequest.MONGO.equals(request.language())) {
            GuardResult verdict = MongoStatements.check(request.sql(), caller);
            List<Parameter> parameters = ParamRules.bindAdHoc(MongoStatements.placeholders(request.sql()),
                    request.jsonParams());
            Duration timeout = Timeouts.effective(Timeouts.forCaller(connection.timeout(), caller), request.timeout());
            return new CheckedStatement(connection, request.sql(), parameters, verdict, timeout, Masking.Plan.NONE,
                    null, 0, null);
        }
        SqlText text = SqlText.parse(request.sql(), connection.lexicalRules());
        SqlShape.checkShape(text, maxSqlLength);
        // over MCP, ad-hoc SQL only reads, whatever the caller's write grant (the original's rule)
        GuardResult verdict = guard(caller, connection, text.jdbcSql(), CallRequest.MCP.equals(request.transport()));
        if (tracing.on() && Span.current().isRecording()) {
            Span.current().setAttribute(CONNECTION, connectionName);
            Span.current().setAttribute(DIALECT, connection.dialectName());
        }
        List<Parameter> parameters = ParamRules.bindAdHoc(text.markers(), request.jsonParams());
        Duration timeout = Timeouts.effective(Timeouts.forCaller(connection.timeout(), caller), request.timeout());
        return new CheckedStatement(connection, text.jdbcSql(), parameters, verdict, timeout,
                maskPlan(caller, connection, verdict), null, 0, null);
    }

    /** A preview's statement: as a saved query of this caller on that connection with these rules, read-only. */
    private CheckedStatement previewed(CallRequest request, ParamRules rules) {
        Caller caller = request.caller();
        String connectionName = request.connection();
        if (connectionName == null || connectionName.isBlank()) {
            throw ApiException.badRequest("connection_required", "connection_name is required.");
        }
        if (!caller.canUseConnection(connectionName)) {
            throw ApiException.forbidden("connection_not_granted", "You may not run SQL on the connection '"
                    + connectionName + "'.");
        }
        if (request.sql() == null || request.sql().isBlank()) {
            throw ApiException.badRequest("sql_required", "sql is required.");
        }
        Connection connection = connection(caller, connectionName);
        sameLanguage("sql", connection);
        SqlText text = SqlText.parse(request.sql(), connection.lexicalRules());
        SqlShape.checkShape(text, maxSqlLength);
        rules.checkAgainst(text.markerNames());
        GuardResult verdict = guard(caller, connection, text.jdbcSql(), true);
        Map<String, Object> values = rules.resolve(request.textParams(), request.jsonParams(), claims(caller));
        List<Parameter> parameters = rules.bind(text.markers(), values);
        Duration timeout = Timeouts.effective(Timeouts.forCaller(connection.timeout(), caller), request.timeout());
        return new CheckedStatement(connection, text.jdbcSql(), parameters, verdict, timeout,
                maskPlan(caller, connection, verdict), null, 0, null);
    }

    /**
     * SQL goes to SQL connections and MongoDB query documents to {@code mongo} ones: 400 {@code
     * wrong_connection_type} otherwise, as the original's.
     */
    static void sameLanguage(String language, Connection connection) {
        String own = connection.dialect().queryLanguage();
        if (!own.equals(language)) {
            throw ApiException.badRequest("wrong_connection_type", CallRequest.MONGO.equals(language)
                    ? "'" + connection.name() + "' is not a mongo connection"
                    : "'" + connection.name() + "' is a " + own + " connection: it runs query documents through"
                            + " /execute_mongo, not SQL");
        }
    }

    /** The guard's check for this caller, in its own span. */
    private GuardResult guard(Caller caller, Connection connection, String sql) {
        return guard(caller, connection, sql, false);
    }

    private GuardResult guard(Caller caller, Connection connection, String sql, boolean readOnly) {
        Span span = tracing.start("guard");
        try {
            return readOnly ? guarding.checkReadOnly(caller, connection, sql) : guarding.check(caller, connection, sql);
        } catch (ApiException e) {
            Tracing.failed(span, e.code());
            throw e;
        } finally {
            span.end();
        }
    }

    private Masking.Plan maskPlan(Caller caller, Connection connection, GuardResult verdict) {
        if (caller.admin() || caller.grants().mask().isEmpty()) {
            return Masking.Plan.NONE;
        }
        return masking.plan(verdict, caller.grants().mask(), connection);
    }

    private Connection connection(Caller caller, String name) {
        return connections.require(name, caller.workspace());
    }
}
