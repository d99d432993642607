package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.QueryStats;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * {@code AFFECTED_ROWS_CEILING} on a JDBC connection that belongs to one call: the statement runs with autocommit
 * off and is committed only when it changed at most the ceiling's rows, else rolled back with {@link
 * AffectedRowsExceeded}. Rows a {@code RETURNING} clause answers with count as changed. Whatever happens, the
 * connection is left without an open transaction (rolled back), in autocommit mode again.
 */
public final class AffectedRowsCeiling {

    /** The statement's run, on the connection given to {@link #within}. */
    @FunctionalInterface
    public interface Run {
        /**
         * Runs the statement.
         *
         * @return what it did
         * @throws SQLException as the driver throws it
         */
        QueryStats run() throws SQLException;
    }

    private AffectedRowsCeiling() {}

    /**
     * Runs {@code run} in a transaction committed only within the ceiling.
     *
     * @param connection the call's own connection
     * @param maxAffectedRows the ceiling, positive
     * @param run the statement's run on {@code connection}
     * @return what it did
     * @throws AffectedRowsExceeded when it changed more rows (rolled back)
     * @throws SQLException as the driver throws it (rolled back)
     */
    public static QueryStats within(Connection connection, long maxAffectedRows, Run run) throws SQLException {
        requireNonNull(connection, "connection is null");
        requireNonNull(run, "run is null");
        connection.setAutoCommit(false);
        try {
            QueryStats stats = run.run();
            long affected = stats.updateCount() >= 0 ? stats.updateCount() : stats.rows() + (stats.truncated() ? 1 : 0);
            if (affected > maxAffectedRows) {
                connection.rollback();
                throw new AffectedRowsExceeded(affected, maxAffectedRows);
            }
            connection.commit();
            return stats;
        } finally {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        }
    }
}
