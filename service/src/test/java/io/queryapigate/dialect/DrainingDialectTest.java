package io.queryapigate.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.errors.ApiException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A replaced or removed connection's dialect closes only when the last call on it ends; on real DuckDB. */
class DrainingDialectTest {
    private ConnectionRegistry registry;

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.stop();
        }
    }

    @Test
    void everyMethodOfTheSpiIsPassedOn() {
        for (Method m : Dialect.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            assertThat(declares(m)).as("DrainingDialect passes %s on (a default would hide the dialect's own)",
                    m.getName()).isTrue();
        }
    }

    private static boolean declares(Method m) {
        try {
            DrainingDialect.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Test
    void aReplacedConnectionClosesWhenItsLastCallEnds() throws Exception {
        registry = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()), Map.of(),
                Duration.ofSeconds(30), 1000, Files.createTempDirectory("qag-draining-"));
        Connection first = registry.open("live", duckdb());
        registry.put("live", first);
        assertThat(registry.require("live")).isSameAs(first);
        assertThat(first.enter()).as("a call starts on it").isTrue();

        Connection second = registry.open("live", duckdb());
        registry.put("live", second);
        assertThat(registry.require("live")).isSameAs(second);
        assertThat(second.generation()).isGreaterThan(first.generation());
        DrainingDialect old = (DrainingDialect) first.dialect();
        assertThat(old.closed()).as("its call still runs").isFalse();
        assertThat(rows(first)).as("and finishes on it").isEqualTo(1);
        assertThat(old.enter()).as("a call may still enter while one runs").isTrue();
        old.exit();

        first.exit();
        assertThat(old.closed()).as("closed when its last call ended").isTrue();
        assertThat(first.enter()).as("a call that looked it up too late is told to look again").isFalse();
        assertThatThrownBy(() -> rows(first)).isInstanceOf(DialectException.class);

        registry.drop("live");
        assertThat(((DrainingDialect) second.dialect()).closed()).as("no call: closed at once").isTrue();
        assertThatThrownBy(() -> registry.require("live")).isInstanceOf(ApiException.class)
                .hasMessageContaining("No connection named 'live'");
    }

    @Test
    void theConfigurationsConnectionsAreNotReplaced() throws Exception {
        registry = ConnectionRegistry.create(DialectRegistry.discover(getClass().getClassLoader()),
                Map.of("yaml", duckdb()), Duration.ofSeconds(30), 1000, Files.createTempDirectory("qag-draining-"));
        Connection stored = registry.open("yaml", duckdb());
        assertThatThrownBy(() -> registry.put("yaml", stored)).isInstanceOf(IllegalStateException.class);
        assertThat(((DrainingDialect) stored.dialect()).closed()).as("the refused one is closed").isTrue();
        registry.drop("yaml");
        assertThat(registry.get("yaml")).isPresent();
        assertThat(registry.isConfigured("yaml")).isTrue();
    }

    private static long rows(Connection c) {
        RecordingSink sink = new RecordingSink();
        return c.dialect().execute(new QueryRequest("SELECT 1 AS one", List.of(), AccessMode.READ,
                Duration.ofSeconds(5), 10, false, "test", null), sink).rows();
    }

    private static ConnectionConfig duckdb() {
        ConnectionConfig c = new ConnectionConfig();
        c.setDialect("duckdb");
        c.setUrl(":memory:");
        c.setPoolSize(1);
        c.setProperties(Map.of("duckdb.read_only", "false"));
        return c;
    }
}
