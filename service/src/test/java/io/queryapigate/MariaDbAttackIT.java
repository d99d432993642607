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
import java.sql.ResultSet;
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
 * Session state and masking attacks on the real MariaDB through the REST API, on a pool of one connection, each
 * checked in the database afterwards: LAST_INSERT_ID, named locks, user variables and temporary tables cannot be
 * left for the next caller; masked columns survive case and quoting variants, backslash literals, statistics tables,
 * PROCEDURE ANALYSE and error-based extraction.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MariaDbAttackIT {
    private static final TestServers.Server SERVER = TestServers.mariadb();
    static final String DB = "qag_atk_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    static final List<String> SSNS = List.of("123-45-6789", "987-65-4321");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;

    private static String url() {
        String base = SERVER.url();
        int slash = base.lastIndexOf('/');
        int query = base.indexOf('?', slash);
        return base.substring(0, slash + 1) + DB + (query < 0 ? "" : base.substring(query));
    }

    private static String config() {
        try (Connection c = DriverManager.getConnection(SERVER.url(), SERVER.user(), SERVER.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DB);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        exec("CREATE TABLE sec_people (id INT PRIMARY KEY, name VARCHAR(50), ssn VARCHAR(20))",
                "INSERT INTO sec_people VALUES (1, 'Ada', '" + SSNS.get(0) + "'), (2, 'Bob', '" + SSNS.get(1) + "')",
                "CREATE TABLE mine (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(50))",
                "ANALYZE TABLE sec_people PERSISTENT FOR ALL");
        return TestingConfig.write("  maria:\n    dialect: mysql\n    url: " + url() + "\n    user: " + SERVER.user()
                + "\n    password: " + SERVER.password() + "\n    poolSize: 1\n",
                "security:\n  allowWrites: true\n").toString();
    }

    static void exec(String... statements) {
        try (Connection c = DriverManager.getConnection(url(), SERVER.user(), SERVER.password());
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    static String one(String sql) {
        try (Connection c = DriverManager.getConnection(url(), SERVER.user(), SERVER.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    @BeforeAll
    static void keys() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> maria = List.of("maria");
        keys = Map.of(
                "reader", http.key("reader", Map.of("connections", maria, "adhoc_sql", true)),
                "writer", http.key("writer", Map.of("connections", maria, "adhoc_sql", true, "allow_writes", true)),
                "masked", http.key("masked", Map.of("connections", maria, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "sec_people.ssn", "action", "null")))),
                "strict", http.key("strict", Map.of("connections", maria, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "sec_people.ssn", "action", "null", "strict", true)))),
                "admin", TestingConfig.ADMIN_KEY);
    }

    @AfterAll
    static void drop() {
        exec("DROP DATABASE " + DB);
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "maria", sql);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            reader | SELECT LAST_INSERT_ID(424242)
            writer | SELECT LAST_INSERT_ID(424242)
            admin  | SELECT LAST_INSERT_ID(424242)
            writer | INSERT INTO mine (v) VALUES (LAST_INSERT_ID(424242))
            reader | SELECT GET_LOCK('qag_atk', 0)
            writer | SELECT GET_LOCK('qag_atk', 0)
            writer | SELECT @qag_x := 42
            writer | UPDATE mine SET v = (@qag_x := 'x')
            writer | SELECT 42 INTO @qag_x
            writer | CREATE TEMPORARY TABLE tmp_atk (a INT)
            writer | SET @qag_x = 42
            writer | SET SESSION sql_mode = 'ANSI_QUOTES'
            reader | SELECT @qag_x
            reader | SELECT @@rand_seed1
            reader | SELECT FOUND_ROWS()
            reader | SHOW FULL PROCESSLIST
            reader | SELECT info FROM information_schema.PROCESSLIST
            writer | SELECT PREVIOUS VALUE FOR qag_seq
            """)
    void sessionStateCannotBeLeftForTheNextCaller(String key, String statement) {
        Reply r = sql(key, statement);
        assertThat(r.status()).as(r.body()).isIn(400, 403, 500);
        assertThat(one("SELECT IS_USED_LOCK('qag_atk')")).isNull();
        assertThat(one("SELECT count(*) FROM mine")).isEqualTo("0");
        // the next caller on the same (single) connection sees a fresh session
        Reply next = sql("admin", "SELECT @qag_x AS x, @@session.sql_mode AS mode");
        assertThat(next.status()).as(next.body()).isEqualTo(200);
        assertThat(next.json().get(0).get("x").isNull()).isTrue();
        assertThat(next.json().get(0).get("mode").asText()).doesNotContain("ANSI_QUOTES");
        Reply temp = sql("reader", "SELECT a FROM tmp_atk");
        assertThat(temp.status()).as(temp.body()).isEqualTo(500);
    }

    @Test
    void writesStillWork() {
        Reply w = sql("writer", "INSERT INTO mine (v) VALUES ('ok')");
        assertThat(w.status()).as(w.body()).isEqualTo(200);
        assertThat(one("SELECT v FROM mine")).isEqualTo("ok");
        exec("DELETE FROM mine");
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            masked | SELECT name, ssn FROM sec_people                                      | 200
            masked | SELECT `SSN` FROM sec_people                                          | 200
            masked | SELECT SSN FROM sec_people                                            | 200
            masked | SELECT sec_people.SSN FROM sec_people                                 | 200
            masked | SELECT 'a\\'' AS q, ssn FROM sec_people                               | 200
            masked | SELECT concat(name, ssn) AS c FROM sec_people                         | 200
            masked | SELECT CAST(ssn AS INTEGER) AS n FROM sec_people                      | 200
            masked | SELECT "ssn" AS q, ssn FROM sec_people                                | 200
            masked | SELECT ssn FROM sec_people PROCEDURE ANALYSE()                        | 500
            masked | SELECT min_value, max_value FROM mysql.column_stats                   | 403
            masked | SELECT * FROM information_schema.COLUMN_STATISTICS                    | 403
            masked | SELECT EXTRACTVALUE('<a/>', concat('/', ssn)) FROM sec_people         | 500
            masked | SELECT ssn_typo FROM sec_people                                       | 500
            masked | SELECT (SELECT ssn FROM sec_people LIMIT 1) AS x                      | 403
            masked | SELECT * FROM sec_people                                              | 403
            masked | SELECT name FROM sec_people WHERE ssn LIKE '1%'                       | 200
            strict | SELECT name FROM sec_people WHERE ssn LIKE '1%'                       | 403
            """)
    void maskedValuesNeverLeave(String key, String sql, int status) {
        Reply r = sql(key, sql);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        Leaks.assertNone(sql, r.body(), SSNS);
    }

    @Test
    void theDatabaseMessageIsShownToUnrestrictedCallersOnly() {
        String typo = "SELECT ssn_typo FROM sec_people";
        Leaks.assertMessageWithheld(sql("reader", typo), sql("masked", typo), "ssn_typo");
        // MariaDB reports XPath errors as internal failures: nobody sees their text (it would echo the value)
        Reply xpath = sql("reader", "SELECT EXTRACTVALUE('<a/>', concat('/', ssn)) FROM sec_people");
        assertThat(xpath.status()).isEqualTo(500);
        assertThat(xpath.body()).doesNotContain("45-6789");
    }
}
