package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DuckDbDialectFactoryTest {

    @TempDir
    Path home;

    @Test
    void isDiscoverableThroughServiceLoader() {
        assertThat(ServiceLoader.load(DialectFactory.class).stream().map(ServiceLoader.Provider::get))
                .filteredOn(f -> f.name().equals("duckdb"))
                .singleElement()
                .isInstanceOf(DuckDbDialectFactory.class)
                .satisfies(f -> assertThat(f.spiVersion()).isEqualTo(DialectSpi.VERSION));
        assertThat(DialectSpi.major(new DuckDbDialectFactory().spiVersion())).isEqualTo(1);
        assertThat(new DuckDbDialectFactory().sensitivePropertyNames()).isEmpty();
    }

    @Test
    void createsFromAMinimalConfiguration() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("min.duckdb"))) {
            c.createStatement().execute("CREATE TABLE t AS SELECT 1 AS x");
        }
        try (Dialect dialect = new DuckDbDialectFactory().create(context("min.duckdb"), Map.of())) {
            assertThatCode(() -> dialect.checkHealth(Duration.ofSeconds(5))).doesNotThrowAnyException();
            assertThat(dialect.capabilities()).containsExactlyInAnyOrderElementsOf(java.util.EnumSet.complementOf(
                    java.util.EnumSet.of(Capability.AFFECTED_ROWS_CEILING)));
        }
    }

    @Test
    void defaultsAreReadOnlyWithDuckDbsOwnLimits() {
        DuckDbDialectConfig config = DuckDbDialectConfig.fromProperties(Map.of());
        assertThat(config).isEqualTo(DuckDbDialectConfig.defaults());
        assertThat(config.readOnly()).isTrue();
        assertThat(config.initScript()).isEmpty();
        assertThat(config.threads()).isEmpty();
        assertThat(config.memoryLimit()).isEmpty();
    }

    @Test
    void bindsEveryProperty() {
        DuckDbDialectConfig config = DuckDbDialectConfig.fromProperties(Map.of(
                "duckdb.read_only", "false",
                "duckdb.init_script", "config/demo/demo-duckdb.sql",
                "duckdb.threads", "4",
                "duckdb.memory_limit", "512MB"));
        assertThat(config).isEqualTo(new DuckDbDialectConfig(false,
                Optional.of(Path.of("config/demo/demo-duckdb.sql").toAbsolutePath()), OptionalInt.of(4), Optional.of("512MB")));
        assertThat(config.initScript().orElseThrow()).isAbsolute();
        assertThat(DuckDbDialectConfig.fromProperties(Map.of("duckdb.read_only", " TRUE ")).readOnly()).isTrue();
        assertThat(DuckDbDialectConfig.fromProperties(Map.of("duckdb.memory_limit", "1.5 GiB")).memoryLimit()).contains("1.5 GiB");
    }

    @Test
    void rejectsUnknownKeysNamingThem() {
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.readonly", "true")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duckdb.readonly")
                .hasMessageContaining("duckdb.read_only");
        assertThatThrownBy(() -> new DuckDbDialectFactory().create(context("x.duckdb"), Map.of("postgres.ssl", "true", "duckdb.x", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("postgres.ssl")
                .hasMessageContaining("duckdb.x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"maybe", "yes", "1", ""})
    void rejectsABadBooleanNamingTheKey(String value) {
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.read_only", value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duckdb.read_only: expected true or false, got '" + value + "'");
    }

    @Test
    void rejectsBadValuesNamingTheKey() {
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.threads", "0")))
                .hasMessageStartingWith("duckdb.threads: expected 1 to 1024");
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.threads", "four")))
                .hasMessageStartingWith("duckdb.threads: expected 1 to 1024, got 'four'");
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.memory_limit", "75%")))
                .hasMessageStartingWith("duckdb.memory_limit: expected a size");
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(Map.of("duckdb.init_script", " ")))
                .hasMessageStartingWith("duckdb.init_script: expected a file path");
        Map<String, String> withNull = new HashMap<>();
        withNull.put("duckdb.read_only", null);
        assertThatThrownBy(() -> DuckDbDialectConfig.fromProperties(withNull))
                .hasMessageStartingWith("duckdb.read_only: expected true or false");
    }

    @Test
    void rejectsBadUrlsAndAReadOnlyMemoryDatabase() {
        DuckDbDialectFactory factory = new DuckDbDialectFactory();
        assertThatThrownBy(() -> factory.create(context("demo.duckdb;enable_external_access=true"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("url: ");
        assertThatThrownBy(() -> factory.create(context(":memory:"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("duckdb.read_only: ");
        assertThatThrownBy(() -> factory.create(context(":memory:other"), Map.of("duckdb.read_only", "false")))
                .hasMessageStartingWith("url: ");
    }

    @Test
    void resolvesUrls() {
        assertThat(DuckDbDialect.databaseFile("demo.duckdb", home)).isEqualTo(home.resolve("demo.duckdb").toAbsolutePath());
        assertThat(DuckDbDialect.databaseFile("jdbc:duckdb:sub/../demo.duckdb", home)).isEqualTo(home.resolve("demo.duckdb").toAbsolutePath());
        assertThat(DuckDbDialect.databaseFile("/var/data/x.duckdb", home)).isEqualTo(Path.of("/var/data/x.duckdb"));
        assertThat(DuckDbDialect.databaseFile(":memory:", home)).isNull();
        assertThat(DuckDbDialect.databaseFile("jdbc:duckdb:", home)).isNull();
        assertThat(DuckDbDialect.databaseFile("jdbc:duckdb::memory:", home)).isNull();
    }

    private DialectContext context(String url) {
        return new DialectContext("test", url, Optional.empty(), Optional.empty(), Duration.ofSeconds(30), 1000, 2, home);
    }
}
