package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one locator finds all five servers, and a server's URL gives its address. */
class TestServersTest {

    @Test
    void everyServerIsFoundAndAnswers() throws IOException {
        for (TestServers.Server server : List.of(TestServers.postgres(), TestServers.mariadb(), TestServers.redis(),
                TestServers.clickhouse(), TestServers.trino())) {
            assertThat(server.source()).as(server.url()).isNotBlank();
            try (Socket s = new Socket()) {
                s.connect(server.address(), 2_000);
            }
        }
        assertThat(TestServers.postgres()).as("looked for once").isSameAs(TestServers.postgres());
    }

    @Test
    void aServersAddressComesFromItsUrl() {
        TestServers.Server pg = new TestServers.Server("jdbc:postgresql://db.example:6543/test?ssl=false", "u", "p", "x");
        assertThat(pg.host()).isEqualTo("db.example");
        assertThat(pg.port()).isEqualTo(6543);
        assertThat(pg.hostPort()).isEqualTo("db.example:6543");
        assertThat(new TestServers.Server("jdbc:mysql://127.0.0.1/test", "u", "p", "x").port()).isEqualTo(3306);
        assertThat(new TestServers.Server("redis://127.0.0.1", "", "", "x").port()).isEqualTo(6379);
        assertThat(new TestServers.Server("http://127.0.0.1:8123", "default", "", "x").hostPort())
                .isEqualTo("127.0.0.1:8123");
        assertThat(new TestServers.Server("jdbc:trino://127.0.0.1:18080", "test", "", "x").address().getPort())
                .isEqualTo(18080);
    }
}
