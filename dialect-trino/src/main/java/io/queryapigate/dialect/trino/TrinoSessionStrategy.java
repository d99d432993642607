package io.queryapigate.dialect.trino;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * What a Trino call sends. Pure and thread-safe.
 *
 * <p>Trino keeps no session on the server: every HTTP request of a query carries the whole session (user, catalog,
 * schema, time zone, session properties, transaction id) as {@code X-Trino-*} headers, and trino-jdbc keeps the
 * values a statement changes ({@code USE}, {@code SET SESSION}, {@code SET TIME ZONE}, {@code SET PATH}, {@code
 * PREPARE}, a transaction) in its {@code Connection} object. The dialect therefore opens a new trino-jdbc connection
 * for every call (a Java object, no network: 0.1-0.5 ms measured) and discards it afterwards: whatever a statement
 * changed dies with it. A call sends:
 *
 * <ul>
 *   <li>the time limit as the session properties {@value #MAX_RUN_TIME} (counted from the query's creation, so it
 *       includes queueing and planning) and {@value #MAX_EXECUTION_TIME} (counted from the start of execution), both
 *       set to the time left for the call, in milliseconds, on that query only;
 *   <li>for a read: {@value #START_READ_ONLY} first (trino-jdbc sends it when auto-commit is off and the connection
 *       is read-only), so that the coordinator refuses any write with {@code READ_ONLY_VIOLATION} (error 23), and
 *       also refuses procedures ({@code CALL}) and {@code SET SESSION AUTHORIZATION}; then {@value #ROLLBACK};
 *   <li>for a write: the statement alone, in Trino's auto-commit mode;
 *   <li>the statement itself: as written without parameters; with parameters, trino-jdbc sends {@code EXECUTE
 *       IMMEDIATE '<statement>' USING <literal>, ...}, rendering each value as a typed literal that the coordinator
 *       binds to its {@code ?} marker (one query; no separate {@code PREPARE}).
 * </ul>
 *
 * <p>{@link SessionPlan#settings()} holds the session properties under their Trino names and the other per-request
 * headers under their header names ({@code X-Trino-Catalog}, ...).
 */
public final class TrinoSessionStrategy implements SessionStrategy {

    /** What trino-jdbc sends before a read's statement. */
    public static final String START_READ_ONLY = "START TRANSACTION ISOLATION LEVEL READ UNCOMMITTED, READ ONLY";
    /** Ends a read's transaction. */
    public static final String ROLLBACK = "ROLLBACK";
    /** The session property limiting a query's time from creation (queued, planning, running). */
    public static final String MAX_RUN_TIME = "query_max_run_time";
    /** The session property limiting a query's time from the start of execution. */
    public static final String MAX_EXECUTION_TIME = "query_max_execution_time";

    /**
     * HTTP requests of a short statement, measured on 476 (median of 40; range 4-7): the POST, then GETs following
     * {@code nextUri} through QUEUED, PLANNING, RUNNING and FINISHED. A long query adds a GET per second or per page.
     */
    static final int STATEMENT_REQUESTS = 5;
    /** HTTP requests of {@code START TRANSACTION} and {@code ROLLBACK} together, measured (median; range 6-8). */
    static final int TRANSACTION_REQUESTS = 7;

    private final Optional<String> catalog;
    private final Optional<String> schema;
    private final ZoneId timeZone;
    private final String source;
    private final List<String> clientTags;

    /**
     * A strategy for one connection.
     *
     * @param catalog the session catalog, or empty
     * @param schema the session schema, or empty
     * @param timeZone the session time zone
     * @param source the query source
     * @param clientTags the client tags
     */
    public TrinoSessionStrategy(Optional<String> catalog, Optional<String> schema, ZoneId timeZone, String source,
            List<String> clientTags) {
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.timeZone = requireNonNull(timeZone, "timeZone is null");
        this.source = requireNonNull(source, "source is null");
        this.clientTags = List.copyOf(requireNonNull(clientTags, "clientTags is null"));
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        requireNonNull(request, "request is null");
        boolean read = request.mode() == AccessMode.READ;
        String limit = limit(request.timeout());
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(MAX_RUN_TIME, limit);
        settings.put(MAX_EXECUTION_TIME, limit);
        catalog.ifPresent(c -> settings.put("X-Trino-Catalog", c));
        schema.ifPresent(s -> settings.put("X-Trino-Schema", s));
        settings.put("X-Trino-Time-Zone", timeZone.getId());
        settings.put("X-Trino-Source", source);
        if (!clientTags.isEmpty()) {
            settings.put("X-Trino-Client-Tags", String.join(",", clientTags));
        }
        if (usableAsHeader(request.requestId())) {
            settings.put("X-Trino-Trace-Token", request.requestId());
        }
        String statement = statement(request.sql(), request.parameters());
        List<String> before = read ? List.of(START_READ_ONLY) : List.of();
        List<String> after = read ? List.of(ROLLBACK) : List.of();
        int requests = STATEMENT_REQUESTS + (read ? TRANSACTION_REQUESTS : 0);
        String description = (read
                ? "a fresh trino-jdbc session per call, inside a READ ONLY transaction (writes fail with"
                        + " READ_ONLY_VIOLATION), rolled back after the result"
                : "a fresh trino-jdbc session per call, in auto-commit mode")
                + "; time limit: query_max_run_time and query_max_execution_time of " + limit
                + " on this query, and a client-side cancel (DELETE of the query) shortly after";
        return new SessionPlan(before, statement, after, settings, requests, description);
    }

    /**
     * The statement as trino-jdbc sends it: unchanged without parameters, else wrapped in {@code EXECUTE
     * IMMEDIATE} with one {@code <literal :name>} placeholder per value (the driver renders the typed literal).
     *
     * @param sql the statement with {@code ?} markers
     * @param parameters the parameters
     * @return the statement as sent
     */
    static String statement(String sql, List<Parameter> parameters) {
        if (parameters.isEmpty()) {
            return sql;
        }
        StringJoiner using = new StringJoiner(", ", " USING ", "");
        for (Parameter p : parameters) {
            using.add("<literal :" + p.name() + ">");
        }
        return "EXECUTE IMMEDIATE '" + sql.replace("'", "''") + "'" + using;
    }

    /**
     * Whether a request id can travel as the {@code X-Trino-Trace-Token} header (Trino records it with the query):
     * 1 to 200 printable ASCII characters. Others are not sent.
     *
     * @param requestId the service's request id
     * @return true when it is sent
     */
    static boolean usableAsHeader(String requestId) {
        return !requestId.isBlank() && requestId.length() <= 200
                && requestId.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
    }

    /**
     * A time limit as a Trino duration: whole milliseconds, rounded up, at least 1.
     *
     * @param timeout the limit
     * @return for example {@code 1500ms}
     */
    static String limit(Duration timeout) {
        return millis(timeout) + "ms";
    }

    static long millis(Duration timeout) {
        long ms;
        try {
            ms = timeout.toMillis() + (timeout.toNanosPart() % 1_000_000 == 0 ? 0 : 1);
        } catch (ArithmeticException tooLong) {
            ms = Long.MAX_VALUE;
        }
        // Trino parses durations as doubles; beyond ~292 years nothing changes anyway
        return Math.max(1, Math.min(ms, 9_000_000_000_000L));
    }
}
