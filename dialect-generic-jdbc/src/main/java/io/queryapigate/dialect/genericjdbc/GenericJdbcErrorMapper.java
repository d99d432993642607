package io.queryapigate.dialect.genericjdbc;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The SQLSTATE table of {@link JdbcErrorMapper}, with one correction for drivers that report an unknown table or
 * column as SQLSTATE 42501 (insufficient privilege) with a message saying the object was not found, as HSQLDB does
 * ({@code user lacks privilege or object not found: QAG_NO_SUCH_TABLE}): that is {@link DialectError#SYNTAX}, as
 * an unknown object is on every other engine. Without "not found" in the message, 42501 stays {@link
 * DialectError#PERMISSION_DENIED}.
 */
final class GenericJdbcErrorMapper extends JdbcErrorMapper {

    @Override
    public DialectError classify(SQLException exception) {
        DialectError error = super.classify(exception);
        if (error == DialectError.PERMISSION_DENIED && "42501".equals(exception.getSQLState())) {
            String message = exception.getMessage();
            if (message != null && message.toLowerCase(Locale.ROOT).contains("not found")) {
                return DialectError.SYNTAX;
            }
        }
        return error;
    }
}
