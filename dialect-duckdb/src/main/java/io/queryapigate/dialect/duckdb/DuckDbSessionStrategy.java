package io.queryapigate.dialect.duckdb;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.util.List;
import java.util.Map;

/**
 * How the DuckDB dialect keeps calls apart: every call runs on a connection of its own, made with {@code
 * DuckDBConnection.duplicate()} from the database instance the dialect keeps open, and closed when the call ends.
 * Nothing a call can set on its connection (settings, {@code SET VARIABLE}, the search path, temporary tables and
 * macros, prepared statements, an open transaction) outlives it, so there is nothing to reset; a duplicate costs
 * no more than reusing a connection (see {@code docs/dialects/duckdb.md}).
 *
 * <p>Read-only database ({@code duckdb.read_only: true}): the statement is sent alone; DuckDB refuses every write,
 * for reads and writes alike. Writable database: reads run inside {@code BEGIN TRANSACTION READ ONLY} and are
 * rolled back, so that a single-statement write that slipped past the SQL guard is refused; writes run in
 * autocommit. The time limit is not part of the plan: the dialect interrupts the statement when it passes.
 *
 * <p>DuckDB runs in process, so a call costs no network round trip. Stateless and thread-safe.
 */
public final class DuckDbSessionStrategy implements SessionStrategy {

    /** Sent before a read on a writable database. */
    public static final String BEGIN_READ_ONLY = "BEGIN TRANSACTION READ ONLY";
    /** Sent after a read on a writable database. */
    public static final String ROLLBACK = "ROLLBACK";

    static final String READ_ONLY_DATABASE = "fresh DuckDB connection per call, closed after it (no setting, variable,"
            + " temporary object or prepared statement outlives the call); writes refused by DuckDB itself (database"
            + " opened read-only); the time limit interrupts the statement";
    static final String WRITABLE_READ = "fresh DuckDB connection per call, closed after it; the statement runs in"
            + " BEGIN TRANSACTION READ ONLY and is rolled back, so a single-statement write is refused (defence in"
            + " depth: the database file is writable); the time limit interrupts the statement";
    static final String WRITABLE_WRITE = "fresh DuckDB connection per call, closed after it; the statement runs in"
            + " autocommit and is committed when it succeeds; the time limit interrupts the statement";

    private final boolean readOnlyDatabase;

    /**
     * The strategy for a database opened read-only or read-write.
     *
     * @param readOnlyDatabase true when the dialect opened the database read-only
     */
    public DuckDbSessionStrategy(boolean readOnlyDatabase) {
        this.readOnlyDatabase = readOnlyDatabase;
    }

    @Override
    public SessionPlan plan(QueryRequest request) {
        requireNonNull(request, "request is null");
        if (readOnlyDatabase) {
            return new SessionPlan(List.of(), request.sql(), List.of(), Map.of(), 0, READ_ONLY_DATABASE);
        }
        if (request.mode() == AccessMode.READ) {
            return new SessionPlan(List.of(BEGIN_READ_ONLY), request.sql(), List.of(ROLLBACK), Map.of(), 0, WRITABLE_READ);
        }
        return new SessionPlan(List.of(), request.sql(), List.of(), Map.of(), 0, WRITABLE_WRITE);
    }
}
