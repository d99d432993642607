package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How the PostgreSQL dialect keeps pooled sessions safe: every call is one message that starts by resetting the
 * session and ends its own implicit transaction (ADR 0027, section 1 and its amendment).
 *
 * <p>Connections stay in autocommit. A read is one message, one round trip, one implicit transaction:
 *
 * <pre>
 * RESET ALL; RESET SESSION AUTHORIZATION; SET LOCAL DateStyle = ISO; SET TRANSACTION READ ONLY;
 * SET LOCAL statement_timeout = &lt;ms&gt;; DISCARD SEQUENCES; DEALLOCATE ALL; SELECT pg_advisory_unlock_all();
 * &lt;the query&gt;
 * ; UNLISTEN *; CLOSE ALL; RESET ALL
 * </pre>
 *
 * <p>A write: {@code RESET ALL; RESET SESSION AUTHORIZATION; SET LOCAL statement_timeout = <ms>; DISCARD SEQUENCES;
 * DEALLOCATE ALL; SELECT pg_advisory_unlock_all(); <the statement>} followed, in the same message, by {@code DISCARD
 * TEMP; UNLISTEN *; CLOSE ALL; RESET ALL}. Nothing is sent when the connection goes back to the pool: it is idle,
 * outside any transaction.
 *
 * <p>A streaming read (an export) needs a transaction that outlives one message: pgjdbc opens it ({@code BEGIN},
 * autocommit off), the first message carries the same reset and limits, {@code DECLARE qag_stream NO SCROLL CURSOR
 * FOR <the query>} and the first {@code FETCH}; each further {@code FETCH FORWARD <fetch_size>} is one round trip,
 * and {@code ROLLBACK} ends it.
 *
 * <p>What each statement is for: {@code RESET ALL} undoes every setting an earlier call changed with {@code
 * set_config(..., false)} (search_path, TimeZone, statement_timeout, default_transaction_read_only, ...); {@code
 * RESET SESSION AUTHORIZATION} undoes {@code set_config('role', ...)}, which RESET ALL leaves alone; {@code SELECT
 * pg_advisory_unlock_all()} releases session-level advisory locks an earlier call took (they survive RESET ALL and
 * even a rolled-back transaction); {@code DISCARD SEQUENCES} forgets {@code lastval()}/{@code currval()} (and
 * preallocated values) of an earlier write, also of one that failed after its {@code nextval()} (sequence state is
 * not transactional, and a failed message never reaches its own closing statements); {@code DEALLOCATE ALL} drops
 * prepared statements an earlier call left ({@code PREPARE}, also through a function's dynamic SQL; not
 * transactional either) and pgjdbc's own named statements, whose text is the earlier callers' SQL (pgjdbc notices
 * the command and prepares its statements again, in the same message: no round trip); {@code UNLISTEN *} and {@code
 * CLOSE ALL} after the statement, in the same transaction, cancel a {@code LISTEN} and close a {@code WITH HOLD}
 * cursor the statement opened (a function may do both through dynamic SQL inside a plain SELECT): both are
 * transactional, so they never reach the next call, and a failed call rolls them back on its own ({@code UNLISTEN}
 * at the start of the next call would come too late: it takes effect at commit, and the next caller would still see
 * the channel); {@code DISCARD TEMP} after a write drops temporary tables it created before they become visible to
 * later calls (a read-only transaction cannot create one); {@code RESET ALL} again at the end, in the same
 * transaction, so that a setting the statement changed for the session is back to its default when the transaction
 * commits: some settings act before the next call's own {@code RESET ALL} runs ({@code
 * default_transaction_isolation}, {@code default_transaction_read_only} and {@code default_transaction_deferrable}
 * fix the next transaction's mode when it starts, and {@code idle_session_timeout} acts while the connection waits
 * in the pool). A failed call needs none of
 * these: settings, LISTEN and cursors are transactional and roll back with it. A streaming read needs none either:
 * its transaction is rolled back. What the message cannot reset (the {@code setseed()} state of {@code random()},
 * custom setting placeholders, advisory locks between calls) is listed in docs/dialects/postgres.md for the SQL
 * guard. {@code SET TRANSACTION READ ONLY} and
 * {@code SET LOCAL} last until the message's implicit transaction ends, so the user's SQL cannot keep them from
 * the next call, and cannot lift them for itself unless a second statement gets into the message (see {@link
 * PostgresStatements}).
 *
 * <p>A table-restricted call may pin the schema its allowed tables were checked against: {@link #plan(QueryRequest,
 * String)} adds {@code SET LOCAL search_path = "<schema>", pg_temp} (temporary objects searched last). The SPI has no
 * field for it yet.
 *
 * <p>Pure, stateless and thread-safe: the plan depends on the request (and the fetch size) only.
 */
public final class PostgresSessionStrategy implements SessionStrategy {

    /**
     * Sent first in every call, and again last in a read or a write (in the same transaction, so that what the
     * statement set for the session is undone when it commits): every setting back to the session's defaults.
     */
    public static final String RESET_ALL = "RESET ALL";
    /** Undoes SET ROLE and SET SESSION AUTHORIZATION (also through set_config), which RESET ALL leaves alone. */
    public static final String RESET_AUTHORIZATION = "RESET SESSION AUTHORIZATION";
    /** pgjdbc reads dates and times in ISO style only; local to the message. */
    public static final String DATE_STYLE_ISO = "SET LOCAL DateStyle = ISO";
    /** Makes the message's implicit transaction read-only; must come before any query in it. */
    public static final String READ_ONLY = "SET TRANSACTION READ ONLY";
    /** Releases session-level advisory locks an earlier call took. */
    public static final String UNLOCK_ADVISORY = "SELECT pg_advisory_unlock_all()";
    /**
     * Forgets the session's sequence state ({@code lastval()}, {@code currval()}, preallocated values): sequence
     * state survives a rollback, so it is cleared before every statement rather than after a write.
     */
    public static final String DISCARD_SEQUENCES = "DISCARD SEQUENCES";
    /**
     * Drops prepared statements an earlier call left (not transactional either), and pgjdbc's own named statements,
     * which hold earlier callers' SQL; pgjdbc sees the command tag and prepares its statements again.
     */
    public static final String DEALLOCATE_ALL = "DEALLOCATE ALL";
    /**
     * Sent after the statement, in the same transaction: cancels a LISTEN it made (allowed in a read-only
     * transaction; takes effect at commit, so it must be in the same transaction as the LISTEN).
     */
    public static final String UNLISTEN_ALL = "UNLISTEN *";
    /** Sent after the statement, in the same transaction: closes a cursor it declared WITH HOLD. */
    public static final String CLOSE_ALL = "CLOSE ALL";
    /** Sent after a write, in the same message: drops temporary tables the write created. */
    public static final String DISCARD_TEMP = "DISCARD TEMP";
    /** The cursor name of a streaming read. */
    public static final String CURSOR = "qag_stream";
    /** Opened by pgjdbc when autocommit is switched off for a streaming read. */
    public static final String BEGIN = "BEGIN";
    /** Ends a streaming read's transaction and closes its cursor. */
    public static final String ROLLBACK = "ROLLBACK";

    static final String READ_DESCRIPTION = "one message, one round trip, one implicit transaction: RESET ALL and RESET"
            + " SESSION AUTHORIZATION undo what earlier calls set, the transaction is READ ONLY with a local"
            + " statement_timeout, sequence state, prepared statements and advisory locks are dropped before the query, LISTEN"
            + " registrations, held cursors and session settings after it; the session is idle between calls";
    static final String WRITE_DESCRIPTION = "one message, one round trip, one implicit transaction committed when it"
            + " succeeds: RESET ALL and RESET SESSION AUTHORIZATION undo what earlier calls set, a local"
            + " statement_timeout, sequence state, prepared statements and advisory locks dropped before the statement,"
            + " temporary tables,"
            + " LISTEN registrations, held cursors and session settings after it";
    static final String STREAM_DESCRIPTION = "an explicit read-only transaction (autocommit off) with the same reset and"
            + " a local statement_timeout per statement; rows come through a cursor, fetch_size per round trip (one"
            + " round trip more per further batch), and the transaction is rolled back";

    static final String DESCRIBE_DESCRIPTION = "an explicit read-only transaction (autocommit off) with the same reset"
            + " and a local statement_timeout; the statement is parsed and described (Parse, Describe), never run;"
            + " the transaction is rolled back";

    private final int fetchSize;

    /**
     * A strategy whose streaming reads fetch {@code fetchSize} rows per round trip.
     *
     * @param fetchSize rows per FETCH; positive
     */
    public PostgresSessionStrategy(int fetchSize) {
        if (fetchSize < 1) {
            throw new IllegalArgumentException("fetchSize must be positive");
        }
        this.fetchSize = fetchSize;
    }

    /**
     * The strategy with the default fetch size.
     *
     * @return the strategy
     */
    public static PostgresSessionStrategy withDefaults() {
        return new PostgresSessionStrategy(PostgresDialectConfig.DEFAULT_FETCH_SIZE);
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        return plan(request, null);
    }

    /**
     * The plan for a request whose tables were checked against {@code schema}: the same as {@link
     * #plan(QueryRequest)} plus {@code SET LOCAL search_path = "<schema>", pg_temp}.
     *
     * @param request the request
     * @param schema the schema to pin, or null for none
     * @return the plan
     * @throws IllegalArgumentException when {@code schema} is blank or holds a NUL character
     */
    public SessionPlan plan(QueryRequest request, String schema) {
        requireNonNull(request, "request is null");
        String searchPath = schema == null ? null : searchPath(schema);
        String timeout = statementTimeout(request.timeout());
        List<String> before = new ArrayList<>(12);
        if (request.mode() == AccessMode.WRITE) {
            before.add(RESET_ALL);
            before.add(RESET_AUTHORIZATION);
            if (searchPath != null) {
                before.add(searchPath);
            }
            before.add(timeout);
            addSessionCleanup(before);
            return new SessionPlan(before, request.sql(), List.of(DISCARD_TEMP, UNLISTEN_ALL, CLOSE_ALL, RESET_ALL),
                    Map.of(), 1,
                    WRITE_DESCRIPTION);
        }
        if (request.streaming()) {
            before.add(BEGIN);
        }
        before.add(RESET_ALL);
        before.add(RESET_AUTHORIZATION);
        before.add(DATE_STYLE_ISO);
        if (searchPath != null) {
            before.add(searchPath);
        }
        before.add(READ_ONLY);
        before.add(timeout);
        addSessionCleanup(before);
        if (request.streaming()) {
            return new SessionPlan(before, declareCursor(request.sql()), List.of(fetch(fetchRows(request.maxRows(), 0)),
                    ROLLBACK), Map.of(), 2, STREAM_DESCRIPTION);
        }
        return new SessionPlan(before, request.sql(), List.of(UNLISTEN_ALL, CLOSE_ALL, RESET_ALL), Map.of(), 1,
                READ_DESCRIPTION);
    }

    /**
     * The plan of a describe ({@code Dialect.describe}): an explicit transaction (pgjdbc's {@code BEGIN}, autocommit
     * off) whose first message carries the reset, {@code READ ONLY} and a local {@code statement_timeout} (and the
     * pinned schema), then the statement is parsed and described (pgjdbc's Parse and Describe messages: neither
     * planned nor run), and {@code ROLLBACK} ends it: three round trips, and a fourth when the result has table
     * columns (pgjdbc reads their nullability from the catalog, in the same transaction). Nothing else is needed:
     * the describe runs nothing that could leave state behind, and the transaction's settings end with it.
     *
     * @param request the request
     * @param schema the schema to pin, or null for none
     * @return the plan; its statement is described, never executed
     * @throws IllegalArgumentException when {@code schema} is blank or holds a NUL character
     */
    public SessionPlan describePlan(QueryRequest request, String schema) {
        requireNonNull(request, "request is null");
        List<String> before = new ArrayList<>(6);
        before.add(BEGIN);
        before.add(RESET_ALL);
        before.add(RESET_AUTHORIZATION);
        if (schema != null) {
            before.add(searchPath(schema));
        }
        before.add(READ_ONLY);
        before.add(statementTimeout(request.timeout()));
        return new SessionPlan(before, request.sql(), List.of(ROLLBACK), Map.of(), 3, DESCRIBE_DESCRIPTION);
    }

    /**
     * The statements every message sends after its settings and before the user's statement: they clear session
     * state an earlier call may have left that {@code RESET ALL} keeps, and that is not transactional (so a failed
     * call can leave it). {@code SELECT pg_advisory_unlock_all()} stays last: a query that runs before the user's
     * statement, so that read-only can no longer be lifted by it.
     */
    private static void addSessionCleanup(List<String> before) {
        before.add(DISCARD_SEQUENCES);
        before.add(DEALLOCATE_ALL);
        before.add(UNLOCK_ADVISORY);
    }

    /**
     * The rows one FETCH of a streaming read asks for.
     *
     * @return the fetch size
     */
    public int fetchSize() {
        return fetchSize;
    }

    /**
     * The rows the next FETCH of a streaming read asks for: the fetch size, or fewer when the row limit is near
     * (one row past the limit, to tell whether the result was truncated).
     *
     * @param maxRows the request's row limit
     * @param delivered rows delivered so far
     * @return the rows to fetch; at least 1
     */
    public long fetchRows(long maxRows, long delivered) {
        long left = maxRows - delivered; // rows the sink may still take
        return left >= fetchSize ? fetchSize : Math.max(1, left + 1);
    }

    /**
     * {@code SET LOCAL statement_timeout = <ms>} for a time limit: whole milliseconds, rounded up, at least 1 (0
     * would mean no limit) and at most {@code Integer.MAX_VALUE}.
     *
     * @param timeout the time limit
     * @return the statement
     */
    public static String statementTimeout(Duration timeout) {
        return "SET LOCAL statement_timeout = " + timeoutMillis(timeout);
    }

    static long timeoutMillis(Duration timeout) {
        long millis;
        try {
            long nanos = timeout.toNanos();
            millis = nanos / 1_000_000 + (nanos % 1_000_000 == 0 ? 0 : 1);
        } catch (ArithmeticException tooLong) {
            millis = Integer.MAX_VALUE;
        }
        return Math.max(1, Math.min(Integer.MAX_VALUE, millis));
    }

    /**
     * {@code SET LOCAL search_path = "<schema>", pg_temp}, the schema quoted as an identifier.
     *
     * @param schema the schema name, as stored in the catalog (case-sensitive)
     * @return the statement
     */
    public static String searchPath(String schema) {
        requireNonNull(schema, "schema is null");
        if (schema.isBlank() || schema.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("schema must be a non-blank name without NUL characters");
        }
        return "SET LOCAL search_path = " + quoteIdentifier(schema) + ", pg_temp";
    }

    /**
     * {@code DECLARE qag_stream NO SCROLL CURSOR FOR <sql>}.
     *
     * @param sql the query
     * @return the statement
     */
    public static String declareCursor(String sql) {
        return "DECLARE " + CURSOR + " NO SCROLL CURSOR FOR " + sql;
    }

    /**
     * {@code FETCH FORWARD <rows> FROM qag_stream}.
     *
     * @param rows the rows to fetch
     * @return the statement
     */
    public static String fetch(long rows) {
        return "FETCH FORWARD " + rows + " FROM " + CURSOR;
    }

    /**
     * The text of one message: statements joined by {@code "; "}; statements after the user's start on a new line
     * so that a trailing {@code --} comment in it cannot swallow them.
     *
     * @param before the statements before the user's
     * @param statement the user's statement (as planned)
     * @param after the statements after it
     * @return the message
     */
    public static String message(List<String> before, String statement, List<String> after) {
        StringBuilder text = new StringBuilder(statement.length() + 256);
        for (String s : before) {
            text.append(s).append("; ");
        }
        text.append(statement);
        for (String s : after) {
            text.append("\n; ").append(s);
        }
        return text.toString();
    }

    static String quoteIdentifier(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
