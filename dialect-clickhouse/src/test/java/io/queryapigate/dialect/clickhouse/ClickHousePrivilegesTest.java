package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code privilegeWarnings} against the real ClickHouse: its {@code default} user (profile readonly=0, allow_ddl=1)
 * is warned about; profiles the test server cannot offer (users.xml is the server's) are checked on the values.
 */
class ClickHousePrivilegesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void theDefaultProfileAllowsDdlInWriteCalls() {
        TestingClickHouse.require();
        try (ClickHouseDialect d = (ClickHouseDialect) new ClickHouseDialectFactory()
                .create(TestingClickHouse.context(TestingClickHouse.url(), 1), Map.of())) {
            List<String> warnings = d.privilegeWarnings(TIMEOUT);
            assertThat(warnings).singleElement().asString().contains("readonly=0 and allow_ddl=1")
                    .contains("<allow_ddl>0</allow_ddl>").contains("<allow_databases>");
        }
        // what the check relies on: the server's default profile, seen without readonly=1 on the request
        assertThat(TestingClickHouse.value("SELECT value FROM system.settings WHERE name = 'readonly'")).isEqualTo("0");
    }

    @Test
    void anUnreachableServerGivesOneLineAndNoException() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (ClickHouseDialect d = (ClickHouseDialect) new ClickHouseDialectFactory()
                .create(TestingClickHouse.context("http://127.0.0.1:" + closedPort, 1), Map.of())) {
            assertThat(d.privilegeWarnings(Duration.ofMillis(800))).singleElement().asString()
                    .startsWith("could not check the ClickHouse user's settings");
        }
    }

    @Test
    void aProfileWithoutDdlOrReadOnlyGetsNone() {
        assertThat(ClickHousePrivileges.warnings("0", "0")).isEmpty();
        assertThat(ClickHousePrivileges.warnings("1", "1")).isEmpty();
        assertThat(ClickHousePrivileges.warnings("2", "1")).isEmpty();
        assertThat(ClickHousePrivileges.warnings("0", "1")).hasSize(1);
        assertThat(ClickHousePrivileges.warnings(null, null)).hasSize(1);
    }
}
