package io.queryapigate.dialect.spi;

/**
 * The stable classes of failure a dialect reports. The service maps each to one HTTP status and error code, in one
 * place. Dialects translate driver errors by SQLSTATE class first and vendor code second.
 */
public enum DialectError {
    /** The statement is not valid for this database: syntax, unknown table or column, type mismatch, bad cast. */
    SYNTAX(false),
    /** The database refused a change because the call is read-only (for example SQLSTATE 25006). */
    NOT_READ_ONLY(false),
    /** The time limit passed and the statement was stopped. */
    TIMEOUT(false),
    /** The statement was cancelled before it finished, for example because the caller went away. */
    CANCELLED(false),
    /** The database user lacks a privilege the statement needs. */
    PERMISSION_DENIED(false),
    /** The database cannot be reached, refused the connection, or no pooled session was free in time. */
    UNAVAILABLE(true),
    /** The result exceeded a row limit that the engine enforces by failing the statement. */
    ROW_LIMIT(false),
    /**
     * A write violated a constraint: a unique or primary key, a foreign key, NOT NULL, a CHECK (SQLSTATE class 23).
     * The caller's data is at fault; the same write fails again.
     */
    CONSTRAINT(false),
    /**
     * The statement lost a conflict with another transaction: a serialization failure, a deadlock, a lock it could
     * not get (SQLSTATE class 40). The same call may succeed when tried again.
     */
    CONFLICT(true),
    /**
     * The database ran out of a resource for this statement: memory, disk, temporary space, connections, or a
     * program limit (SQLSTATE classes 53 and 54, engine memory limits). It may succeed later or when narrowed.
     */
    RESOURCE_LIMIT(true),
    /** Anything else, including driver bugs; the service answers 500 without the detail. */
    INTERNAL(false);

    private final boolean retryable;

    DialectError(boolean retryable) {
        this.retryable = retryable;
    }

    /**
     * Whether the same call may succeed if tried again later.
     *
     * @return true for transient failures
     */
    public boolean retryable() {
        return retryable;
    }
}
