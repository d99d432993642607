package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.cli.DialectsCommand;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.plugins.Plugins;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.sourceforge.argparse4j.inf.Namespace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A third-party dialect end to end: examples/dialect-example (embedded Apache Derby, its own Maven build against
 * the SPI and testkit jars this reactor built, its contract tests included) is built with its build.sh, its plugin
 * folder dropped into a home's plugins/, and a gateway whose YAML declares a {@code dialect: derby} connection serves a
 * saved query through it.
 *
 * <p>The data comes from the connection's {@code derby.init_script}, as the DuckDB demo's does: the gateway's
 * connections are read-only unless a key is granted writes, and the point here is the plugin, not the write path
 * (the example's own DerbySecurityTest shows writes through the dialect).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class DialectExamplePluginIT {
    private static final Path EXAMPLE = TestingConfig.repo().resolve("examples/dialect-example");
    private static final Path PLUGIN = buildPlugin();
    private static final Path CONFIG = withPlugin(TestingConfig.write(
            "  inventory:\n    dialect: derby\n    url: inventory\n    poolSize: 2\n    properties:\n"
                    + "      derby.init_script: " + initScript() + "\n", ""));
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    /** Runs build.sh (the example's tests included) and answers its plugin folder. */
    private static Path buildPlugin() {
        Path log = TestingConfig.repo().resolve("service/target/dialect-example-build.log");
        try {
            Files.createDirectories(log.getParent());
            Process build = new ProcessBuilder("bash", EXAMPLE.resolve("build.sh").toString(), "clean", "package")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!build.waitFor(15, TimeUnit.MINUTES)) {
                build.destroyForcibly();
                throw new AssertionError("build.sh did not finish in 15 minutes; see " + log);
            }
            if (build.exitValue() != 0) {
                List<String> lines = Files.readAllLines(log);
                throw new AssertionError("build.sh failed (exit " + build.exitValue() + "), last lines of " + log + ":\n"
                        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return EXAMPLE.resolve("target/plugin/derby");
    }

    private static Path withPlugin(Path config) {
        Path target = config.getParent().resolve("plugins/derby");
        try (Stream<Path> jars = Files.list(PLUGIN)) {
            Files.createDirectories(target);
            for (Path jar : jars.toList()) {
                Files.copy(jar, target.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return config;
    }

    private static Path initScript() {
        try {
            Path script = Files.createTempFile("qag-derby-", ".sql");
            Files.writeString(script, """
                    CREATE TABLE item (id INTEGER PRIMARY KEY, label VARCHAR(40) NOT NULL, price DECIMAL(8,2),
                      added DATE);
                    INSERT INTO item VALUES (1, 'bolt', 0.25, '2024-01-15'), (2, 'nut', 0.10, '2024-02-01'),
                      (3, 'washer', 0.05, '2024-02-01');
                    """);
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @Test
    void thePluginFolderHoldsTheDialectAndDerbyButNotTheSpi() throws IOException {
        try (Stream<Path> files = Files.list(PLUGIN)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                    .containsExactly("derby-10.17.1.0.jar", "derbyshared-10.17.1.0.jar",
                            "qag-dialect-derby-example-1.0.jar");
        }
        assertThat(EXAMPLE.resolve("target/surefire-reports/TEST-com.example.qag.derby.DerbyDialectContractTest.xml"))
                .as("the contract tests ran in the example's build").exists();
    }

    @Test
    void aSavedQueryRunsThroughThePluginWithABoundParameter() {
        Reply created = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "items_added",
                "sql", "SELECT id, label, price, added FROM item WHERE added = :day ORDER BY id",
                "parameters", Map.of("day", Map.of("type", "date")), "connection_name", "inventory", "publish", true)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        Reply r = http.get("/q/items_added?day=2024-02-01", ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode rows = r.json();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("id").asInt()).isEqualTo(2);
        assertThat(rows.get(0).get("label").asText()).isEqualTo("nut");
        assertThat(rows.get(0).get("price").decimalValue()).isEqualByComparingTo("0.10");
        assertThat(rows.get(0).get("added").asText()).isEqualTo("2024-02-01");
        assertThat(rows.get(1).get("label").asText()).isEqualTo("washer");

        Reply injected = http.get("/q/items_added?day=2024-02-01'%20OR%20'1'='1", ADMIN);
        assertThat(injected.status()).as("not a date: refused before the database").isEqualTo(400);

        // a marker Derby cannot type on its own (in the select list): bound all the same, as data
        Reply echoed = http.post("/execute_sql", ADMIN, Http.json(Map.of(
                "sql", "SELECT :tag AS tag, label FROM item WHERE id = :id", "connection_name", "inventory",
                "params", Map.of("tag", "x' OR '1'='1", "id", 1))));
        assertThat(echoed.status()).as(echoed.body()).isEqualTo(200);
        assertThat(echoed.json()).hasSize(1);
        assertThat(echoed.json().get(0).get("tag").asText()).isEqualTo("x' OR '1'='1");
        assertThat(echoed.json().get(0).get("label").asText()).isEqualTo("bolt");
    }

    @Test
    void aWriteIsRefusedByTheGuardAndTheTableIsUnchanged() {
        for (String write : List.of("DELETE FROM item", "UPDATE item SET label = 'x'", "DROP TABLE item")) {
            Reply r = http.sql(ADMIN, "inventory", write);
            r.assertRefused(403, "read_only");
            // the guard's refusal, not the database's (which would say "The database refused a change ...")
            assertThat(r.json().get("error").asText()).as(r.body()).doesNotContain("The database refused");
        }
        Reply count = http.sql(ADMIN, "inventory", "SELECT count(*) AS n FROM item");
        assertThat(count.status()).as(count.body()).isEqualTo(200);
        assertThat(count.json().get(0).get("n").asInt()).isEqualTo(3);
    }

    @Test
    void thePluginRunsOnItsOwnClassLoaderAndTheDialectsCommandListsIt() throws Exception {
        ClassLoader service = GatewayApplication.class.getClassLoader();
        Path plugins = CONFIG.getParent().resolve("plugins");
        Plugins loaded = Plugins.load(plugins, service);
        Plugins.Plugin derby = loaded.all().get("derby");
        assertThat(derby).isNotNull();
        assertThat(derby.dialects()).singleElement().satisfies(factory -> {
            assertThat(factory.name()).isEqualTo("derby");
            assertThat(factory.getClass().getClassLoader()).isSameAs(derby.loader()).isNotSameAs(service);
        });
        assertThat(derby.loader().loadClass("org.apache.derby.iapi.jdbc.AutoloadedDriver").getClassLoader())
                .as("Derby comes from the plugin").isSameAs(derby.loader());
        assertThatThrownBy(() -> Class.forName("org.apache.derby.iapi.jdbc.AutoloadedDriver", false, service))
                .as("Derby is not on the service's class path").isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("com.example.qag.derby.DerbyDialectFactory", false, service))
                .isInstanceOf(ClassNotFoundException.class);

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            new DialectsCommand().run(null, new Namespace(Map.of("plugins", plugins.toString())));
        } finally {
            System.setOut(out);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .containsPattern("(?m)^derby +SPI " + java.util.regex.Pattern.quote(DialectSpi.VERSION)
                        + " +com\\.example\\.qag\\.derby\\.DerbyDialectFactory$")
                .containsPattern("(?m)^duckdb ");
    }
}
