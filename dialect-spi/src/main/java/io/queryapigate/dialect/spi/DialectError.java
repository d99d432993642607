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
