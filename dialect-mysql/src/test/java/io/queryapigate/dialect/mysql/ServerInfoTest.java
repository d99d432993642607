package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerInfoTest {

    @Test
    void detectsMariaDbFromTheVersionOrTheComment() {
        ServerInfo deb = ServerInfo.parse("10.11.19-MariaDB-0+deb12u1", "Debian 12");
        assertThat(deb.flavor()).isEqualTo(ServerInfo.Flavor.MARIADB);
        assertThat(deb.label()).isEqualTo("MariaDB 10.11.19");
        assertThat(deb.readOnlyVariable()).isEqualTo("tx_read_only");
        // what Connector/J's metadata shows: the handshake prefix is not the version
        assertThat(ServerInfo.parse("5.5.5-10.6.4-MariaDB-log", "").label()).isEqualTo("MariaDB 10.6.4");
        assertThat(ServerInfo.parse("11.4.2", "mariadb.org binary distribution").flavor())
                .isEqualTo(ServerInfo.Flavor.MARIADB);
        assertThat(ServerInfo.parse("11.4.2-MariaDB", "").readOnlyVariable()).isEqualTo("transaction_read_only");
    }

    @Test
    void detectsMySql() {
        ServerInfo mysql = ServerInfo.parse("8.4.3", "MySQL Community Server - GPL");
        assertThat(mysql.flavor()).isEqualTo(ServerInfo.Flavor.MYSQL);
        assertThat(mysql.readOnlyVariable()).isEqualTo("transaction_read_only");
        assertThat(ServerInfo.parse("5.7.19-log", "").readOnlyVariable()).isEqualTo("tx_read_only");
        assertThat(ServerInfo.parse("8.0", "").atLeast(8, 0, 0)).isTrue();
    }

    @Test
    void refusesServersWithoutTheNeededFeatures() {
        assertThatThrownBy(() -> ServerInfo.parse("5.6.51", "").requireSupported())
                .hasMessageContaining("MySQL 5.7.8");
        assertThatThrownBy(() -> ServerInfo.parse("10.0.38-MariaDB", "").requireSupported())
                .hasMessageContaining("MariaDB 10.1.2");
        ServerInfo.parse("5.7.8", "").requireSupported();
        ServerInfo.parse("10.1.2-MariaDB", "").requireSupported();
        assertThatThrownBy(() -> ServerInfo.parse("unknown", "")).isInstanceOf(IllegalArgumentException.class);
    }
}
