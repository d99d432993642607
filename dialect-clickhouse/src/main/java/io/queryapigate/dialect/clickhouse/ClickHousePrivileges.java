package io.queryapigate.dialect.clickhouse;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Dialect#privilegeWarnings} for ClickHouse. ClickHouse 18.16 has no SQL users or grants: what a user may do
 * is its profile's settings in {@code users.xml}. Read calls carry {@code readonly=1} whatever the profile says, so
 * the profile matters for write calls, which carry no {@code readonly}: the check reads {@code readonly} and
 * {@code allow_ddl} from {@code system.settings} in a call of that kind (a plain {@code SELECT}, which changes
 * nothing) and warns when the profile lets such a call run DDL. Grants of servers with SQL access control (20.5 and
 * later) are not read.
 */
final class ClickHousePrivileges {
    static final String QUERY = "SELECT name, value FROM system.settings WHERE name IN ('readonly', 'allow_ddl')";

    private ClickHousePrivileges() {}

    static List<String> check(Dialect dialect, Duration timeout) {
        Duration limit = timeout == null || timeout.isNegative() || timeout.isZero() ? Duration.ofSeconds(1) : timeout;
        Map<String, String> settings = new HashMap<>();
        try {
            // AccessMode.WRITE: no readonly=1 on the request, so system.settings shows the profile's own value
            dialect.execute(new QueryRequest(QUERY, List.of(), AccessMode.WRITE, limit, 10, false, ""),
                    new RowSink() {
                        @Override
                        public void columns(List<ColumnInfo> columns) {}

                        @Override
                        public boolean row(Object[] values) {
                            settings.put(String.valueOf(values[0]), String.valueOf(values[1]));
                            return true;
                        }
                    });
        } catch (RuntimeException e) {
            return List.of("could not check the ClickHouse user's settings: " + e.getMessage());
        }
        return warnings(settings.get("readonly"), settings.get("allow_ddl"));
    }

    /**
     * The lines for a profile's {@code readonly} and {@code allow_ddl} values (null when the server lacks one).
     *
     * @param readonly the profile's readonly setting
     * @param allowDdl the profile's allow_ddl setting
     * @return one line per finding
     */
    static List<String> warnings(String readonly, String allowDdl) {
        boolean writable = readonly == null || readonly.strip().equals("0");
        boolean ddl = allowDdl == null || !allowDdl.strip().equals("0");
        if (writable && ddl) {
            return List.of("ClickHouse user's profile has readonly=0 and allow_ddl=1: a write call (a key with"
                    + " allow_writes, where security.allowWrites is on) can create, alter and drop tables and"
                    + " databases. Give the user a profile with <allow_ddl>0</allow_ddl> (readonly must stay 0: the"
                    + " dialect sets readonly=1 on every read itself), and restrict it to the gateway's database with"
                    + " <allow_databases> in users.xml (docs/security.md, \"The database user\").");
        }
        return List.of();
    }
}
