package io.queryapigate.dialect.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A dialect written against SPI 1.2 (it implements only the abstract methods) still compiles and loads against
 * 1.3: the catalogue methods answer "cannot tell", which the service shows as a connection it cannot describe.
 */
class DialectDefaultsTest {

    /** What a third-party dialect built against 1.2 implements: the abstract methods, nothing of 1.3. */
    private static final class Spi12Dialect implements Dialect {
        @Override
        public Set<Capability> capabilities() {
            return Set.of();
        }

        @Override
        public SessionStrategy sessionStrategy() {
            return request -> new SessionPlan(List.of(), request.sql(), List.of(), java.util.Map.of(), 0, "as sent");
        }

        @Override
        public QueryStats execute(QueryRequest request, RowSink sink) {
            throw new AssertionError("the catalogue defaults must not run statements");
        }

        @Override
        public void checkHealth(Duration timeout) {}

        @Override
        public void close() {}
    }

    @Test
    void theCatalogueMethodsDefaultToCannotTellWithoutRunningAnything() {
        Dialect dialect = new Spi12Dialect();
        assertThat(dialect.serverVersion(Duration.ofSeconds(1))).isEmpty();
        assertThat(dialect.databases(Duration.ofSeconds(1))).isEmpty();
        assertThat(dialect.describeNamespace(Optional.empty(), Duration.ofSeconds(1))).isEmpty();
        assertThat(dialect.describeNamespace(Optional.of("other"), Duration.ofSeconds(1))).isEmpty();
        assertThat(dialect.describe(QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(1), 1))).isEmpty();
    }
}
