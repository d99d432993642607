package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A saved query's result columns, described by its database when a version is saved (never by running it), on the
 * real DuckDB, PostgreSQL and MariaDB, and unknown when the database cannot be reached; read from the store itself
 * and from the OpenAPI document that shows them.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ResultColumnsIT {
    private static final TestServers.Server PG = TestServers.postgres();
    private static final TestServers.Server MARIA = TestServers.mariadb();
    private static final String NAME = "qag_rc_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CONFIG = config();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static Http http;

    private static Path config() {
        PG.execute("CREATE SCHEMA " + NAME,
                "CREATE TABLE " + NAME + ".t (id integer NOT NULL PRIMARY KEY, amount numeric(12,2), name varchar(20),"
                        + " day date, at timestamp, ok boolean)");
        MARIA.execute("CREATE TABLE " + NAME + " (id INT NOT NULL PRIMARY KEY, amount DECIMAL(12,2), name VARCHAR(20),"
                + " day DATE, at DATETIME)");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        String connections = TestingConfig.demoConnection()
                + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 1\n"
                + "  maria:\n    dialect: mysql\n    url: " + MARIA.url() + "\n    user: " + MARIA.user()
                + "\n    password: " + MARIA.password() + "\n    poolSize: 1\n"
                + "  down:\n    dialect: postgres\n    url: jdbc:postgresql://127.0.0.1:" + closed + "/nothing\n"
                + "    user: nobody\n    poolSize: 1\n";
        return TestingConfig.write(connections, "security:\n  allowWrites: true\n");
    }

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @AfterAll
    static void dropTables() {
        PG.execute("DROP SCHEMA IF EXISTS " + NAME + " CASCADE");
        MARIA.execute("DROP TABLE IF EXISTS " + NAME);
    }

    @Test
    void aDuckDbQueryIsSavedWithItsColumns() throws Exception {
        save("rc_film", "demo", "SELECT film_id, title, rental_rate, length FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int")));
        assertThat(stored("rc_film", 1)).isEqualTo(JSON.readTree("["
                + "{\"name\":\"film_id\",\"type_name\":\"INTEGER\",\"jdbc_type\":\"INTEGER\",\"nullable\":null},"
                + "{\"name\":\"title\",\"type_name\":\"VARCHAR\",\"jdbc_type\":\"VARCHAR\",\"nullable\":null},"
                + "{\"name\":\"rental_rate\",\"type_name\":\"DECIMAL(4,2)\",\"jdbc_type\":\"DECIMAL\",\"nullable\":null},"
                + "{\"name\":\"length\",\"type_name\":\"INTEGER\",\"jdbc_type\":\"INTEGER\",\"nullable\":null}]"));

        JsonNode spec = http.get("/openapi.json", TestingConfig.ADMIN_KEY).json();
        assertThat(spec.at("/paths/~1q~1rc_film/get/responses/200/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/RcFilmPage");
        assertThat(spec.at("/components/schemas/RcFilmRow").toString()).as("the OpenAPI document shows them")
                .contains("\"rental_rate\"", "DECIMAL(4,2)");
    }

    @Test
    void aPostgresQueryIsSavedWithItsColumnsAndEachVersionWithItsOwn() throws Exception {
        save("rc_pg", "pg", "SELECT id, amount, name, day, at, ok, :tag AS tag FROM " + NAME + ".t WHERE id = :id",
                Map.of("id", Map.of("type", "int"), "tag", Map.of("type", "str", "required", false, "default", "x")));
        assertThat(stored("rc_pg", 1)).isEqualTo(JSON.readTree("["
                + "{\"name\":\"id\",\"type_name\":\"int4\",\"jdbc_type\":\"INTEGER\",\"nullable\":false},"
                + "{\"name\":\"amount\",\"type_name\":\"numeric\",\"jdbc_type\":\"NUMERIC\",\"nullable\":true},"
                + "{\"name\":\"name\",\"type_name\":\"varchar\",\"jdbc_type\":\"VARCHAR\",\"nullable\":true},"
                + "{\"name\":\"day\",\"type_name\":\"date\",\"jdbc_type\":\"DATE\",\"nullable\":true},"
                + "{\"name\":\"at\",\"type_name\":\"timestamp\",\"jdbc_type\":\"TIMESTAMP\",\"nullable\":true},"
                + "{\"name\":\"ok\",\"type_name\":\"bool\",\"jdbc_type\":\"BIT\",\"nullable\":true},"
                + "{\"name\":\"tag\",\"type_name\":\"varchar\",\"jdbc_type\":\"VARCHAR\",\"nullable\":null}]"));

        Reply v2 = http.post("/api/v1/queries/rc_pg/versions", TestingConfig.ADMIN_KEY, Http.json(Map.of(
                "sql", "SELECT count(*) AS n, now() AS at FROM " + NAME + ".t")));
        assertThat(v2.status()).as(v2.body()).isEqualTo(201);
        assertThat(stored("rc_pg", 2)).isEqualTo(JSON.readTree("["
                + "{\"name\":\"n\",\"type_name\":\"int8\",\"jdbc_type\":\"BIGINT\",\"nullable\":null},"
                + "{\"name\":\"at\",\"type_name\":\"timestamptz\",\"jdbc_type\":\"TIMESTAMP_WITH_TIMEZONE\","
                + "\"nullable\":null}]"));
    }

    @Test
    void aWriteIsSavedWithNoColumnsAndDescribingItChangesNothing() throws Exception {
        save("rc_pg_write", "pg", "INSERT INTO " + NAME + ".t (id, name) VALUES (:id, 'described')",
                Map.of("id", Map.of("type", "int")));
        assertThat(stored("rc_pg_write", 1)).isEqualTo(JSON.readTree("[]"));
        assertThat(count(PG, "SELECT count(*) FROM " + NAME + ".t WHERE name = 'described'")).isZero();
    }

    @Test
    void aMariaDbQueryIsSavedWithItsColumns() throws Exception {
        save("rc_maria", "maria", "SELECT id, amount, name, day, at FROM " + NAME + " WHERE id = :id",
                Map.of("id", Map.of("type", "int")));
        assertThat(stored("rc_maria", 1)).isEqualTo(JSON.readTree("["
                + "{\"name\":\"id\",\"type_name\":\"INT\",\"jdbc_type\":\"INTEGER\",\"nullable\":false},"
                + "{\"name\":\"amount\",\"type_name\":\"DECIMAL\",\"jdbc_type\":\"DECIMAL\",\"nullable\":true},"
                + "{\"name\":\"name\",\"type_name\":\"VARCHAR\",\"jdbc_type\":\"VARCHAR\",\"nullable\":true},"
                + "{\"name\":\"day\",\"type_name\":\"DATE\",\"jdbc_type\":\"DATE\",\"nullable\":true},"
                + "{\"name\":\"at\",\"type_name\":\"DATETIME\",\"jdbc_type\":\"TIMESTAMP\",\"nullable\":true}]"));
    }

    @Test
    void aQuerySavedWhileItsDatabaseIsUnreachableIsSavedWithUnknownColumns() throws Exception {
        long start = System.nanoTime();
        save("rc_down", "down", "SELECT 1 AS one", Map.of());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(stored("rc_down", 1)).isNull();
        assertThat(millis).as("the save waited at most the describe's time limit").isLessThan(8_000L);
        assertThat(http.get("/api/v1/queries/rc_down", TestingConfig.ADMIN_KEY).status()).isEqualTo(200);
    }

    private static void save(String name, String connection, String sql, Map<String, Object> parameters) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("parameters", parameters);
        body.put("connection_name", connection);
        body.put("publish", true);
        Reply r = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    /** The version's stored result columns, parsed, or null; read from the SQLite store. */
    private static JsonNode stored(String query, int version) throws Exception {
        String url = "jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db");
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("SELECT v.result_columns FROM query_versions v JOIN"
                        + " saved_queries q ON q.id = v.query_id WHERE q.name = ? AND v.version = ?")) {
            ps.setString(1, query);
            ps.setInt(2, version);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("version %d of %s is stored", version, query).isTrue();
                String text = rs.getString(1);
                return text == null ? null : JSON.readTree(text);
            }
        }
    }

    private static long count(TestServers.Server server, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.url(), server.user(), server.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
