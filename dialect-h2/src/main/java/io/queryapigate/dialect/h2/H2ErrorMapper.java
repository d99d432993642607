package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;

/** H2's error codes for what its SQLSTATEs ({@code 90xxx}, H2's own class) do not say. */
final class H2ErrorMapper extends JdbcErrorMapper {

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        return switch (exception.getErrorCode()) {
            case 90097 -> DialectError.NOT_READ_ONLY; // the database is read only
            case 90096 -> DialectError.PERMISSION_DENIED; // not enough rights
            case 90040 -> DialectError.PERMISSION_DENIED; // admin rights are required
            case 90051 -> DialectError.TIMEOUT; // statement canceled or session timed out
            case 90013, 90146, 90067, 90028, 90020, 90098, 90121, 28000 -> DialectError.UNAVAILABLE;
            case 90001, 90002 -> DialectError.SYNTAX; // executeQuery of an update and the reverse
            default -> null;
        };
    }
}
