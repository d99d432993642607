package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write that violates a constraint answers {@code 409 constraint_violation} on every engine that has
 * constraints (the dialects classify it, one table maps it), with the database's message for an unrestricted
 * writer and without it for a restricted one; the event log records the same code.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ErrorClassesIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_errors");
    private static final io.queryapigate.dialect.testkit.TestServers.Server MARIA =
            io.queryapigate.dialect.testkit.TestServers.mariadb();
    private static final String MARIA_DB = "qag_err_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(),
            36);
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static String restricted;

    private static String mariaUrl() {
        String base = MARIA.url();
        int slash = base.lastIndexOf('/');
        int query = base.indexOf('?', slash);
        return base.substring(0, slash + 1) + MARIA_DB + (query < 0 ? "" : base.substring(query));
    }

    private static void exec(String url, String user, String password, String... sql) {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String config() {
        exec(PG.url(), PG.user(), PG.password(), "CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)",
                "INSERT INTO t VALUES (1, 'one')");
        exec(MARIA.url(), MARIA.user(), MARIA.password(), "CREATE DATABASE " + MARIA_DB);
        exec(mariaUrl(), MARIA.user(), MARIA.password(), "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(9) NOT NULL)",
                "INSERT INTO t VALUES (1, 'one')");
        return TestingConfig.write("  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 1\n"
                + "  maria:\n    dialect: mysql\n    url: " + mariaUrl() + "\n    user: " + MARIA.user()
                + "\n    password: " + MARIA.password() + "\n    poolSize: 1\n",
                "security:\n  allowWrites: true\n").toString();
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        restricted = http.key("restricted", Map.of("connections", List.of("pg", "maria"), "adhoc_sql", true,
                "allow_writes", true, "allowed_tables", List.of("t")));
    }

    @AfterAll
    static void drop() {
        PG.dropDatabase();
        exec(MARIA.url(), MARIA.user(), MARIA.password(), "DROP DATABASE " + MARIA_DB);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg", "maria"})
    void aDuplicateKeyIsAConstraintViolation(String connection) {
        Reply admin = http.sql(TestingConfig.ADMIN_KEY, connection, "INSERT INTO t VALUES (1, 'again')");
        admin.assertRefused(409, "constraint_violation");
        assertThat(admin.json().get("detail").asText()).containsIgnoringCase("duplicate");
        Reply key = http.sql(restricted, connection, "INSERT INTO t VALUES (1, 'again')");
        key.assertRefused(409, "constraint_violation");
        assertThat(key.json().get("detail").asText()).contains("withheld");
        assertThat(key.body()).doesNotContainIgnoringCase("duplicate");
        Reply missing = http.sql(TestingConfig.ADMIN_KEY, connection, "INSERT INTO t (id) VALUES (2)");
        assertThat(missing.status()).as(missing.body()).isIn(409, 500);
        Reply ok = http.sql(TestingConfig.ADMIN_KEY, connection, "INSERT INTO t VALUES (3, 'three')");
        assertThat(ok.json().get("rows_affected").asLong()).isEqualTo(1);
    }
}
