package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PostgresDialectFactoryTest {

    @Test
    void isDiscoverableThroughServiceLoader() {
        assertThat(ServiceLoader.load(DialectFactory.class).stream().map(ServiceLoader.Provider::get))
                .filteredOn(f -> f.name().equals("postgres"))
                .singleElement()
                .isInstanceOf(PostgresDialectFactory.class)
                .satisfies(f -> assertThat(f.spiVersion()).isEqualTo(DialectSpi.VERSION));
        assertThat(DialectSpi.major(new PostgresDialectFactory().spiVersion())).isEqualTo(1);
        assertThat(new PostgresDialectFactory().sensitivePropertyNames()).isEmpty();
    }

    @Test
    void createsFromAMinimalConfigurationEvenWhenTheDatabaseIsDown() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        long start = System.nanoTime();
        try (Dialect dialect = new PostgresDialectFactory().create(context("jdbc:postgresql://127.0.0.1:" + closedPort
                + "/test"), Map.of())) {
            assertThat(dialect.capabilities()).containsExactlyInAnyOrder(Capability.values());
            assertThat(dialect.sessionStrategy()).isInstanceOf(PostgresSessionStrategy.class);
            DialectException health = org.assertj.core.api.Assertions.catchThrowableOfType(DialectException.class,
                    () -> dialect.checkHealth(Duration.ofMillis(500)));
            assertThat(health.error()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(health.getMessage()).contains("has not answered since").contains("Connection refused")
                    .doesNotContain("secret");
            DialectException call = org.assertj.core.api.Assertions.catchThrowableOfType(DialectException.class,
                    () -> dialect.execute(QueryRequest.read("SELECT 1", List.of(), Duration.ofMillis(300), 1),
                            new RecordingSink()));
            assertThat(call.error()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(call.error().retryable()).isTrue();
            assertThat(dialect.toString()).doesNotContain("secret");
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void defaults() {
        PostgresDialectConfig config = PostgresDialectConfig.fromProperties(Map.of());
        assertThat(config).isEqualTo(PostgresDialectConfig.defaults());
        assertThat(config.poolIdleValidation()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.fetchSize()).isEqualTo(1000);
        assertThat(config.queryMode()).isEqualTo(QueryMode.EXTENDED);
        assertThat(config.applicationName()).isEqualTo("queryapigate");
        assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.timeoutMargin()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.maxLifetime()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void bindsEveryProperty() {
        PostgresDialectConfig config = PostgresDialectConfig.fromProperties(Map.of(
                "postgres.pool_idle_validation", "750ms",
                "postgres.fetch_size", "250",
                "postgres.prefer_query_mode", " Simple ",
                "postgres.application_name", "gateway-eu",
                "postgres.connect_timeout", "PT3S",
                "postgres.timeout_margin", "1s",
                "postgres.max_lifetime", "2h"));
        assertThat(config).isEqualTo(new PostgresDialectConfig(Duration.ofMillis(750), 250, QueryMode.SIMPLE, "gateway-eu",
                Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofHours(2)));
        assertThat(PostgresDialectConfig.fromProperties(Map.of("postgres.pool_idle_validation", "0s")).poolIdleValidation())
                .isZero();
        assertThat(PostgresDialectConfig.fromProperties(Map.of("postgres.max_lifetime", "2m")).maxLifetime())
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void rejectsUnknownKeysNamingThem() {
        assertThatThrownBy(() -> PostgresDialectConfig.fromProperties(Map.of("postgres.fetchsize", "10")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown property postgres.fetchsize;")
                .hasMessageContaining("postgres.fetch_size");
        assertThatThrownBy(() -> PostgresDialectConfig.fromProperties(Map.of("duckdb.read_only", "true", "x", "y")))
                .hasMessageStartingWith("unknown properties duckdb.read_only, x;");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "postgres.fetch_size|0",
        "postgres.fetch_size|lots",
        "postgres.fetch_size|1000001",
        "postgres.prefer_query_mode|turbo",
        "postgres.pool_idle_validation|5 parsecs",
        "postgres.pool_idle_validation|-PT1S",
        "postgres.timeout_margin|10ms",
        "postgres.connect_timeout|0s",
        "postgres.max_lifetime|10s",
        "postgres.application_name|naïve",
        "postgres.application_name|' '",
    })
    void rejectsMalformedValuesNamingTheKey(String key, String value) {
        assertThatThrownBy(() -> PostgresDialectConfig.fromProperties(Map.of(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(key + ":");
    }

    @Test
    void checksTheUrl() {
        PostgresDialectFactory factory = new PostgresDialectFactory();
        assertThatThrownBy(() -> factory.create(context("jdbc:mysql://localhost/test"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url:");
        assertThatThrownBy(() -> factory.create(context("jdbc:postgresql://localhost/test?PreferQueryMode=simple"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("url:")
                .hasMessageContaining("postgres.prefer_query_mode");
        for (String key : List.of("applicationName", "assumeMinServerVersion", "autosave")) {
            assertThatThrownBy(() -> factory.create(context("jdbc:postgresql://localhost/test?sslmode=require&" + key + "=x"),
                    Map.of())).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url: the dialect sets " + key);
        }
        assertThat(PostgresDialect.checkUrl(" jdbc:postgresql://db:5432/app?sslmode=require&currentSchema=billing "))
                .isEqualTo("jdbc:postgresql://db:5432/app?sslmode=require&currentSchema=billing");
    }

    @Test
    void simpleModeDoesNotClaimBoundParameters() {
        try (Dialect dialect = new PostgresDialectFactory().create(context("jdbc:postgresql://127.0.0.1:1/test"),
                Map.of("postgres.prefer_query_mode", "simple"))) {
            assertThat(dialect.capabilities()).doesNotContain(Capability.BIND_PARAMETERS)
                    .contains(Capability.SERVER_ENFORCED_READ_ONLY, Capability.SERVER_SIDE_TIMEOUT,
                            Capability.CANCELLATION, Capability.STREAMING);
        }
    }

    private static DialectContext context(String url) {
        return new DialectContext("factory-test", url, Optional.of("nobody"), Optional.of("secret"), Duration.ofSeconds(1),
                100, 1, Path.of("."));
    }
}
