package io.queryapigate.dialect.sqlite;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.util.List;
import java.util.Map;

/**
 * How the SQLite dialect keeps calls apart: every call opens a connection of its own on the database file and
 * closes it when the call ends, so nothing a call sets (pragmas, temporary tables, an open transaction) reaches
 * another call. Every connection is opened with at most 0 attached databases ({@code SQLITE_LIMIT_ATTACHED}, which
 * also stops {@code VACUUM INTO}), extension loading off and the busy timeout.
 *
 * <p>A read opens the file read-only ({@code SQLITE_OPEN_READONLY}, the URI's {@code mode=ro}) and sends {@value
 * #QUERY_ONLY} first: SQLite itself refuses every write, to the file and to temporary tables alike. A write opens
 * the file read-write (never creating it), in WAL mode, and runs in autocommit, or in one {@code BEGIN IMMEDIATE}
 * transaction when it has a ceiling of affected rows. The time limit is not part of the plan: the dialect
 * interrupts the statement ({@code sqlite3_interrupt}) when it passes.
 *
 * <p>SQLite runs in process, so a call costs no network round trip. Stateless and thread-safe.
 */
public final class SqliteSessionStrategy implements SessionStrategy {

    /** Sent on a read's connection before the statement. */
    public static final String QUERY_ONLY = "PRAGMA query_only = ON";

    static final String READ = "fresh SQLite connection per call, opened read-only (mode=ro) with PRAGMA query_only,"
            + " no ATTACH and no extension loading; writes refused by SQLite itself; the time limit interrupts the"
            + " statement";
    static final String WRITE = "fresh SQLite connection per call, opened read-write (WAL, busy timeout), no ATTACH and"
            + " no extension loading; the statement runs in autocommit, or in one transaction when it has a ceiling"
            + " of affected rows; the time limit interrupts the statement";

    /** Creates the strategy; stateless. */
    public SqliteSessionStrategy() {}

    @Override
    public SessionPlan plan(QueryRequest request) {
        requireNonNull(request, "request is null");
        if (request.mode() == AccessMode.READ) {
            return new SessionPlan(List.of(QUERY_ONLY), request.sql(), List.of(), Map.of(), 0, READ);
        }
        return new SessionPlan(List.of(), request.sql(), List.of(), Map.of(), 0, WRITE);
    }
}
