package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sqlite dialect behind the REST API: a database file created from {@code sqlite.init_script} at startup, a
 * saved query with a bound parameter called through {@code /q}, typed values in the JSON (decimals with their
 * scale, dates, booleans), writes for a writer only, ATTACH refused, a runaway query stopped at its time limit, the
 * schema browser, and the connection's health.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SqliteDialectIT {
    private static Path secret;
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static String reader;
    private static String writer;

    private static String config() {
        try {
            Path init = Files.createTempFile("qag-sqlite-it-", ".sql");
            Files.writeString(init, """
                    CREATE TABLE item ( -- things for sale
                        id     INTEGER PRIMARY KEY,
                        name   VARCHAR(40) NOT NULL,
                        price  DECIMAL(8,2) NOT NULL, -- in euros
                        added  DATE NOT NULL,
                        active BOOLEAN NOT NULL
                    );
                    INSERT INTO item VALUES (1, 'lamp', 19.9, '2024-03-01', 1), (2, 'desk', 120, '2023-12-24', 0);
                    CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
                    """);
            secret = Files.createTempFile("qag-sqlite-it-secret-", ".db");
            Files.delete(secret);
            try (var c = new org.sqlite.JDBC().connect("jdbc:sqlite:" + secret, new java.util.Properties());
                    var s = c.createStatement()) {
                s.execute("CREATE TABLE s (v TEXT)");
                s.execute("INSERT INTO s VALUES ('s3cr3t-sqlite')");
            }
            return TestingConfig.write("  demo:\n    dialect: sqlite\n    url: shop.sqlite\n    poolSize: 2\n"
                    + "    properties:\n      sqlite.init_script: " + init + "\n      sqlite.busy_timeout: 2s\n",
                    "security:\n  allowWrites: true\n").toString();
        } catch (IOException | java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeAll
    static void keysAndAQuery() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> demo = List.of("demo");
        reader = http.key("reader", Map.of("connections", demo, "adhoc_sql", true));
        writer = http.key("writer", Map.of("connections", demo, "adhoc_sql", true, "allow_writes", true));
        http.saveQuery(TestingConfig.ADMIN_KEY, "item", "SELECT id, name, price, added, active FROM item WHERE id = :id",
                Map.of("id", Map.of("type", "int", "min", 1)), true, "One item by id", Map.of());
    }

    @Test
    void aSavedQueryAnswersWithTypedValues() {
        Reply r = http.get("/q/item?id=1", TestingConfig.ADMIN_KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode row = r.json().get(0);
        assertThat(row.get("id").asInt()).isEqualTo(1);
        assertThat(row.get("name").asText()).isEqualTo("lamp");
        assertThat(row.get("price").decimalValue()).isEqualByComparingTo("19.90");
        assertThat(row.get("price").isNumber()).isTrue();
        assertThat(row.get("added").asText()).isEqualTo("2024-03-01");
        assertThat(row.get("active").isBoolean()).isTrue();
        assertThat(row.get("active").asBoolean()).isTrue();

        Reply desk = http.get("/q/item?id=2", TestingConfig.ADMIN_KEY);
        assertThat(desk.json().get(0).get("price").decimalValue()).isEqualByComparingTo("120");
        assertThat(desk.json().get(0).get("active").asBoolean()).isFalse();
        Reply none = http.get("/q/item?id=99", TestingConfig.ADMIN_KEY);
        assertThat(none.status()).as(none.body()).isEqualTo(200);
        assertThat(none.body()).as("no row").doesNotContain("lamp").doesNotContain("desk");
    }

    @Test
    void aReaderCannotWriteAndAWriterCan() {
        Reply refused = http.sql(reader, "demo", "INSERT INTO note (body) VALUES ('reader')");
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        Reply written = http.sql(writer, "demo", "INSERT INTO note (body) VALUES ('writer')");
        assertThat(written.status()).as(written.body()).isEqualTo(200);
        Reply notes = http.sql(reader, "demo", "SELECT body FROM note");
        assertThat(notes.status()).as(notes.body()).isEqualTo(200);
        assertThat(notes.body()).contains("writer").doesNotContain("\"reader\"");
    }

    @Test
    void anotherFileCannotBeAttachedByAnyone() {
        for (String key : List.of(reader, writer, TestingConfig.ADMIN_KEY)) {
            for (String sql : List.of("ATTACH DATABASE '" + secret + "' AS s",
                    "SELECT v FROM pragma_database_list, s", "VACUUM INTO '" + secret + ".copy'")) {
                Reply r = http.sql(key, "demo", sql);
                assertThat(r.status()).as(sql + ": " + r.body()).isIn(400, 403, 500);
                assertThat(r.body()).doesNotContain("s3cr3t-sqlite");
            }
        }
        assertThat(Path.of(secret + ".copy")).doesNotExist();
    }

    @Test
    void aRunawayQueryStopsAtItsTimeLimit() {
        long start = System.nanoTime();
        Reply r = http.post("/execute_sql?timeout=1", reader, Http.json(Map.of("connection_name", "demo",
                "sql", "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) AS n FROM r")));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(r.status()).as(r.body()).isEqualTo(504);
        assertThat(r.json().get("code").asText()).isEqualTo("query_timeout");
        assertThat(millis).isBetween(900L, 10_000L);
        assertThat(http.get("/q/item?id=1", TestingConfig.ADMIN_KEY).status()).as("the pool is free").isEqualTo(200);
    }

    @Test
    void theSchemaBrowserShowsTablesColumnsAndTheirDdlComments() {
        Reply r = http.get("/api/v1/connections/demo/schema", TestingConfig.ADMIN_KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("item").contains("things for sale").contains("in euros")
                .contains("DECIMAL(8,2)");
    }

    @Test
    void theConnectionIsHealthy() {
        Reply health = new Http("http://127.0.0.1:" + APP.getAdminPort()).get("/healthcheck", null);
        assertThat(health.json().get("connection.demo").get("healthy").asBoolean()).as(health.body()).isTrue();
    }
}
