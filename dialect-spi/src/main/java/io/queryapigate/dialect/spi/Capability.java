package io.queryapigate.dialect.spi;

/**
 * Guarantees a dialect declares. Kept small on purpose: each value changes what the service or the contract tests
 * do. Richer behaviour is described in the dialect's documentation and proved by its tests.
 */
public enum Capability {
    /** The database itself refuses writes in a {@link AccessMode#READ} call, even one that got past the SQL guard. */
    SERVER_ENFORCED_READ_ONLY,
    /** The time limit is enforced by the database (or by cancelling the statement there), not only by the client. */
    SERVER_SIDE_TIMEOUT,
    /** A running statement can be cancelled through {@link RowSink#onCancellable}. */
    CANCELLATION,
    /** Parameters travel as bound values, never as text spliced into the statement. */
    BIND_PARAMETERS,
    /** Rows reach the sink as the database produces them, with memory independent of the result size. */
    STREAMING,
    /**
     * A write with {@link QueryRequest#maxAffectedRows()} runs in a transaction committed only when the statement
     * changed at most that many rows, otherwise rolled back with {@link AffectedRowsExceeded}; the connection's
     * state afterwards is what it is after any other write (a reader's session never sees it).
     */
    AFFECTED_ROWS_CEILING
}
