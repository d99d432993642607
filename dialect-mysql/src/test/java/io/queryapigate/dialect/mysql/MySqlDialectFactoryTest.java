package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.TableNamespace;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class MySqlDialectFactoryTest {

    @Test
    void isDiscoverableByName() {
        List<DialectFactory> found = ServiceLoader.load(DialectFactory.class).stream()
                .map(ServiceLoader.Provider::get).filter(f -> f.name().equals("mysql")).toList();
        assertThat(found).singleElement().isInstanceOf(MySqlDialectFactory.class);
        assertThat(found.get(0).spiVersion()).isEqualTo(DialectSpi.VERSION);
        assertThat(found.get(0).sensitivePropertyNames()).isEmpty();
    }

    @Test
    void createsADialectWhileTheServerIsDownAndReportsItUnavailable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        try (Dialect d = new MySqlDialectFactory().create(
                TestingMariaDb.context("jdbc:mysql://127.0.0.1:" + port + "/x", "u", "p", 1),
                Map.of("mysql.connect_timeout", "1s"))) {
            assertThat(d.capabilities()).contains(Capability.SERVER_ENFORCED_READ_ONLY, Capability.SERVER_SIDE_TIMEOUT,
                    Capability.CANCELLATION, Capability.STREAMING).doesNotContain(Capability.BIND_PARAMETERS);
            assertThatThrownBy(() -> d.checkHealth(Duration.ofMillis(500)))
                    .isInstanceOfSatisfying(DialectException.class,
                            e -> assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE));
            assertThatThrownBy(() -> d.sessionStrategy().plan(QueryRequest.read("SELECT 1", List.of(),
                    Duration.ofSeconds(1), 1))).isInstanceOfSatisfying(DialectException.class,
                            e -> assertThat(e.getMessage()).contains("flavour"));
        }
    }

    @Test
    void aPinnedFlavourPlansBeforeAnyConnection() {
        try (Dialect d = new MySqlDialectFactory().create(
                TestingMariaDb.context("jdbc:mysql://127.0.0.1:1/x", "u", "p", 1), Map.of("mysql.flavor", "mysql"))) {
            SessionPlan plan = d.sessionStrategy().plan(QueryRequest.read("SELECT 1", List.of(),
                    Duration.ofSeconds(1), 1).withMode(AccessMode.READ));
            assertThat(plan.statement()).isEqualTo("SELECT /*+ MAX_EXECUTION_TIME(1000) */ 1");
        }
    }

    @Test
    void sqlFamilyAndDefaultNamespaceComeFromTheUrl() {
        try (Dialect d = new MySqlDialectFactory().create(
                TestingMariaDb.context("jdbc:mysql://h:3306/crm?sslMode=DISABLED", "u", "p", 1), Map.of())) {
            assertThat(d.sqlFamily()).isEqualTo("mysql");
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace(null, "crm"));
        }
        try (Dialect d = new MySqlDialectFactory().create(TestingMariaDb.context("jdbc:mysql://h:3306/", "u", "p", 1),
                Map.of())) {
            assertThat(d.defaultNamespace()).isEqualTo(TableNamespace.UNKNOWN);
        }
        assertThat(MySqlDialect.databaseOf("jdbc:mysql://a:1,b:2/my%20db")).isEqualTo("my db");
        assertThat(MySqlDialect.databaseOf("jdbc:mysql://a")).isNull();
    }

    @Test
    void refusesUrlsThatWeakenTheSession() {
        MySqlDialectFactory f = new MySqlDialectFactory();
        assertThatThrownBy(() -> f.create(TestingMariaDb.context("jdbc:mariadb://h/db", "u", "p", 1), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:mysql://");
        for (String property : List.of("allowMultiQueries=true", "allowLoadLocalInfile=true", "autoReconnect=true",
                "useServerPrepStmts=true", "netTimeoutForStreamingResults=600")) {
            assertThatThrownBy(() -> f.create(TestingMariaDb.context("jdbc:mysql://h/db?a=b&" + property, "u", "p", 1),
                    Map.of())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(property.substring(0, property.indexOf('=')));
        }
        assertThatThrownBy(() -> f.create(TestingMariaDb.context("jdbc:mysql://h/db", "u", "p", 1),
                Map.of("mysql.nope", "1"))).hasMessageContaining("mysql.nope");
    }
}
