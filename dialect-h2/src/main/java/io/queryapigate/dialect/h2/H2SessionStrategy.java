package io.queryapigate.dialect.h2;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Session safety for H2 (ADR 0027): a new H2 session per call, closed after it, so that no variable, setting,
 * temporary table or open transaction outlives the call. Each call first sets H2's own {@code QUERY_TIMEOUT} to
 * the call's limit (a new session starts without one) and {@code LAZY_QUERY_EXECUTION}, so that rows are computed
 * as they are fetched. Reads on a database the dialect did not open read-only run
 * with autocommit off and are rolled back. Stateless and thread-safe.
 */
public final class H2SessionStrategy implements SessionStrategy {

    /** Sent before every statement: rows are computed as they are fetched, not before the first one. */
    public static final String LAZY = "SET LAZY_QUERY_EXECUTION TRUE";
    /** Sent before a read that is not protected by a read-only database. */
    public static final String AUTOCOMMIT_OFF = "SET AUTOCOMMIT FALSE";
    /** Sent after such a read. */
    public static final String ROLLBACK = "ROLLBACK";

    static final String READ_ONLY_FILE = "fresh H2 session per call, closed after it; writes refused by H2 itself"
            + " (database opened with ACCESS_MODE_DATA=r); SET QUERY_TIMEOUT and a client-side cancel bound the call";
    static final String ROLLED_BACK_READ = "fresh H2 session per call, closed after it; the read runs with autocommit"
            + " off and is rolled back (DDL commits by itself in H2: the SQL guard and the user's grants are the lock);"
            + " SET QUERY_TIMEOUT and a client-side cancel bound the call";
    static final String WRITE = "fresh H2 session per call, closed after it; the statement runs in autocommit;"
            + " SET QUERY_TIMEOUT and a client-side cancel bound the call";

    private final boolean readOnlyDatabase;
    private final boolean remote;

    /**
     * The strategy for one connection.
     *
     * @param readOnlyDatabase true when H2 opened the database read-only (a file with {@code h2.read_only})
     * @param remote true for a TCP server, where each statement is a round trip
     */
    public H2SessionStrategy(boolean readOnlyDatabase, boolean remote) {
        this.readOnlyDatabase = readOnlyDatabase;
        this.remote = remote;
    }

    /**
     * H2's {@code SET QUERY_TIMEOUT} for a limit, in milliseconds, at least 1 (0 would mean none).
     *
     * @param request the call
     * @return the statement
     */
    static String queryTimeout(QueryRequest request) {
        long millis;
        try {
            millis = Math.max(1, request.timeout().toMillis());
        } catch (ArithmeticException tooLong) {
            millis = Integer.MAX_VALUE;
        }
        return "SET QUERY_TIMEOUT " + Math.min(millis, Integer.MAX_VALUE);
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        requireNonNull(request, "request is null");
        List<String> before = new ArrayList<>();
        before.add(queryTimeout(request));
        before.add(LAZY);
        List<String> after = List.of();
        String description;
        if (readOnlyDatabase) {
            description = READ_ONLY_FILE;
        } else if (request.mode() == AccessMode.READ) {
            before.add(AUTOCOMMIT_OFF);
            after = List.of(ROLLBACK);
            description = ROLLED_BACK_READ;
        } else {
            description = WRITE;
        }
        // on a server: the session's opening, each statement sent before and after, the statement itself
        int roundTrips = remote ? 1 + before.size() + after.size() + 1 : 0;
        return new SessionPlan(before, request.sql(), after, Map.of(), roundTrips, description);
    }
}
