package io.queryapigate.errors;

import io.queryapigate.dialect.spi.DialectError;

/**
 * The one table from a dialect's error class to what the caller gets: the HTTP status, the stable code (also the
 * word the event log records) and the message. Only the errors the caller can act on in its own SQL or data
 * ({@link #showsDatabaseMessage}) carry the database's words, as {@code detail}. Used by {@link DialectExceptionMapper} and by the call recorder, so
 * that an event's code and the response's code are the same word.
 */
public final class DialectErrors {
    private DialectErrors() {}

    /**
     * What one error class answers.
     *
     * @param status the HTTP status
     * @param code the stable code
     * @param message the message
     * @param retryAfterSeconds the {@code Retry-After} a client should honour, 0 for none
     */
    public record Answer(int status, String code, String message, long retryAfterSeconds) {
        Answer(int status, String code, String message) {
            this(status, code, message, 0);
        }
    }

    /**
     * The {@code Retry-After} of a database that is down: the dialects refuse at once while it is, and let calls
     * through within a fraction of a second once it answers.
     */
    public static final long UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

    /** True for syntax errors and constraint violations: the caller's own SQL or data is at fault. */
    public static boolean showsDatabaseMessage(DialectError error) {
        return error == DialectError.SYNTAX || error == DialectError.CONSTRAINT;
    }

    public static Answer of(DialectError error) {
        return switch (error) {
            case SYNTAX -> new Answer(500, "query_failed", "An error occurred while executing the SQL query");
            case NOT_READ_ONLY -> new Answer(403, "read_only", "The database refused a change in a read-only call.");
            case PERMISSION_DENIED -> new Answer(403, "database_permission_denied",
                    "The gateway's database user lacks a privilege this query needs.");
            case TIMEOUT -> new Answer(504, "query_timeout", "The query exceeded its time limit and was stopped.");
            case CANCELLED -> new Answer(503, "cancelled", "The query was cancelled.");
            case ROW_LIMIT -> new Answer(413, "row_limit", "The result exceeded the row limit.");
            case CONSTRAINT -> new Answer(409, "constraint_violation", "The database refused the change: it violates "
                    + "a constraint");
            case CONFLICT -> new Answer(409, "conflict", "The change conflicted with another transaction; try again.");
            case RESOURCE_LIMIT -> new Answer(503, "resource_limit", "The database ran out of a resource for this "
                    + "query (memory, disk, a limit); try again later or narrow the query.");
            case UNAVAILABLE -> new Answer(503, "database_unavailable", "The database is unavailable; try again later.",
                    UNAVAILABLE_RETRY_AFTER_SECONDS);
            case INTERNAL -> new Answer(500, "query_failed",
                    "The query failed; the server log has details under this request id.");
        };
    }
}
