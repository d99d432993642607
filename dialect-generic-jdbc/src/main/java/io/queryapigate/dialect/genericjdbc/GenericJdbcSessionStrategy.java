package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.util.List;
import java.util.Map;

/**
 * How the generic jdbc dialect keeps calls apart without knowing the engine: every call gets a physical connection
 * of its own, opened ahead by the pool and closed after the call, so nothing a statement sets on its session
 * (settings, variables, the current schema, temporary tables, an open transaction, the read-only flag) can reach
 * another call. No SQL is sent besides the user's statement: the plan's {@link SessionPlan#settings()} are the JDBC
 * calls made on the connection first ({@value #READ_ONLY} for {@code Connection.setReadOnly}, {@value #AUTO_COMMIT}
 * for {@code Connection.setAutoCommit}) and {@value #END} says how the transaction ends ({@code rollback}, {@code
 * commit}, or the driver's autocommit).
 *
 * <p>A read runs with {@code setReadOnly(true)} (a hint that many drivers ignore; see {@code docs/dialects/jdbc.md})
 * in a transaction that is rolled back, so that a write a driver lets through is undone unless the engine commits
 * it on its own (DDL on many engines). A write runs in autocommit, or, with a ceiling of affected rows, in a
 * transaction the dialect commits or rolls back. The time limit is {@code Statement.setQueryTimeout} plus a cancel
 * from the client when the limit passes. Stateless and thread-safe.
 */
public final class GenericJdbcSessionStrategy implements SessionStrategy {

    /** The setting for {@code Connection.setReadOnly}. */
    public static final String READ_ONLY = "readOnly";
    /** The setting for {@code Connection.setAutoCommit}. */
    public static final String AUTO_COMMIT = "autoCommit";
    /** How the call's transaction ends: {@code rollback}, {@code commit} or {@code autocommit}. */
    public static final String END = "end";

    static final String READ = "own connection per call, opened ahead by the pool and closed after it;"
            + " Connection.setReadOnly(true) (a hint the driver may ignore) and a transaction rolled back at the end;"
            + " the SQL guard's strictest family is the lock that always holds; time limit by setQueryTimeout and a"
            + " client-side cancel";
    static final String WRITE = "own connection per call, closed after it; autocommit; time limit by setQueryTimeout"
            + " and a client-side cancel";
    static final String CEILING = "own connection per call, closed after it; a transaction committed only when the"
            + " statement changed at most the ceiling's rows, else rolled back; time limit by setQueryTimeout and a"
            + " client-side cancel";

    /** Creates the strategy; stateless. */
    public GenericJdbcSessionStrategy() {}

    @Override
    public SessionPlan plan(QueryRequest request) {
        requireNonNull(request, "request is null");
        if (request.mode() == AccessMode.READ) {
            return plan(request, true, false, "rollback", READ);
        }
        if (request.maxAffectedRows() > 0) {
            return plan(request, false, false, "commit", CEILING);
        }
        return plan(request, false, true, "autocommit", WRITE);
    }

    private static SessionPlan plan(QueryRequest request, boolean readOnly, boolean autoCommit, String end,
            String description) {
        Map<String, String> settings = Map.of(READ_ONLY, Boolean.toString(readOnly),
                AUTO_COMMIT, Boolean.toString(autoCommit), END, end);
        return new SessionPlan(List.of(), request.sql(), List.of(), settings, 1, description);
    }
}
