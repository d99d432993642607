package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Leaks;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Masking and session state on embedded DuckDB through the REST API (a pool of one connection): whole-row
 * references by table name, COLUMNS(), method-call syntax, case-insensitive quoted names, select-list aliases,
 * star expansions, statistics, random seeds, temporary tables and variables.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DuckDbAttackIT {
    static final List<String> SSNS = List.of("123-45-6789", "987-65-4321");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;

    private static String config() {
        try {
            Path init = Files.createTempFile("qag-duck-attack-", ".sql");
            Files.writeString(init, "CREATE TABLE people (id INTEGER, name VARCHAR, ssn VARCHAR);\n"
                    + "INSERT INTO people VALUES (1, 'Ada', '" + SSNS.get(0) + "'), (2, 'Bob', '" + SSNS.get(1)
                    + "');\nCREATE TABLE mine (v VARCHAR);\n");
            return TestingConfig.write("  duck:\n    dialect: duckdb\n    url: attack.duckdb\n    poolSize: 1\n"
                    + "    properties:\n      duckdb.read_only: \"false\"\n      duckdb.init_script: " + init + "\n",
                    "security:\n  allowWrites: true\n").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> duck = List.of("duck");
        keys = Map.of(
                "reader", http.key("reader", Map.of("connections", duck, "adhoc_sql", true)),
                "writer", http.key("writer", Map.of("connections", duck, "adhoc_sql", true, "allow_writes", true)),
                "masked", http.key("masked", Map.of("connections", duck, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "people.ssn", "action", "null")))));
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "duck", sql);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            SELECT name, ssn FROM people                                     | 200
            SELECT ssn FROM "PEOPLE"                                         | 200
            SELECT "SSN" FROM people                                         | 200
            ~SELECT ssn AS s, s || 'x' AS t, name FROM people~               | 200
            SELECT unnest([ssn]) AS u FROM people                            | 200
            SELECT people FROM people                                        | 403
            SELECT p FROM people p                                           | 403
            SELECT to_json(p) FROM people p                                  | 403
            SELECT struct_pack(p.*) FROM people p                            | 403
            SELECT COLUMNS('ss.*') FROM people                               | 403
            SELECT p.ssn.upper() FROM people p                               | 403
            SELECT * EXCLUDE (id) FROM people                                | 403
            SELECT #3 FROM people                                            | 403
            SELECT p['ssn'] FROM people p                                    | 403
            SELECT ssn FROM people UNION ALL SELECT 'x'                      | 403
            SELECT * FROM duckdb_columns()                                   | 403
            SELECT * FROM information_schema.columns                         | 403
            SELECT CAST(ssn AS INTEGER) AS n FROM people                     | 500
            SUMMARIZE people                                                 | 403
            """)
    void maskedValuesNeverLeave(String sql, int status) {
        Reply r = sql("masked", sql);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        Leaks.assertNone(sql, r.body(), SSNS);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            reader | SELECT setseed(0.42)
            writer | SELECT setseed(0.42)
            writer | CREATE TEMP TABLE tmp_atk (a INTEGER)
            writer | SET VARIABLE qag_x = 42
            writer | SELECT set_variable('qag_x', 42)
            """)
    void sessionStateCannotBeLeftForTheNextCaller(String key, String statement) {
        Reply r = sql(key, statement);
        assertThat(r.status()).as(r.body()).isIn(400, 403, 500);
        Reply next = sql("writer", "SELECT getvariable('qag_x') AS x");
        assertThat(next.status()).as(next.body()).isIn(200, 403);
        Reply temp = sql("reader", "SELECT a FROM tmp_atk");
        assertThat(temp.status()).as(temp.body()).isEqualTo(500);
    }

    @Test
    void theDatabaseMessageIsShownToUnrestrictedCallersOnly() {
        String sql = "SELECT CAST(ssn AS INTEGER) AS n FROM people";
        Leaks.assertMessageWithheld(sql("reader", sql), sql("masked", sql), SSNS.get(0));
    }
}
