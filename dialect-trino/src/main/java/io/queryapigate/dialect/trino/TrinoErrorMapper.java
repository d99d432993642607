package io.queryapigate.dialect.trino;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

/**
 * Trino errors by Trino error code. trino-jdbc reports a failed query as a plain {@link SQLException} whose {@link
 * SQLException#getErrorCode()} is Trino's error code, whose SQLSTATE is null (measured on 476 for every error
 * below) and whose message is {@code Query failed (#<query id>): <message>}; the error name is not exposed, so the
 * codes are matched (they are stable: {@code io.trino.spi.StandardErrorCode}).
 *
 * <table>
 *   <caption>Error codes</caption>
 *   <tr><th>code</th><th>name</th><th>error</th></tr>
 *   <tr><td>131075, 131077</td><td>EXCEEDED_TIME_LIMIT, EXCEEDED_CPU_LIMIT</td><td>TIMEOUT</td></tr>
 *   <tr><td>23</td><td>READ_ONLY_VIOLATION</td><td>NOT_READ_ONLY</td></tr>
 *   <tr><td>4</td><td>PERMISSION_DENIED</td><td>PERMISSION_DENIED</td></tr>
 *   <tr><td>3, 38, 2</td><td>USER_CANCELED, ADMINISTRATIVELY_KILLED, ABANDONED_QUERY</td><td>CANCELLED</td></tr>
 *   <tr><td>31, 17, 125, 65537, 65541, 65545, 65548, 65558, 65565, 131074, 131076, 131080</td><td>QUERY_REJECTED,
 *       TRANSACTION_CONFLICT, CATALOG_UNAVAILABLE, TOO_MANY_REQUESTS_FAILED, NO_NODES_AVAILABLE,
 *       SERVER_SHUTTING_DOWN, SERVER_STARTING_UP, REMOTE_HOST_GONE, CATALOG_NOT_AVAILABLE, QUERY_QUEUE_FULL,
 *       CLUSTER_OUT_OF_MEMORY, ADMINISTRATIVELY_PREEMPTED</td><td>UNAVAILABLE (retryable)</td></tr>
 *   <tr><td>20, 21, 22</td><td>UNKNOWN_TRANSACTION, NOT_IN_TRANSACTION, TRANSACTION_ALREADY_ABORTED</td>
 *       <td>INTERNAL (the dialect's own transaction handling failed)</td></tr>
 *   <tr><td>other 0-65535</td><td>USER_ERROR: SYNTAX_ERROR (1), TABLE_NOT_FOUND (46), COLUMN_NOT_FOUND (47),
 *       CATALOG_NOT_FOUND (44), SCHEMA_NOT_FOUND (45), MISSING_SCHEMA_NAME (57), TYPE_MISMATCH (58),
 *       DIVISION_BY_ZERO (8), INVALID_CAST_ARGUMENT (9), NOT_SUPPORTED (13), ...</td><td>SYNTAX</td></tr>
 *   <tr><td>65536-131071, other 131072+</td><td>INTERNAL_ERROR, other INSUFFICIENT_RESOURCES (memory, scan and
 *       spill limits), connector (EXTERNAL) codes</td><td>INTERNAL</td></tr>
 * </table>
 *
 * <p>Errors without a Trino error (code 0 and no {@code Query failed} message) come from the driver: a network
 * failure anywhere in the cause chain ({@link IOException}, {@link UncheckedIOException}) is {@link
 * DialectError#UNAVAILABLE}. A cancel the dialect itself caused shows up as code 0 with a {@code
 * CancellationException} cause; the dialect decides those from its {@link io.queryapigate.dialect.jdbc.TimeLimit}
 * before asking this mapper.
 */
public class TrinoErrorMapper extends JdbcErrorMapper {

    /** Trino error code 23. */
    public static final int READ_ONLY_VIOLATION = 23;
    /** Trino error code 131075. */
    public static final int EXCEEDED_TIME_LIMIT = 131_075;

    private static final int INTERNAL_ERROR_BASE = 0x1_0000;

    private static final Map<Integer, DialectError> CODES = Map.ofEntries(
            Map.entry(EXCEEDED_TIME_LIMIT, DialectError.TIMEOUT),
            Map.entry(131_077, DialectError.TIMEOUT), // EXCEEDED_CPU_LIMIT
            Map.entry(READ_ONLY_VIOLATION, DialectError.NOT_READ_ONLY),
            Map.entry(4, DialectError.PERMISSION_DENIED),
            Map.entry(3, DialectError.CANCELLED), // USER_CANCELED
            Map.entry(38, DialectError.CANCELLED), // ADMINISTRATIVELY_KILLED
            Map.entry(2, DialectError.CANCELLED), // ABANDONED_QUERY
            Map.entry(31, DialectError.UNAVAILABLE), // QUERY_REJECTED
            Map.entry(17, DialectError.CONFLICT), // TRANSACTION_CONFLICT
            Map.entry(125, DialectError.UNAVAILABLE), // CATALOG_UNAVAILABLE
            Map.entry(65_537, DialectError.UNAVAILABLE), // TOO_MANY_REQUESTS_FAILED
            Map.entry(65_541, DialectError.UNAVAILABLE), // NO_NODES_AVAILABLE
            Map.entry(65_545, DialectError.UNAVAILABLE), // SERVER_SHUTTING_DOWN
            Map.entry(65_548, DialectError.UNAVAILABLE), // SERVER_STARTING_UP
            Map.entry(65_558, DialectError.UNAVAILABLE), // REMOTE_HOST_GONE
            Map.entry(65_565, DialectError.UNAVAILABLE), // CATALOG_NOT_AVAILABLE
            Map.entry(131_074, DialectError.UNAVAILABLE), // QUERY_QUEUE_FULL
            Map.entry(131_076, DialectError.UNAVAILABLE), // CLUSTER_OUT_OF_MEMORY
            Map.entry(131_080, DialectError.UNAVAILABLE), // ADMINISTRATIVELY_PREEMPTED
            Map.entry(131_073, DialectError.RESOURCE_LIMIT), // EXCEEDED_GLOBAL_MEMORY_LIMIT
            Map.entry(131_079, DialectError.RESOURCE_LIMIT), // EXCEEDED_LOCAL_MEMORY_LIMIT
            Map.entry(131_078, DialectError.RESOURCE_LIMIT), // EXCEEDED_SPILL_LIMIT
            Map.entry(131_081, DialectError.RESOURCE_LIMIT), // EXCEEDED_SCAN_LIMIT
            Map.entry(20, DialectError.INTERNAL), // UNKNOWN_TRANSACTION
            Map.entry(21, DialectError.INTERNAL), // NOT_IN_TRANSACTION
            Map.entry(22, DialectError.INTERNAL)); // TRANSACTION_ALREADY_ABORTED

    /** Creates the mapper. */
    public TrinoErrorMapper() {}

    /**
     * Whether the exception reports a failed Trino query (rather than a driver or network failure).
     *
     * @param exception the exception
     * @return true for {@code Query failed (#...)} exceptions
     */
    public static boolean isQueryFailure(SQLException exception) {
        String message = exception.getMessage();
        return message != null && message.startsWith("Query failed (#");
    }

    /**
     * The error for a Trino error code.
     *
     * @param code the code
     * @return the class
     */
    public static DialectError forCode(int code) {
        DialectError known = CODES.get(code);
        if (known != null) {
            return known;
        }
        return code >= 0 && code < INTERNAL_ERROR_BASE ? DialectError.SYNTAX : DialectError.INTERNAL;
    }

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        if (isQueryFailure(exception)) {
            return forCode(exception.getErrorCode());
        }
        for (Throwable t = exception.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof IOException || t instanceof UncheckedIOException) {
                return DialectError.UNAVAILABLE;
            }
        }
        return null;
    }

    /**
     * Whether a failed read was refused because it ran inside the read-only transaction, although Trino reports
     * it with another code: procedures ({@code CALL}, error 13) and {@code SET SESSION AUTHORIZATION} (error 0)
     * cannot run inside a transaction at all.
     *
     * @param exception the exception
     * @return true for those refusals
     */
    public static boolean refusedByTransaction(SQLException exception) {
        if (!isQueryFailure(exception)) {
            return false;
        }
        String message = exception.getMessage().toLowerCase(Locale.ROOT);
        return message.contains("cannot be called within a transaction")
                || message.contains("in the middle of a transaction");
    }
}
