package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.io.IOException;
import java.sql.SQLException;

/**
 * Classifies PostgreSQL errors by SQLSTATE, on top of the shared table.
 *
 * <table>
 *   <caption>SQLSTATE to DialectError, beyond {@link JdbcErrorMapper}</caption>
 *   <tr><th>SQLSTATE</th><th>error</th></tr>
 *   <tr><td>57P01, 57P02, 57P03 (server shutting down or starting), 53300 (too many connections), class 28
 *       (login refused), 3D000 (no such database)</td><td>{@link DialectError#UNAVAILABLE}</td></tr>
 *   <tr><td>25001 (transaction access mode changed after a query)</td><td>{@link DialectError#NOT_READ_ONLY}</td></tr>
 *   <tr><td>0A000 (feature not supported, e.g. a write inside DECLARE CURSOR), 3F000 (no such schema), 42xxx,
 *       22xxx</td><td>{@link DialectError#SYNTAX}</td></tr>
 * </table>
 *
 * <p>57014 (query canceled) is {@link DialectError#TIMEOUT} here; the dialect decides first whether it caused the
 * cancel itself for a caller that went away ({@link DialectError#CANCELLED}). pgjdbc reports I/O failures as class
 * 08 and drops the connection. Stateless and thread-safe.
 */
final class PostgresErrorMapper extends JdbcErrorMapper {

    @Override
    protected DialectError classifySqlState(String sqlState) {
        if (sqlState == null || sqlState.length() != 5) {
            return null;
        }
        return switch (sqlState) {
            case "57P01", "57P02", "57P03", "53300", "3D000" -> DialectError.UNAVAILABLE;
            case "25001" -> DialectError.NOT_READ_ONLY;
            case "0A000", "3F000" -> DialectError.SYNTAX;
            default -> sqlState.startsWith("28") ? DialectError.UNAVAILABLE : super.classifySqlState(sqlState);
        };
    }

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        // pgjdbc wraps socket failures without a state in a few paths
        return exception.getCause() instanceof IOException ? DialectError.UNAVAILABLE : null;
    }
}
