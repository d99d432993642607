package io.queryapigate.dialect.mysql;

import io.queryapigate.dialect.jdbc.JdbcErrorMapper;
import io.queryapigate.dialect.spi.DialectError;
import java.sql.SQLException;
import java.util.Locale;

/**
 * MySQL and MariaDB errors by vendor code first, then by SQLSTATE and exception type ({@link JdbcErrorMapper}).
 *
 * <p>Vendor codes come first because MySQL's SQLSTATEs are coarse: {@code 42000} is a syntax error (1064), an
 * access denial (1142, 1044) and an unknown database (1049) alike, and {@code 70100} is both a time limit (1969)
 * and a KILL (1317).
 *
 * <table>
 *   <caption>Vendor codes</caption>
 *   <tr><th>code</th><th>meaning</th><th>error</th></tr>
 *   <tr><td>1969, 3024, 1907</td><td>max_statement_time / max_execution_time exceeded</td><td>TIMEOUT</td></tr>
 *   <tr><td>1205</td><td>lock wait timeout</td><td>TIMEOUT</td></tr>
 *   <tr><td>1317</td><td>query interrupted (KILL QUERY)</td><td>CANCELLED</td></tr>
 *   <tr><td>1792</td><td>statement refused in a READ ONLY transaction</td><td>NOT_READ_ONLY</td></tr>
 *   <tr><td>1290, 1836</td><td>server running with read_only</td><td>NOT_READ_ONLY</td></tr>
 *   <tr><td>1044, 1045, 1142, 1143, 1227, 1370, 1698, 1095</td><td>access denied</td><td>PERMISSION_DENIED</td></tr>
 *   <tr><td>1064, 1146, 1054, 1049, 1305, 1052, 1060, 1111, 1055, 1222, 1241, 1242, 1248, 1582, 1583, 1630</td>
 *       <td>syntax, unknown object, invalid query</td><td>SYNTAX</td></tr>
 *   <tr><td>1062, 1048, 1364, 1451, 1452, 1406, 1264, 1292, 1366, 1365</td><td>constraint or data error</td>
 *       <td>SYNTAX (the caller's statement or data is wrong)</td></tr>
 *   <tr><td>1213</td><td>deadlock (transaction rolled back)</td><td>UNAVAILABLE (retryable)</td></tr>
 *   <tr><td>1040, 1053, 1077, 1129, 1152, 1158-1161, 1184, 1226, 1927, 2002, 2003, 2005, 2006, 2013, 2055</td>
 *       <td>cannot connect, lost connection, too many connections, resource limit</td><td>UNAVAILABLE</td></tr>
 * </table>
 *
 * <p>Then SQLSTATE: {@code 08xxx} UNAVAILABLE, {@code 25006} NOT_READ_ONLY, {@code 42xxx}, {@code 22xxx}, {@code
 * 21xxx} and {@code 23xxx} SYNTAX, {@code 28000} PERMISSION_DENIED, {@code 40001} UNAVAILABLE.
 */
public class MySqlErrorMapper extends JdbcErrorMapper {

    /** Creates the mapper. */
    public MySqlErrorMapper() {}

    @Override
    public DialectError classify(SQLException exception) {
        int seen = 0;
        for (SQLException e = exception; e != null && seen < 32; e = e.getNextException(), seen++) {
            DialectError byVendor = classifyVendor(e);
            if (byVendor != null) {
                return byVendor;
            }
        }
        return super.classify(exception);
    }

    @Override
    protected DialectError classifyVendor(SQLException exception) {
        return switch (exception.getErrorCode()) {
            case 1969, 3024, 1907, 1205 -> DialectError.TIMEOUT;
            case 1317 -> DialectError.CANCELLED;
            case 1792, 1836 -> DialectError.NOT_READ_ONLY;
            case 1290 -> {
                String m = String.valueOf(exception.getMessage()).toLowerCase(Locale.ROOT);
                yield m.contains("read-only") || m.contains("read_only") ? DialectError.NOT_READ_ONLY : null;
            }
            case 1044, 1045, 1142, 1143, 1227, 1370, 1698, 1095 -> DialectError.PERMISSION_DENIED;
            case 1064, 1146, 1054, 1049, 1305, 1052, 1060, 1111, 1055, 1222, 1241, 1242, 1248, 1582, 1583, 1630,
                    1364, 1406, 1264, 1292, 1366, 1365 -> DialectError.SYNTAX;
            case 1062, 1048, 1451, 1452, 1557, 1586, 3819 -> DialectError.CONSTRAINT;
            case 1213 -> DialectError.CONFLICT;
            case 1040, 1053, 1077, 1129, 1152, 1158, 1159, 1160, 1161, 1184, 1226, 1927, 2002, 2003, 2005,
                    2006, 2013, 2055 -> DialectError.UNAVAILABLE;
            case 1037, 1038, 1041, 1114, 1135 -> DialectError.RESOURCE_LIMIT;
            default -> null;
        };
    }

    @Override
    protected DialectError classifySqlState(String sqlState) {
        if (sqlState != null && sqlState.length() == 5) {
            switch (sqlState.substring(0, 2)) {
                case "21" -> {
                    return DialectError.SYNTAX;
                }
                case "23" -> {
                    return DialectError.CONSTRAINT;
                }
                case "28" -> {
                    return DialectError.PERMISSION_DENIED;
                }
                case "40" -> {
                    return DialectError.CONFLICT;
                }
                default -> {
                    // the standard table below
                }
            }
        }
        return super.classifySqlState(sqlState);
    }
}
