package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The seed's "isolating services" case on the real MariaDB (one server, a database per service, a {@code customer}
 * table in two of them), and the PostgreSQL search_path pin for table-restricted calls on the real PostgreSQL.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IsolatingServicesIT {
    private static final TestServers.Server MARIADB = TestServers.mariadb();
    private static final TestServers.Server PG = TestServers.postgres();
    private static final String CRM = "qag_svc_crm";
    private static final String BILLING = "qag_svc_billing";
    private static final DropwizardAppExtension<GatewayConfiguration> APP;

    static {
        setUpDatabases();
        String crmUrl = MARIADB.url().replaceAll("/[^/?]*(\\?|$)", "/" + CRM + "$1");
        String connections = "  crm:\n    dialect: mysql\n    url: " + crmUrl + "\n    user: " + MARIADB.user()
                + "\n    password: " + MARIADB.password() + "\n    poolSize: 2\n"
                + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 2\n"
                // the restricted key below reads the setting it is pinned to; an operator allows the function
                + "    allowedFunctions: [current_setting]\n";
        APP = new DropwizardAppExtension<>(GatewayApplication.class, TestingConfig.write(connections, "").toString());
    }

    private static void setUpDatabases() {
        try (Connection c = DriverManager.getConnection(MARIADB.url(), MARIADB.user(), MARIADB.password());
                Statement s = c.createStatement()) {
            for (String db : List.of(CRM, BILLING)) {
                s.execute("DROP DATABASE IF EXISTS " + db);
                s.execute("CREATE DATABASE " + db);
                s.execute("CREATE TABLE " + db + ".customer (id INT PRIMARY KEY, name VARCHAR(40))");
                s.execute("INSERT INTO " + db + ".customer VALUES (1, '" + db + "')");
            }
            s.execute("CREATE TABLE " + BILLING + ".history (id INT, amount DECIMAL(8,2))");
        } catch (SQLException e) {
            throw new AssertionError("cannot prepare MariaDB at " + MARIADB.url(), e);
        }
    }

    @AfterAll
    static void dropDatabases() throws SQLException {
        try (Connection c = DriverManager.getConnection(MARIADB.url(), MARIADB.user(), MARIADB.password());
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + CRM);
            s.execute("DROP DATABASE IF EXISTS " + BILLING);
        }
    }

    private static Http http;
    private static String key;

    @BeforeAll
    static void key() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Reply r = http.post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "crm-reader",
                "connections", List.of("crm", "pg"), "adhoc_sql", true, "allowed_tables", List.of("customer"))));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        key = r.json().get("secret").asText();
    }

    private static Reply sql(String connection, String sql) {
        return http.post("/execute_sql", key, Http.json(Map.of("sql", sql, "connection_name", connection)));
    }

    @Test
    void aBareGrantMeansTheConnectionsOwnDatabase() {
        Reply bare = sql("crm", "SELECT name FROM customer WHERE id = 1");
        assertThat(bare.status()).as(bare.body()).isEqualTo(200);
        assertThat(bare.json().get(0).get("name").asText()).isEqualTo(CRM);
        assertThat(sql("crm", "SELECT name FROM " + CRM + ".customer").status()).isEqualTo(200);
        for (String other : List.of(BILLING + ".customer", BILLING + ".history", "mysql.user",
                "information_schema.tables")) {
            Reply r = sql("crm", "SELECT * FROM " + other);
            r.assertRefused(403, "table_not_allowed");
        }
    }

    @Test
    void aTableRestrictedPostgresCallPinsTheSearchPath() {
        Reply pinned = sql("pg", "SELECT current_setting('search_path') AS path");
        assertThat(pinned.status()).as(pinned.body()).isEqualTo(200);
        assertThat(pinned.json().get(0).get("path").asText()).isEqualTo("public, pg_temp");
        Reply admin = http.post("/execute_sql", TestingConfig.ADMIN_KEY, Http.json(Map.of("sql",
                "SELECT current_setting('search_path') AS path", "connection_name", "pg")));
        assertThat(admin.json().get(0).get("path").asText()).isEqualTo("\"$user\", public");
    }

    @Test
    void poolGaugesArePublished() {
        assertThat(sql("pg", "SELECT 1 AS one").status()).isEqualTo(200);
        var gauges = APP.getEnvironment().metrics().getGauges();
        assertThat(gauges).containsKeys("connections.pg.pool.active", "connections.pg.pool.total",
                "connections.crm.pool.idle", "connections.crm.pool.waiting");
        assertThat(((Number) gauges.get("connections.pg.pool.total").getValue()).intValue()).isPositive();
    }
}
