package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@code h2} dialect through the REST API, on an embedded H2 database file opened read-only: ad-hoc SQL and a
 * saved query with a bound parameter answer; writes, H2's file and code statements and a smuggled second statement
 * are refused, by the guard, the dialect or H2 itself, and the file is unchanged.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class H2DialectIT {
    private static final Path DATA;
    private static final DropwizardAppExtension<GatewayConfiguration> APP;

    static {
        try {
            DATA = Files.createTempDirectory("qag-h2-");
            Properties admin = new Properties();
            admin.setProperty("user", "sa");
            admin.setProperty("password", "sa-secret");
            try (Connection c = new org.h2.Driver().connect("jdbc:h2:file:" + DATA.resolve("shop")
                    + ";DATABASE_TO_LOWER=TRUE", admin); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE shops (id INTEGER PRIMARY KEY, name VARCHAR(40), opened DATE)");
                s.execute("INSERT INTO shops VALUES (1, 'North', DATE '2024-03-01'), (2, 'South', DATE '2025-06-15')");
            }
            APP = new DropwizardAppExtension<>(GatewayApplication.class, TestingConfig.write(
                    "  shop:\n    dialect: h2\n    url: " + DATA.resolve("shop.mv.db") + ";DATABASE_TO_LOWER=TRUE\n"
                            + "    user: sa\n    password: sa-secret\n    poolSize: 1\n",
                    "security:\n  allowWrites: true\n").toString());
        } catch (IOException | SQLException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    private static Http http;
    private static Map<String, String> keys;

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> shop = List.of("shop");
        keys = Map.of(
                "reader", http.key("reader", Map.of("connections", shop, "adhoc_sql", true)),
                "writer", http.key("writer", Map.of("connections", shop, "adhoc_sql", true, "allow_writes", true)));
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "shop", sql);
    }

    @Test
    void adHocSqlAndASavedQueryAnswer() {
        Reply all = sql("reader", "SELECT id, name, opened FROM shops ORDER BY id");
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().get(1).get("name").asText()).isEqualTo("South");
        assertThat(all.json().get(0).get("opened").asText()).isEqualTo("2024-03-01");

        Reply saved = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "shop_by_id",
                "sql", "SELECT name FROM shops WHERE id = :id", "parameters", Map.of("id", "int"),
                "connection_name", "shop", "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        String key = http.post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "shop-key",
                "queries", List.of("shop_by_id")))).json().get("secret").asText();
        Reply one = http.get("/q/shop_by_id?id=2", key);
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.json().get(0).get("name").asText()).isEqualTo("South");
        Reply injected = http.get("/q/shop_by_id?id=" + java.net.URLEncoder.encode("1 OR 1=1",
                java.nio.charset.StandardCharsets.UTF_8), key);
        assertThat(injected.status()).as(injected.body()).isEqualTo(400);
    }

    @Test
    void writesFilesCodeAndSmuggledStatementsAreRefused() {
        for (String key : List.of("reader", "writer")) {
            for (String sql : List.of(
                    "INSERT INTO shops VALUES (3, 'East', NULL)",
                    "DELETE FROM shops",
                    "CREATE TABLE evil (x INTEGER)",
                    "CREATE ALIAS qag_exec FOR 'java.lang.System.getProperty'",
                    "CALL CSVWRITE('" + DATA.resolve("out.csv") + "', 'SELECT * FROM shops')",
                    "SELECT FILE_READ('/etc/passwd', NULL)",
                    "SCRIPT TO '" + DATA.resolve("dump.sql") + "'",
                    "SELECT 1; DELETE FROM shops",
                    "SET EXCLUSIVE 1",
                    // H2 reads // as a comment and $$...$$ as a string: text the guard could read otherwise
                    "SELECT name FROM shops // ; DELETE FROM shops",
                    "SELECT $$ ; DELETE FROM shops $$ AS x")) {
                Reply r = sql(key, sql);
                assertThat(r.status()).as(key + ": " + sql + ": " + r.body()).isIn(400, 403, 409);
                assertThat(r.body()).contains("\"code\"").doesNotContain("root:");
            }
        }
        assertThat(Files.exists(DATA.resolve("out.csv"))).isFalse();
        assertThat(Files.exists(DATA.resolve("dump.sql"))).isFalse();
        Reply count = sql("reader", "SELECT count(*) AS n FROM shops");
        assertThat(count.json().get(0).get("n").asLong()).isEqualTo(2L);
    }
}
