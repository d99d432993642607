package io.queryapigate.dialect.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.TableNamespace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Properties and URLs: bad ones stop the connection with a message naming the key. */
class H2DialectFactoryTest {

    @TempDir
    Path home;

    private Dialect create(String url, Map<String, String> properties) {
        DialectContext context = new DialectContext("c", url, Optional.of("sa"), Optional.of("secret"),
                Duration.ofSeconds(5), 100, 1, home);
        return new H2DialectFactory().create(context, properties);
    }

    @Test
    void theFactoryIsFoundByServiceLoader() {
        assertThat(ServiceLoader.load(DialectFactory.class).stream().map(p -> p.get().name())).contains("h2");
    }

    @Test
    void propertiesAreValidatedNamingTheKey() {
        assertThat(H2DialectConfig.fromProperties(Map.of())).isEqualTo(new H2DialectConfig(true));
        assertThat(H2DialectConfig.fromProperties(Map.of("h2.read_only", " FALSE "))).isEqualTo(new H2DialectConfig(false));
        assertThatThrownBy(() -> H2DialectConfig.fromProperties(Map.of("h2.read_only", "maybe")))
                .hasMessage("h2.read_only: expected true or false, got 'maybe'");
        assertThatThrownBy(() -> H2DialectConfig.fromProperties(Map.of("h2.readonly", "true")))
                .hasMessage("unknown property h2.readonly; the h2 dialect accepts h2.read_only");
    }

    @Test
    void urlsThatWouldOverrideTheDialectOrRunCodeAreRefused() {
        for (String url : List.of(
                "data/shop;INIT=RUNSCRIPT FROM 'x.sql'",
                "data/shop;ACCESS_MODE_DATA=rw",
                "jdbc:h2:tcp://localhost:9092/shop;IFEXISTS=FALSE",
                "data/shop;MODE=MySQL'",
                "jdbc:h2:mem:shop",
                "jdbc:h2:zip:/tmp/x.zip!/shop",
                "~/shop",
                "")) {
            assertThatThrownBy(() -> create(url, Map.of())).as(url).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("url: ");
        }
    }

    @Test
    void aMissingFileIsUnavailableNotAStartupFailureAndIsNeverCreated() {
        Dialect dialect = create("data/missing.mv.db;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", Map.of());
        try {
            DialectException e = org.assertj.core.api.Assertions.catchThrowableOfType(DialectException.class,
                    () -> dialect.checkHealth(Duration.ofSeconds(5)));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(e.getMessage()).doesNotContain("secret");
            assertThat(home.resolve("data/missing.mv.db")).doesNotExist();
            assertThat(dialect.defaultNamespace()).isEqualTo(new TableNamespace("missing", "public"));
            assertThat(dialect.toString()).doesNotContain("secret");
        } finally {
            dialect.close();
        }
        DialectException closed = org.assertj.core.api.Assertions.catchThrowableOfType(DialectException.class,
                () -> dialect.checkHealth(Duration.ofSeconds(1)));
        assertThat(closed.error()).isEqualTo(DialectError.UNAVAILABLE);
    }
}
