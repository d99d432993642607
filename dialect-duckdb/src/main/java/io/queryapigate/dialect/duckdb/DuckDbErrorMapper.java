package io.queryapigate.dialect.duckdb;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;
import java.util.List;

/**
 * Classifies DuckDB errors. DuckDB reports no SQLSTATE; its messages start with an error type ({@code Parser
 * Error}, {@code Catalog Error}, ...), sometimes behind the driver's wrapper for a failed streaming query, which is
 * removed from the message.
 */
final class DuckDbErrorMapper extends JdbcErrorMapper {

    private static final String PENDING_WRAPPER =
            "Invalid Input Error: Attempting to execute an unsuccessful or closed pending query result";
    private static final List<String> STATEMENT_ERRORS = List.of(
            "Parser Error", "Catalog Error", "Binder Error", "Conversion Error", "Out of Range Error",
            "Not implemented Error", "Invalid Input Error", "Syntax Error");

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        String message = message(exception);
        if (message.contains("read-only mode") || message.contains("read-only transaction")) {
            return DialectError.NOT_READ_ONLY;
        }
        if (message.startsWith("Permission Error") || message.contains("the configuration has been locked")) {
            return DialectError.PERMISSION_DENIED;
        }
        if (message.startsWith("INTERRUPT Error")) {
            // an interrupt the dialect did not cause (its own are decided before this mapper is asked)
            return DialectError.CANCELLED;
        }
        if (message.startsWith("Connection Error") || message.startsWith("Connection was closed")
                || message.startsWith("Connection is closed") || message.startsWith("IO Error: Cannot open database")) {
            return DialectError.UNAVAILABLE;
        }
        for (String prefix : STATEMENT_ERRORS) {
            if (message.startsWith(prefix)) {
                return DialectError.SYNTAX;
            }
        }
        return null;
    }

    @Override
    protected String message(SQLException exception) {
        String message = super.message(exception);
        if (message.startsWith(PENDING_WRAPPER)) {
            int inner = message.indexOf("Error: ", PENDING_WRAPPER.length());
            if (inner >= 0) {
                message = message.substring(inner + "Error: ".length()).strip();
            }
        }
        return message;
    }
}
