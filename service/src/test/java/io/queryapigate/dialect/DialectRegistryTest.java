package io.queryapigate.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DialectRegistryTest {
    /** A factory that only has a name and a version: registration never creates dialects. */
    record NamedFactory(String name, String spiVersion) implements DialectFactory {
        @Override
        public Dialect create(DialectContext context, Map<String, String> properties) {
            throw new UnsupportedOperationException("not created by the registry");
        }
    }

    @Test
    void discoversTheDuckDbDialectThroughServiceLoader() {
        DialectRegistry registry = DialectRegistry.discover(getClass().getClassLoader());
        assertThat(registry.factories()).containsKey("duckdb");
        assertThat(registry.factories().get("duckdb").spiVersion()).isEqualTo(DialectSpi.VERSION);
    }

    @Test
    void twoFactoriesWithOneNameStopStartup() {
        assertThatThrownBy(() -> DialectRegistry.of(List.of(new NamedFactory("foo", "1.0"),
                new NamedFactory("foo", "1.0"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Two dialect factories are named 'foo'");
    }

    @Test
    void aFactoryBuiltForAnotherMajorVersionIsRefused() {
        assertThatThrownBy(() -> DialectRegistry.of(List.of(new NamedFactory("foo", "2.0"))))
                .hasMessageContaining("built for SPI 2.0");
        assertThat(DialectRegistry.of(List.of(new NamedFactory("foo", "1.7"))).factories()).containsKey("foo");
    }

    @Test
    void anUnknownDialectNamesTheConnectionAndWhatIsAvailable() {
        DialectRegistry registry = DialectRegistry.of(List.of(new NamedFactory("foo", "1.0")));
        assertThatThrownBy(() -> registry.require("postgress", "sales"))
                .hasMessageContaining("connections.sales.dialect")
                .hasMessageContaining("'postgress'")
                .hasMessageContaining("available: foo");
    }
}
