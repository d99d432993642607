package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Discovery, creation and validation; no server needed. */
class TrinoDialectFactoryTest {

    static DialectContext context(String url, Optional<String> user, Optional<String> password) {
        return new DialectContext("t", url, user, password, Duration.ofSeconds(5), 100, 1, Path.of("/tmp"));
    }

    static Dialect create(String url, Map<String, String> properties) {
        return new TrinoDialectFactory().create(context(url, Optional.of("u"), Optional.empty()), properties);
    }

    @Test
    void isDiscoverableByName() {
        List<DialectFactory> found = ServiceLoader.load(DialectFactory.class).stream()
                .map(ServiceLoader.Provider::get).filter(f -> f.name().equals("trino")).toList();
        assertThat(found).singleElement().isInstanceOf(TrinoDialectFactory.class);
        assertThat(found.get(0).spiVersion()).isEqualTo(DialectSpi.VERSION);
        assertThat(found.get(0).sensitivePropertyNames()).containsExactly("trino.ssl_truststore_password");
    }

    @Test
    void createsWithoutTouchingTheNetworkAndDeclaresItsGuarantees() {
        try (Dialect d = create("jdbc:trino://127.0.0.1:1", Map.of())) {
            assertThat(d.capabilities()).containsExactlyInAnyOrder(Capability.SERVER_ENFORCED_READ_ONLY,
                    Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION, Capability.STREAMING);
            assertThat(d.sqlFamily()).isEqualTo("trino");
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace(null, null));
            DialectException e = org.assertj.core.api.Assertions.catchThrowableOfType(DialectException.class,
                    () -> d.execute(QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(2), 1),
                            new RecordingSink()));
            assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        }
    }

    @Test
    void theNamespaceComesFromTheUrlOrTheProperties() {
        try (Dialect d = create("jdbc:trino://h:8080/Hive/Sales", Map.of())) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("hive", "sales"));
        }
        try (Dialect d = create("jdbc:trino://h:8080/hive", Map.of())) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("hive", null));
        }
        try (Dialect d = create("jdbc:trino://h:8080", Map.of("trino.catalog", "tpch", "trino.schema", "tiny"))) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("tpch", "tiny"));
        }
        try (Dialect d = create("jdbc:trino://h:8080/tpch", Map.of("trino.catalog", "tpch", "trino.schema", "tiny"))) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("tpch", "tiny"));
        }
        assertThatThrownBy(() -> create("jdbc:trino://h:8080/hive", Map.of("trino.catalog", "tpch")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("trino.catalog: 'tpch' contradicts");
        assertThatThrownBy(() -> create("jdbc:trino://h:8080", Map.of("trino.schema", "tiny")))
                .hasMessageStartingWith("trino.schema:");
        assertThatThrownBy(() -> create("jdbc:trino://h:8080/a/b/c", Map.of())).hasMessageStartingWith("url:");
    }

    @Test
    void refusesUrlsAndCredentialsThatCannotWork() {
        assertThatThrownBy(() -> create("jdbc:postgresql://h/db", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:trino://");
        for (String property : List.of("explicitPrepare=true", "SSL=true", "user=x", "timezone=UTC", "source=x",
                "catalog=x", "password=x")) {
            assertThatThrownBy(() -> create("jdbc:trino://h:8080?a=b&" + property, Map.of()))
                    .as(property).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(property.substring(0, property.indexOf('=')))
                    .hasMessageNotContaining("=x");
        }
        assertThatThrownBy(() -> create("jdbc:trino://h:8080?nosuchproperty=1", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url: trino-jdbc refuses");
        TrinoDialectFactory f = new TrinoDialectFactory();
        assertThatThrownBy(() -> f.create(context("jdbc:trino://h:8080", Optional.empty(), Optional.empty()), Map.of()))
                .hasMessageStartingWith("user:");
        assertThatThrownBy(() -> f.create(context("jdbc:trino://h:8080", Optional.of("u"), Optional.of("pw")), Map.of()))
                .hasMessageStartingWith("trino.ssl:").hasMessageNotContaining("pw");
        try (Dialect d = f.create(context("jdbc:trino://h:8443", Optional.of("u"), Optional.of("pw")),
                Map.of("trino.ssl", "true"))) {
            assertThat(d).isInstanceOf(TrinoDialect.class);
        }
        assertThatThrownBy(() -> create("jdbc:trino://h:8080", Map.of("trino.nope", "1")))
                .hasMessageContaining("trino.nope");
    }

    @Test
    void offsetTimestampsAreRenderedWithTheirOffset() {
        assertThat(TrinoParameterBinder.text(OffsetDateTime.of(2024, 1, 15, 10, 30, 0, 0, ZoneOffset.ofHours(2))))
                .isEqualTo("2024-01-15 10:30:00 +02:00");
        assertThat(TrinoParameterBinder.text(OffsetDateTime.of(2024, 1, 15, 10, 30, 5, 120_000_000, ZoneOffset.UTC)))
                .isEqualTo("2024-01-15 10:30:05.12 +00:00");
        assertThat(TrinoParameterBinder.text(OffsetDateTime.of(1999, 12, 31, 23, 59, 59, 1, ZoneOffset.ofHoursMinutes(-5, -30))))
                .isEqualTo("1999-12-31 23:59:59.000000001 -05:30");
    }
}
