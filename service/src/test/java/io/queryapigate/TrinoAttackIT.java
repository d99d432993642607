package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Leaks;
import io.queryapigate.testing.TestingConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Masking on the real Trino (its memory catalog) through the REST API: quoted names in any case are the same name,
 * the system catalog and SHOW STATS are closed to masked callers, and Trino's error text (which echoes values it
 * cannot cast) is withheld from them.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TrinoAttackIT {
    private static final TestServers.Server TRINO = TestServers.trino();
    private static final String URL = TRINO.url();
    static final String SCHEMA = "qag_atk_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    static final List<String> SSNS = List.of("123-45-6789", "987-65-4321");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;

    static void exec(String... statements) {
        try (Connection c = DriverManager.getConnection(URL, TRINO.user(), null); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String config() {
        exec("CREATE SCHEMA memory." + SCHEMA,
                "CREATE TABLE memory." + SCHEMA + ".people (id integer, name varchar, ssn varchar)",
                "INSERT INTO memory." + SCHEMA + ".people VALUES (1, 'Ada', '" + SSNS.get(0) + "'), (2, 'Bob', '"
                        + SSNS.get(1) + "')");
        return TestingConfig.write("  lake:\n    dialect: trino\n    url: " + URL + "\n    user: " + TRINO.user()
                + "\n    properties:\n      trino.catalog: memory\n      trino.schema: " + SCHEMA + "\n", "").toString();
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> lake = List.of("lake");
        keys = Map.of(
                "reader", http.key("reader", Map.of("connections", lake, "adhoc_sql", true)),
                "masked", http.key("masked", Map.of("connections", lake, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "people.ssn", "action", "null")))));
    }

    @AfterAll
    static void drop() {
        exec("DROP TABLE memory." + SCHEMA + ".people", "DROP SCHEMA memory." + SCHEMA);
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "lake", sql);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            SELECT name, ssn FROM people                                 | 200
            SELECT ssn FROM "People"                                     | 200
            SELECT "SSN" FROM people                                     | 200
            SELECT upper(ssn) AS u FROM memory.SCHEMA.people             | 200
            SELECT * FROM people                                         | 403
            SELECT query FROM system.runtime.queries                     | 403
            SELECT column_name FROM information_schema.columns           | 403
            SHOW STATS FOR people                                        | 400
            SELECT CAST(ssn AS integer) AS n FROM people                 | 500
            SELECT ssn FROM people UNION ALL SELECT 'x'                  | 403
            """)
    void maskedValuesNeverLeave(String sql, int status) {
        Reply r = sql("masked", sql.replace("SCHEMA", SCHEMA));
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        Leaks.assertNone(sql, r.body(), SSNS);
    }

    @Test
    void theDatabaseMessageIsShownToUnrestrictedCallersOnly() {
        String sql = "SELECT CAST(ssn AS integer) AS n FROM people";
        Leaks.assertMessageWithheld(sql("reader", sql), sql("masked", sql), SSNS.get(0));
    }
}
