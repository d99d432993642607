package io.queryapigate.dialect.clickhouse;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * What a ClickHouse call sends: one HTTP POST, the statement as its body, every limit as a URL setting of that
 * request. Pure and thread-safe.
 *
 * <p>ClickHouse's HTTP interface keeps no state between requests unless a {@code session_id} is sent, and this
 * dialect never sends one: whatever a statement changes ({@code SET}, a temporary table) ends with its request.
 * So there is nothing to reset, and nothing a statement can do to the next call.
 *
 * <ul>
 *   <li>{@code readonly=1} on reads: the server refuses writes, DDL, {@code SET} and a statement's own {@code
 *       SETTINGS} clause (code 164). Not {@code readonly=2}: that lets a {@code SETTINGS} clause raise {@code
 *       max_execution_time} and {@code max_result_rows} above what this request set (measured on 18.16: {@code
 *       SETTINGS max_execution_time=3} under {@code max_execution_time=1} ran 3 s). 18.16's {@code readonly=1}
 *       does not stop {@code KILL QUERY}, so the dialect refuses a read starting with {@code KILL} itself.
 *   <li>{@code max_execution_time}: whole seconds, rounded up. 18.16 truncates a fraction ({@code 0.3} means no
 *       limit at all, {@code 1.5} means 1 s), so the exact limit is the client's: a timer at the limit kills the
 *       query ({@code KILL QUERY WHERE query_id = ...}); the server's own limit is the backstop should the client
 *       die.
 *   <li>{@code max_result_rows = maxRows + 1} with {@code result_overflow_mode=break}: the server stops producing
 *       rows soon after one more than the caller may see (at block granularity), and the extra row tells the
 *       dialect the result was truncated. Not {@code throw}: ClickHouse checks the limit per block before sending
 *       it, so {@code throw} fails the call without any rows (measured: 396 and no rows for {@code LIMIT 10}
 *       under a limit of 4) where the SPI wants the first {@code maxRows} rows and {@code truncated}.
 *   <li>{@code extremes=0}: a server or user profile with {@code extremes=1} would append extra rows.
 *   <li>{@code database}: the configured database, so unqualified names resolve where the allow-lists expect.
 *   <li>A unique {@code query_id} per call (not part of the plan, which is the same for equal requests), so that the
 *       dialect can kill the query by id after a timeout or cancellation.
 * </ul>
 *
 * <p>Row-returning statements ({@code SELECT}, {@code WITH}, {@code SHOW}, {@code DESCRIBE}, {@code EXISTS}, ...) get
 * {@code FORMAT TabSeparatedWithNamesAndTypes} appended on a new line, after trailing semicolons and comments are
 * cut off; a statement with its own {@code FORMAT} clause then fails on the server (two {@code FORMAT} clauses).
 * {@code WITH TOTALS} is refused: its totals row would arrive after a blank line that cannot be told apart from an
 * empty string value. Parameters are rendered as literals at the {@code ?} markers ({@link ClickHouseLiterals}); the
 * plan shows the markers, not the values.
 */
public final class ClickHouseSessionStrategy implements SessionStrategy {
    /** The output format every row-returning statement is sent with. */
    public static final String FORMAT = "TabSeparatedWithNamesAndTypes";

    private final String database;
    private final boolean gzip;

    /**
     * A strategy for one connection, without response compression.
     *
     * @param database the configured database
     */
    public ClickHouseSessionStrategy(String database) {
        this(database, false);
    }

    /**
     * A strategy for one connection.
     *
     * @param database the configured database
     * @param gzip whether responses are gzipped ({@code enable_http_compression=1})
     */
    public ClickHouseSessionStrategy(String database, boolean gzip) {
        this.database = requireNonNull(database, "database is null");
        this.gzip = gzip;
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        return prepare(request, false).plan();
    }

    /**
     * The plan and what exactly goes on the wire.
     *
     * @param request the request, with the time left as its timeout
     * @param render whether to render the parameters (false for a plan only)
     * @return the prepared call
     * @throws DialectException {@link DialectError#SYNTAX} when the statement cannot be sent (unterminated quote,
     *     marker count, a parameter that cannot be a literal, {@code WITH TOTALS}), {@link
     *     DialectError#NOT_READ_ONLY} for a read starting with {@code KILL}
     */
    Prepared prepare(QueryRequest request, boolean render) {
        requireNonNull(request, "request is null");
        ClickHouseSql scan;
        try {
            scan = ClickHouseSql.scan(request.sql());
        } catch (IllegalArgumentException e) {
            throw new DialectException(DialectError.SYNTAX, "the statement cannot be sent: " + e.getMessage());
        }
        boolean read = request.mode() == AccessMode.READ;
        if (read && "KILL".equals(scan.firstKeyword())) {
            throw new DialectException(DialectError.NOT_READ_ONLY, "KILL is not a read (ClickHouse's readonly=1 does"
                    + " not refuse it, so the clickhouse dialect does)");
        }
        if (scan.withTotals()) {
            throw new DialectException(DialectError.SYNTAX, "WITH TOTALS is not supported by the clickhouse dialect:"
                    + " the totals row cannot be told apart from the rows in a streamed result");
        }
        boolean rows = scan.returnsRows();
        String suffix = rows ? "\nFORMAT " + FORMAT : "";
        String body = null;
        if (render) {
            try {
                body = ClickHouseLiterals.render(scan, request.parameters()) + suffix;
            } catch (IllegalArgumentException e) {
                throw new DialectException(DialectError.SYNTAX, e.getMessage());
            }
        } else if (scan.markers().size() != request.parameters().size()) {
            throw new DialectException(DialectError.SYNTAX, "the statement has " + scan.markers().size()
                    + " parameter markers but " + request.parameters().size() + " parameters were given");
        }

        SequencedMap<String, String> settings = new LinkedHashMap<>();
        if (read) {
            settings.put("readonly", "1");
        }
        settings.put("max_execution_time", Long.toString(seconds(request.timeout())));
        if (rows) {
            settings.put("max_result_rows", Long.toString(request.maxRows() == Long.MAX_VALUE
                    ? Long.MAX_VALUE : request.maxRows() + 1));
            settings.put("result_overflow_mode", "break");
            settings.put("extremes", "0");
        }
        settings.put("database", database);
        if (gzip) {
            settings.put("enable_http_compression", "1");
        }

        String description = (read ? "read" : "write") + ": one HTTP POST, no session_id (nothing a statement sets"
                + " outlives its request)"
                + (read ? "; readonly=1 (writes, DDL, SET and SETTINGS clauses refused by the server; KILL refused"
                        + " by the dialect)" : "")
                + "; time limit: a client timer at the exact limit kills the query by query_id (KILL QUERY), with"
                + " max_execution_time=" + settings.get("max_execution_time") + " s (whole seconds, rounded up) as"
                + " the server's backstop"
                + (rows ? "; rows capped at maxRows+1 (result_overflow_mode=break), streamed as " + FORMAT : "")
                + (scan.markers().isEmpty() ? "" : "; " + scan.markers().size() + " parameter"
                        + (scan.markers().size() == 1 ? "" : "s") + " rendered as escaped ClickHouse literals at the ?"
                        + " markers");
        SessionPlan plan = new SessionPlan(List.of(), scan.trimmed() + suffix, List.of(), settings, 1, description);
        return new Prepared(plan, body, rows, settings);
    }

    /**
     * What a describe sends: {@code DESCRIBE TABLE (<the statement>)}, which ClickHouse answers with the columns of
     * the subquery, analysed but not run, with a read's settings ({@code readonly=1}, the time limit, the database),
     * the markers rendered as NULLs of their declared types ({@link ClickHouseLiterals#typedNull}). Only a {@code
     * SELECT} or {@code WITH} statement can stand in the parentheses. The answer's {@code body} is null when
     * nothing is to be sent: for a statement that returns no rows ({@code returnsRows} false: a write, DDL), and
     * for one that returns rows but cannot be described this way ({@code SHOW}, {@code EXPLAIN}, ...).
     *
     * @param request the request, with the time left as its timeout
     * @return the prepared describe
     * @throws DialectException as {@link #prepare} does
     */
    Prepared describing(QueryRequest request) {
        Prepared asRead = prepare(describeRequest(request), false);
        if (!asRead.returnsRows()) {
            return new Prepared(asRead.plan(), null, false, asRead.settings());
        }
        ClickHouseSql scan = ClickHouseSql.scan(request.sql());
        if (!DESCRIBABLE.contains(scan.firstKeyword())) {
            return new Prepared(asRead.plan(), null, true, asRead.settings());
        }
        String body;
        try {
            body = ClickHouseLiterals.render(scan, request.parameters(), true);
        } catch (IllegalArgumentException e) {
            throw new DialectException(DialectError.SYNTAX, e.getMessage());
        }
        SessionPlan plan = new SessionPlan(List.of(), describeTable(scan.trimmed()), List.of(), asRead.settings(), 1,
                "describe: one HTTP POST of DESCRIBE TABLE (<the statement>), which ClickHouse analyses without"
                        + " running it, with a read's settings (readonly=1, the time limit, the database)");
        return new Prepared(plan, describeTable(body), true, asRead.settings());
    }

    /**
     * The read a describe is sent as: {@code request} as a read whose rows (one per described column) are capped
     * at {@value #MAX_DESCRIBED_COLUMNS}.
     *
     * @param request the describe's request
     * @return the read
     */
    static QueryRequest describeRequest(QueryRequest request) {
        return new QueryRequest(request.sql(), request.parameters(), AccessMode.READ, request.timeout(),
                MAX_DESCRIBED_COLUMNS, false, request.requestId(), request.schema());
    }

    /** The most columns a describe reads; a statement with more is not described. */
    static final int MAX_DESCRIBED_COLUMNS = 10_000;

    /** The first keywords of statements that can be the subquery of {@code DESCRIBE TABLE (...)}. */
    static final java.util.Set<String> DESCRIBABLE = java.util.Set.of("SELECT", "WITH");

    private static String describeTable(String statement) {
        // the closing parenthesis on a line of its own: a trailing -- comment cannot swallow it
        return "DESCRIBE TABLE (" + statement + "\n)\nFORMAT " + FORMAT;
    }

    /**
     * A time limit in whole seconds, rounded up, at least 1.
     *
     * @param timeout the limit
     * @return seconds
     */
    static long seconds(Duration timeout) {
        long s = timeout.getSeconds() + (timeout.getNano() > 0 ? 1 : 0);
        return Math.max(1, s);
    }

    /**
     * A prepared call.
     *
     * @param plan the plan
     * @param body the statement as sent, with literals in place of the markers; null when not rendered
     * @param returnsRows whether the response carries rows
     * @param settings the URL settings, in their order
     */
    record Prepared(SessionPlan plan, String body, boolean returnsRows, Map<String, String> settings) {}
}
