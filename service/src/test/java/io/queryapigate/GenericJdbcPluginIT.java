package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generic {@code jdbc} dialect with a driver the gateway does not carry: HSQLDB's jar (copied by the build,
 * on no class path of ours) dropped into the home's {@code plugins/} as a library plugin, a {@code dialect: jdbc}
 * connection naming its driver class, a saved query published, called and paged through REST, and writes refused.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GenericJdbcPluginIT {
    private static final String DRIVER = "org.hsqldb.jdbc.JDBCDriver";
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final int ITEMS = 25;
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static String reader;

    private static Path driverJar() {
        Path dir = TestingConfig.repo().resolve("service/target/test-drivers");
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.getFileName().toString().startsWith("hsqldb-")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no hsqldb jar in " + dir));
        } catch (IOException e) {
            throw new UncheckedIOException("the build copies the HSQLDB jar into " + dir, e);
        }
    }

    private static String config() {
        try {
            Path data = Files.createTempDirectory("qag-jdbc-plugin-");
            String database = "jdbc:hsqldb:file:" + data.resolve("legacy");
            createDatabase(database);
            Path config = TestingConfig.write("  legacy:\n    dialect: jdbc\n    url: " + database + ";ifexists=true\n"
                    + "    user: SA\n    poolSize: 2\n    properties:\n      jdbc.driver_class: " + DRIVER + "\n",
                    "security:\n  allowWrites: true\n");
            Path plugins = Files.createDirectories(config.getParent().resolve("plugins"));
            Path jar = driverJar();
            Files.copy(jar, plugins.resolve(jar.getFileName()));
            return config.toString();
        } catch (IOException | SQLException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Through a loader of the test's own, shut down afterwards: the gateway's plugin loader opens it anew. */
    private static void createDatabase(String url) throws IOException, SQLException, ReflectiveOperationException {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {driverJar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Driver driver = (Driver) Class.forName(DRIVER, true, loader).getDeclaredConstructor().newInstance();
            Properties user = new Properties();
            user.setProperty("user", "SA");
            user.setProperty("password", "");
            try (Connection connection = driver.connect(url + ";sql.lowercase_ident=true", user);
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(20))");
                for (int i = 1; i <= ITEMS; i++) {
                    statement.execute("INSERT INTO items VALUES (" + i + ", 'item " + i + "')");
                }
                statement.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR(40))");
                statement.execute("SHUTDOWN");
            }
        }
    }

    @BeforeAll
    static void publish() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        reader = http.key("jdbc-reader", Map.of("connections", List.of("legacy"), "adhoc_sql", true));
        Reply saved = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "legacy_items",
                "sql", "SELECT id, name FROM items WHERE id >= :from_id ORDER BY id",
                "parameters", Map.of("from_id", Map.of("type", "int")),
                "connection_name", "legacy", "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
    }

    @Test
    void theDriverIsOnNoClassPathOfTheService() {
        assertThatThrownBy(() -> Class.forName(DRIVER)).isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void aSavedQueryIsCalledAndPagedThroughTheDriverFromPlugins() {
        Reply all = http.get("/q/legacy_items?from_id=3", reader);
        assertThat(ids(all)).as("the default page").startsWith(3, 4, 5);

        Reply page2 = http.get("/q/legacy_items?from_id=3&page=2&page_size=5", reader);
        assertThat(ids(page2)).containsExactly(8, 9, 10, 11, 12);
        assertThat(page2.header("X-Page")).isEqualTo("2");
        assertThat(page2.header("X-Has-More")).isEqualTo("true");
        assertThat(page2.json().get(0).get("name").asText()).isEqualTo("item 8");

        Reply last = http.get("/q/legacy_items?from_id=3&page=5&page_size=5", reader);
        assertThat(ids(last)).containsExactly(23, 24, 25);
        assertThat(last.header("X-Has-More")).isEqualTo("false");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO items VALUES (99, 'intruder')",
        "UPDATE items SET name = 'changed'",
        "DELETE FROM items",
        "DROP TABLE items",
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
        "SET TRANSACTION READ WRITE",
        "CALL 1",
        "SELECT id FROM items; DELETE FROM items",
        "SHUTDOWN",
        "SELECT LOAD_FILE('/etc/hostname', 'UTF-8') AS f FROM items",
        "SELECT id FROM items WHERE LOAD_FILE('/etc/hostname') IS NOT NULL"})
    void writesAndSessionChangesAreRefusedToAReader(String sql) {
        Reply r = http.sql(reader, "legacy", sql);
        assertThat(r.status()).as(sql + " -> " + r.body()).isIn(400, 403);
        assertThat(count("items")).isEqualTo(ITEMS);
    }

    @Test
    void aWriterWritesThroughTheSameDriver() {
        String writer = http.key("jdbc-writer", Map.of("connections", List.of("legacy"), "adhoc_sql", true,
                "allow_writes", true));
        Reply insert = http.sql(writer, "legacy", "INSERT INTO notes VALUES (1, 'from the gateway')");
        assertThat(insert.status()).as(insert.body()).isEqualTo(200);
        assertThat(insert.json().get("rows_affected").asInt()).isEqualTo(1);
        assertThat(count("notes")).isEqualTo(1);
    }

    private static long count(String table) {
        Reply r = http.sql(ADMIN, "legacy", "SELECT COUNT(*) AS n FROM " + table);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get(0).get("n").asLong();
    }

    private static List<Integer> ids(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<Integer> ids = new ArrayList<>();
        r.json().forEach(row -> ids.add(row.get("id").asInt()));
        return ids;
    }
}
