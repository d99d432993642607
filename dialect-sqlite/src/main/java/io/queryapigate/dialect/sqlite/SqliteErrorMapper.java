package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;
import org.sqlite.SQLiteException;

/**
 * Classifies SQLite errors by their primary result code ({@code SQLITE_READONLY}, {@code SQLITE_BUSY}, ...);
 * {@code SQLITE_ERROR}, which covers both bad SQL and refused operations, by its message. SQLite reports no
 * SQLSTATE. The driver's {@code [SQLITE_...] ... (detail)} wrapper is reduced to the detail.
 */
final class SqliteErrorMapper extends JdbcErrorMapper {

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        int code = exception instanceof SQLiteException sqlite ? sqlite.getResultCode().code & 0xff
                : exception.getErrorCode() & 0xff;
        return switch (code) {
            case 8 -> DialectError.NOT_READ_ONLY; // SQLITE_READONLY
            case 5, 6 -> DialectError.CONFLICT; // SQLITE_BUSY, SQLITE_LOCKED: the busy timeout passed
            case 9 -> DialectError.CANCELLED; // SQLITE_INTERRUPT the dialect did not cause
            case 3, 23 -> DialectError.PERMISSION_DENIED; // SQLITE_PERM, SQLITE_AUTH
            case 19 -> DialectError.CONSTRAINT;
            case 7, 13, 18 -> DialectError.RESOURCE_LIMIT; // SQLITE_NOMEM, SQLITE_FULL, SQLITE_TOOBIG
            case 10, 11, 14, 26 -> DialectError.UNAVAILABLE; // SQLITE_IOERR, CORRUPT, CANTOPEN, NOTADB
            case 20, 25 -> DialectError.SYNTAX; // SQLITE_MISMATCH, SQLITE_RANGE
            case 1 -> statementError(message(exception));
            default -> null;
        };
    }

    private static DialectError statementError(String message) {
        if (message.startsWith("too many attached databases") || message.startsWith("not authorized")
                || message.endsWith("may not be modified")) {
            return DialectError.PERMISSION_DENIED;
        }
        if (message.startsWith("attempt to write a readonly database")) {
            return DialectError.NOT_READ_ONLY;
        }
        return DialectError.SYNTAX;
    }

    /** The detail in parentheses of {@code [SQLITE_ERROR] SQL error or missing database (no such table: x)}. */
    @Override
    protected String message(SQLException exception) {
        String message = super.message(exception);
        if (message.startsWith("[SQLITE_") && message.endsWith(")")) {
            int open = message.indexOf(" (");
            if (open > 0) {
                return message.substring(open + 2, message.length() - 1).strip();
            }
        }
        return message;
    }
}
