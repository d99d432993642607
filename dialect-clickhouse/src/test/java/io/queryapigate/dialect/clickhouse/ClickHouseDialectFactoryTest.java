package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.TableNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Discovery, configuration binding and URL checks; no server needed (nothing is sent at creation). */
class ClickHouseDialectFactoryTest {

    private static DialectContext context(String url) {
        return new DialectContext("analytics", url, Optional.of("reader"), Optional.of("s3cret"), Duration.ofSeconds(30),
                1000, 4, Path.of("."));
    }

    @Test
    void isDiscoverableThroughServiceLoader() {
        List<DialectFactory> found = ServiceLoader.load(DialectFactory.class).stream()
                .map(ServiceLoader.Provider::get).filter(f -> f.name().equals("clickhouse")).toList();
        assertThat(found).singleElement().isInstanceOf(ClickHouseDialectFactory.class);
        assertThat(found.get(0).spiVersion()).isEqualTo(DialectSpi.VERSION);
        assertThat(found.get(0).sensitivePropertyNames()).isEmpty();
    }

    @Test
    void createsFromAMinimalConfiguration() {
        try (Dialect d = new ClickHouseDialectFactory().create(context("http://127.0.0.1:8123"), Map.of())) {
            assertThat(d.sqlFamily()).isEqualTo("clickhouse");
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace(null, "default"));
            assertThat(d.capabilities()).containsExactlyInAnyOrder(Capability.SERVER_ENFORCED_READ_ONLY,
                    Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION, Capability.STREAMING);
            assertThat(d.sessionStrategy()).isInstanceOf(ClickHouseSessionStrategy.class);
        }
    }

    @Test
    void defaults() {
        assertThat(ClickHouseDialectConfig.defaults()).isEqualTo(new ClickHouseDialectConfig("default",
                ClickHouseDialectConfig.Compression.NONE, OptionalInt.empty(), Duration.ofSeconds(5),
                ClickHouseDialectConfig.Auth.HEADERS));
    }

    @Test
    void everyKeyIsBound() {
        ClickHouseDialectConfig c = ClickHouseDialectConfig.from(Map.of(
                "clickhouse.database", "crm",
                "clickhouse.compression", "GZIP",
                "clickhouse.max_concurrent", "12",
                "clickhouse.connect_timeout", "750ms",
                "clickhouse.auth", "basic"));
        assertThat(c).isEqualTo(new ClickHouseDialectConfig("crm", ClickHouseDialectConfig.Compression.GZIP,
                OptionalInt.of(12), Duration.ofMillis(750), ClickHouseDialectConfig.Auth.BASIC));
        assertThat(ClickHouseDialectConfig.from(Map.of("clickhouse.connect_timeout", "PT2S")).connectTimeout())
                .isEqualTo(Duration.ofSeconds(2));
        try (Dialect d = new ClickHouseDialectFactory().create(context("https://ch.internal:8443/"),
                Map.of("clickhouse.database", "crm"))) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace(null, "crm"));
        }
    }

    @Test
    void unknownKeysAreNamedAndRefused() {
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.readonly", "0", "clickhouse.foo", "1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown clickhouse dialect properties: clickhouse.foo, clickhouse.readonly")
                .hasMessageContaining("known: clickhouse.auth, clickhouse.compression");
    }

    @Test
    void malformedValuesNameTheirKey() {
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.compression", "lz4")))
                .hasMessage("clickhouse.compression: expected one of none, gzip, got 'lz4'");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.max_concurrent", "0")))
                .hasMessageStartingWith("clickhouse.max_concurrent: expected 1 to 10000");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.max_concurrent", "many")))
                .hasMessageStartingWith("clickhouse.max_concurrent:");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.connect_timeout", "soon")))
                .hasMessageStartingWith("clickhouse.connect_timeout: expected a duration");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.connect_timeout", "10m")))
                .hasMessageStartingWith("clickhouse.connect_timeout: must be between");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.database", "x'; DROP")))
                .hasMessageStartingWith("clickhouse.database:");
        assertThatThrownBy(() -> ClickHouseDialectConfig.from(Map.of("clickhouse.auth", "ldap")))
                .hasMessageStartingWith("clickhouse.auth:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc:clickhouse://h:8123/db", "tcp://h:9000", "h:8123", "http:///nohost",
            "http://h:8123/db", "http://h:8123/?database=x", "http://h:8123/#f"})
    void onlyHttpBaseUrlsAreAccepted(String url) {
        assertThatThrownBy(() -> new ClickHouseDialectFactory().create(context(url), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url:");
    }

    @Test
    void credentialsInTheUrlAreRefusedWithoutRepeatingThem() {
        assertThatThrownBy(() -> new ClickHouseDialectFactory().create(context("http://bob:hunter2@h:8123"), Map.of()))
                .hasMessageStartingWith("url: credentials do not belong in the URL")
                .message().doesNotContain("hunter2").doesNotContain("bob");
    }

    @Test
    void credentialsThatCannotBeHeadersAreRefusedWithoutRepeatingThem() {
        DialectContext bad = new DialectContext("x", "http://h:8123", Optional.of("reader"),
                Optional.of("pw\r\nX-Evil: 1"), Duration.ofSeconds(1), 1, 1, Path.of("."));
        assertThatThrownBy(() -> new ClickHouseDialectFactory().create(bad, Map.of()))
                .hasMessageStartingWith("password: holds a character").message().doesNotContain("Evil");
    }

    @Test
    void checkUrlNormalizes() {
        assertThat(ClickHouseDialect.checkUrl("http://127.0.0.1:8123").toString()).isEqualTo("http://127.0.0.1:8123/");
        assertThat(ClickHouseDialect.checkUrl("HTTPS://ch.example:8443/").toString()).isEqualTo("https://ch.example:8443/");
        assertThat(ClickHouseDialect.checkUrl("http://[::1]:8123").toString()).isEqualTo("http://[::1]:8123/");
    }

    @Test
    void queryIdsAreUniqueAndCarryASanitizedRequestId() {
        String a = ClickHouseDialect.queryId("req-1/'x");
        assertThat(a).startsWith("qag-req-1x-").hasSize("qag-req-1x-".length() + 36);
        assertThat(ClickHouseDialect.queryId("")).startsWith("qag-").hasSize(40);
        assertThat(ClickHouseDialect.queryId("r")).isNotEqualTo(ClickHouseDialect.queryId("r"));
        assertThat(ClickHouseDialect.queryId("x".repeat(500))).hasSizeLessThan(90);
    }
}
