package io.queryapigate.dialect.duckdb;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Dialect#privilegeWarnings} for DuckDB. An embedded database has no user: what SQL may reach is the
 * instance's configuration. The dialect opens every database with {@code enable_external_access=false} and {@code
 * lock_configuration=true}; the check reads both back from the running instance (a read call of {@code
 * current_setting()}) and warns when either is not so, since SQL could then read and write files, attach other
 * databases and reach the network as the gateway's operating-system user.
 */
final class DuckDbPrivileges {
    static final String QUERY = "SELECT current_setting('enable_external_access'),"
            + " current_setting('lock_configuration')";

    private DuckDbPrivileges() {}

    static List<String> check(Dialect dialect, Duration timeout) {
        Duration limit = timeout == null || timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout;
        Object[] row = new Object[2];
        try {
            dialect.execute(QueryRequest.read(QUERY, List.of(), limit, 1), new RowSink() {
                @Override
                public void columns(List<ColumnInfo> columns) {}

                @Override
                public boolean row(Object[] values) {
                    row[0] = values[0];
                    row[1] = values[1];
                    return false;
                }
            });
        } catch (RuntimeException e) {
            return List.of("could not check the DuckDB configuration: " + e.getMessage());
        }
        return warnings(String.valueOf(row[0]), String.valueOf(row[1]));
    }

    /**
     * The lines for the instance's settings, as text ({@code true}/{@code false}).
     *
     * @param externalAccess the value of {@code enable_external_access}
     * @param lockConfiguration the value of {@code lock_configuration}
     * @return one line per finding
     */
    static List<String> warnings(String externalAccess, String lockConfiguration) {
        List<String> out = new ArrayList<>();
        if (!"false".equalsIgnoreCase(externalAccess)) {
            out.add("DuckDB database opened with enable_external_access=" + externalAccess + ": SQL can read and"
                    + " write files (read_csv, COPY ... TO), attach other databases and reach the network as the"
                    + " gateway's operating-system user. Open it through the duckdb dialect's defaults, which turn"
                    + " external access off (docs/security.md, \"The database user\").");
        }
        if (!"true".equalsIgnoreCase(lockConfiguration)) {
            out.add("DuckDB database opened with lock_configuration=" + lockConfiguration + ": a statement can change"
                    + " settings such as enable_external_access for every later call. Keep the configuration locked"
                    + " (the duckdb dialect's default; docs/security.md, \"The database user\").");
        }
        return List.copyOf(out);
    }
}
