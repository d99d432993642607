package com.example.qag.derby;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registration, the URL forms and every property, bound or refused with the key named. */
class DerbyDialectFactoryTest {

    @TempDir
    Path home;

    private final DerbyDialectFactory factory = new DerbyDialectFactory();

    private DialectContext context(String url) {
        return new DialectContext("inventory", url, Optional.empty(), Optional.empty(), Duration.ofSeconds(10), 1000,
                2, home);
    }

    @Test
    void foundByServiceLoaderWithTheCurrentSpiVersion() {
        assertThat(ServiceLoader.load(DialectFactory.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("derby"))).hasSize(1);
        assertThat(factory.spiVersion()).isEqualTo(DialectSpi.VERSION);
        assertThat(factory.sensitivePropertyNames()).isEmpty();
    }

    @Test
    void urlFormsResolveAgainstTheHomeAndDerbyAttributesAreRefused() {
        assertThat(DerbyDialectConfig.bind("data/inv", home, Map.of()).database()).isEqualTo(home.resolve("data/inv"));
        assertThat(DerbyDialectConfig.bind("jdbc:derby:inv", home, Map.of()).database()).isEqualTo(home.resolve("inv"));
        assertThat(DerbyDialectConfig.bind("/srv/derby/inv", home, Map.of()).database()).isEqualTo(Path.of("/srv/derby/inv"));
        assertThat(DerbyDialectConfig.bind("inv", home, Map.of()).create()).isFalse();
        assertThatThrownBy(() -> factory.create(context("jdbc:derby:inv;create=true"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url: Derby attributes");
        assertThatThrownBy(() -> factory.create(context("jdbc:derby:memory:inv"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url: only a database directory");
        assertThatThrownBy(() -> factory.create(context(" "), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("url:");
    }

    @Test
    void anUnknownKeyOrABadValueIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> factory.create(context("inv"), Map.of("derby.craete", "true")))
                .hasMessage("unknown property derby.craete; the derby dialect knows derby.create, derby.init_script");
        assertThatThrownBy(() -> factory.create(context("inv"), Map.of("derby.create", "maybe")))
                .hasMessage("derby.create: expected true or false, got 'maybe'");
        assertThatThrownBy(() -> factory.create(context("inv"), Map.of("derby.init_script", home + "/none.sql")))
                .hasMessageStartingWith("derby.init_script: no readable file");
        assertThat(Files.exists(home.resolve("inv"))).isFalse();
    }

    @Test
    void aMissingDatabaseIsCreatedOnlyWhenAskedAndOtherwiseUnavailable() {
        try (Dialect missing = factory.create(context("absent"), Map.of())) {
            assertThatThrownBy(() -> missing.checkHealth(Duration.ofSeconds(5)))
                    .hasMessageContaining("absent");
        }
        try (Dialect created = factory.create(context("fresh"), Map.of("derby.create", "TRUE"))) {
            created.checkHealth(Duration.ofSeconds(5));
        }
        assertThat(Files.isDirectory(home.resolve("fresh"))).isTrue();
    }

    @Test
    void theInitScriptFillsANewDatabaseOnceAndAFailingOneLeavesNothing() throws Exception {
        Path script = home.resolve("inventory.sql");
        Files.writeString(script, """
                -- the example's data
                CREATE TABLE item (id INTEGER PRIMARY KEY, label VARCHAR(40));
                INSERT INTO item VALUES (1, 'bolt'),
                  (2, 'nut; with a semicolon inside');
                """);
        try (Dialect dialect = factory.create(context("inv"), Map.of("derby.init_script", script.toString()))) {
            RecordingSink sink = new RecordingSink();
            dialect.execute(QueryRequest.read("SELECT label FROM item ORDER BY id", List.of(), Duration.ofSeconds(5), 10),
                    sink);
            assertThat(sink.column("label")).containsExactly("bolt", "nut; with a semicolon inside");
        }
        // the database exists now: the script does not run again
        Files.writeString(script, "DROP TABLE item;\n");
        try (Dialect dialect = factory.create(context("inv"), Map.of("derby.init_script", script.toString()))) {
            RecordingSink sink = new RecordingSink();
            dialect.execute(QueryRequest.read("SELECT count(*) FROM item", List.of(), Duration.ofSeconds(5), 10), sink);
            assertThat(sink.singleValue()).isEqualTo(2);
        }

        Files.writeString(script, "CREATE TABLE a (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n");
        assertThatThrownBy(() -> factory.create(context("broken"), Map.of("derby.init_script", script.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("derby.init_script: " + script)
                .hasMessageContaining("INSERT INTO nowhere");
        assertThat(Files.exists(home.resolve("broken"))).as("a half-created database is removed").isFalse();
    }
}
