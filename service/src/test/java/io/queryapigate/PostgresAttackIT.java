package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.Leaks;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bypasses attack testing found on PostgreSQL, through the REST API on the real server, each checked in the
 * database afterwards: functions that run SQL text or reach beyond the statement (issue 12, class 1), session state
 * that outlives a call on a pool of one connection (class 2), masking (class 4) and database error text (class 4).
 * Each attack is first shown to work on a direct connection, so that a refusal here is the guard's doing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresAttackIT {
    static final String SECRET = "s3cr3t-token-4711";
    static final List<String> SSNS = List.of("123-45-6789", "987-65-4321");
    /** Advisory locks held in this test's database, by any session. */
    static final String ADVISORY_LOCKS = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
            + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";
    private static final TestingPostgres.Database DB = TestingPostgres.freshDatabase("qag_attack");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static Map<String, String> keys;
    private static Connection victim;

    private static String config() {
        exec("CREATE SCHEMA sec_other",
                "CREATE TABLE sec_other.secret (token text)",
                "INSERT INTO sec_other.secret VALUES ('" + SECRET + "')",
                "CREATE TABLE sec_people (id int, name text, ssn text)",
                "INSERT INTO sec_people VALUES (1, 'Ada', '" + SSNS.get(0) + "'), (2, 'Bob', '" + SSNS.get(1) + "')",
                "CREATE TABLE mine (v text)",
                "CREATE TABLE orders (id int, pid int, total numeric)",
                "CREATE SEQUENCE s",
                "ANALYZE sec_people");
        return TestingConfig.write("  pg:\n    dialect: postgres\n    url: " + DB.url() + "\n    user: " + DB.user()
                + "\n    password: " + DB.password() + "\n    poolSize: 1\n",
                "security:\n  allowWrites: true\n  maskingKey: attack-masking-key-0123456789\n").toString();
    }

    static void exec(String... statements) {
        try (Connection c = direct(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    static Connection direct() throws SQLException {
        return DriverManager.getConnection(DB.url(), DB.user(), DB.password());
    }

    static String one(String sql) {
        try (Connection c = direct(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    @BeforeAll
    static void keys() throws SQLException {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        List<String> pg = List.of("pg");
        keys = Map.of(
                "narrow", http.key("narrow", Map.of("connections", pg, "adhoc_sql", true,
                        "allowed_tables", List.of("sec_people"))),
                "narrow_writer", http.key("narrow_writer", Map.of("connections", pg, "adhoc_sql", true,
                        "allow_writes", true, "allowed_write_ops", List.of("insert"),
                        "allowed_tables", List.of("mine", "sec_people"))),
                "reader", http.key("reader", Map.of("connections", pg, "adhoc_sql", true)),
                "writer", http.key("writer", Map.of("connections", pg, "adhoc_sql", true, "allow_writes", true)),
                "masked", http.key("masked", Map.of("connections", pg, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "sec_people.ssn", "action", "null")))),
                "strict", http.key("strict", Map.of("connections", pg, "adhoc_sql", true,
                        "mask", List.of(Map.of("column", "sec_people.ssn", "action", "fixed", "value", "***",
                                "strict", true)))),
                "admin", TestingConfig.ADMIN_KEY);
        victim = direct();
    }

    @AfterAll
    static void drop() throws SQLException {
        if (victim != null) {
            victim.close();
        }
        DB.dropDatabase();
    }

    private static Reply sql(String key, String sql) {
        return http.sql(keys.get(key), "pg", sql);
    }

    private static String victimPid() throws SQLException {
        try (Statement s = victim.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void tsRewriteRunsItsSecondArgumentOnThisServer() {
        // the attack is real: run directly, ts_rewrite hands back a forbidden table's content
        assertThat(one("SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery "
                + "FROM sec_other.secret')::text")).contains(SECRET);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            narrow        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text
            narrow        | SELECT pg_catalog.ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text
            narrow        | SELECT "ts_rewrite"('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text
            narrow        | SELECT name FROM sec_people WHERE ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text LIKE '%4711%'
            narrow        | SELECT (SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text) FROM sec_people
            narrow        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_read_file(''/etc/hostname''))::tsquery')::text
            narrow        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(d)::tsquery FROM pg_ls_dir(''.'') d')::text
            narrow        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_advisory_lock(77)::text)::tsquery')::text
            narrow        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_terminate_backend(${victim})::text)::tsquery')::text
            narrow        | SELECT query_to_xml('SELECT token FROM sec_other.secret', true, false, '')::text
            narrow        | SELECT * FROM ts_stat('SELECT to_tsvector(token) FROM sec_other.secret')
            reader        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_read_file(''/etc/hostname''))::tsquery')::text
            reader        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_advisory_lock(77)::text)::tsquery')::text
            reader        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_terminate_backend(${victim})::text)::tsquery')::text
            writer        | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(pg_terminate_backend(${victim})::text)::tsquery')::text
            writer        | SELECT query_to_xml('SELECT setseed(0.42)', true, false, '')::text
            narrow_writer | INSERT INTO mine SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text
            narrow        | SELECT pg_relation_size('sec_other.secret')
            narrow        | SELECT has_table_privilege('sec_other.secret', 'select')
            narrow        | SELECT 'sec_other.secret'::regclass::oid
            narrow        | SELECT current_setting('data_directory')
            narrow_writer | INSERT INTO mine SELECT current_setting('data_directory')
            reader        | SELECT query FROM pg_stat_activity
            writer        | INSERT INTO mine SELECT query FROM pg_stat_activity
            reader        | SELECT * FROM pg_stat_get_activity(NULL)
            """)
    void functionsThatRunSqlTextOrReachBeyondTheStatementAreRefused(String key, String attack) throws SQLException {
        String pid = victimPid();
        Reply r = sql(key, attack.replace("${victim}", pid));
        assertThat(r.status()).as(r.body()).isEqualTo(403);
        assertThat(r.json().get("code").asText()).isIn("read_only", "write_op_not_allowed", "function_not_allowed",
                "table_not_allowed");
        assertThat(r.body()).doesNotContain(SECRET);
        // the database afterwards: nothing stored, no lock held, the other session alive
        assertThat(one("SELECT count(*) FROM mine")).isEqualTo("0");
        assertThat(one(ADVISORY_LOCKS)).isEqualTo("0");
        assertThat(victimPid()).isEqualTo(pid);
    }

    @Test
    void theRestrictedKeysStillReadWhatTheyMay() {
        Reply r = sql("narrow", "SELECT name, lower(name) AS l, length(name) AS n FROM sec_people ORDER BY id");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("l").asText()).isEqualTo("ada");
        Reply w = sql("narrow_writer", "INSERT INTO mine SELECT upper(name) FROM sec_people");
        assertThat(w.status()).as(w.body()).isEqualTo(200);
        exec("DELETE FROM mine");
    }

    @Test
    void aRandomSeedCannotBeLeftForTheNextCaller() {
        // directly: setseed makes random() predictable on the same session
        String predicted;
        try (Connection c = direct(); Statement s = c.createStatement()) {
            s.execute("SELECT setseed(0.42)");
            try (ResultSet rs = s.executeQuery("SELECT random()::text")) {
                rs.next();
                predicted = rs.getString(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        for (String key : List.of("reader", "writer", "admin")) {
            Reply seed = sql(key, "SELECT setseed(0.42)");
            assertThat(seed.status()).as(seed.body()).isEqualTo(403);
        }
        Reply next = sql("reader", "SELECT random()::text AS r");
        assertThat(next.status()).isEqualTo(200);
        assertThat(next.json().get(0).get("r").asText()).isNotEqualTo(predicted);
    }

    /** What the next caller on the pooled session would see of earlier calls. */
    private static String fingerprint() {
        Reply r = sql("admin", "SELECT (SELECT coalesce(string_agg(name || '=' || setting, ',' ORDER BY name), '') "
                + "FROM pg_settings WHERE source NOT IN ('default', 'configuration file', 'override', "
                + "'environment variable')) AS settings, "
                + "(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS locks, "
                + "(SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema()) AS temp, "
                + "(SELECT count(*) FROM pg_prepared_statements WHERE NOT from_sql) AS driver_prepared, "
                + "(SELECT count(*) FROM pg_prepared_statements WHERE from_sql) AS prepared, "
                + "(SELECT count(*) FROM pg_cursors) AS cursors, "
                + "(SELECT count(*) FROM pg_listening_channels()) AS listening, "
                + "current_user AS usr, session_user AS sess, current_setting('search_path') AS path");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get(0).toString().replaceAll("\"driver_prepared\":\\d+,", "");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            reader | SELECT 1
            reader | SELECT name FROM sec_people
            reader | SELECT pg_sleep(0)
            reader | SELECT setseed(0.42)
            reader | SELECT set_config('search_path', 'sec_other', false)
            reader | SELECT pg_advisory_lock(5)
            reader | SELECT 1/0
            writer | INSERT INTO mine VALUES ('x')
            writer | UPDATE mine SET v = 'y'
            writer | DELETE FROM mine
            writer | SELECT nextval('s')
            writer | CREATE TEMP TABLE tt (a int)
            writer | SELECT set_config('search_path', 'sec_other', false)
            writer | SELECT set_config('role', 'pg_monitor', false)
            writer | SELECT pg_advisory_lock(5)
            writer | SELECT pg_try_advisory_lock(6)
            writer | SET search_path = sec_other
            writer | LISTEN ch
            writer | PREPARE p AS SELECT 1
            writer | DECLARE c CURSOR WITH HOLD FOR SELECT 1
            writer | SELECT 1/0
            """)
    void noAdmittedOrRefusedStatementLeavesSessionState(String key, String statement) {
        String before = fingerprint();
        Reply r = sql(key, statement);
        assertThat(r.status()).as(r.body()).isIn(200, 400, 403, 500);
        assertThat(fingerprint()).as("after %s", statement).isEqualTo(before);
        assertThat(one(ADVISORY_LOCKS)).isEqualTo("0");
        exec("DELETE FROM mine");
    }

    @ParameterizedTest(name = "{0}: {1} -> {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            masked | SELECT name, ssn FROM sec_people                                            | 200
            masked | SELECT upper(ssn) AS u FROM sec_people                                      | 200
            masked | SELECT SSN FROM sec_people                                                  | 200
            masked | SELECT "ssn" FROM SEC_PEOPLE                                                | 200
            masked | SELECT (SELECT p.ssn) AS x FROM sec_people p                                | 200
            masked | SELECT E'\\'' AS q, ssn FROM sec_people                                     | 200
            masked | SELECT ssn AS s, name FROM sec_people ORDER BY name                         | 200
            masked | SELECT 'a\\' AS q, ssn FROM sec_people                                      | 400
            masked | SELECT (SELECT ssn FROM sec_people LIMIT 1) AS x                            | 403
            masked | SELECT p FROM sec_people p                                                  | 403
            masked | SELECT row_to_json(p) FROM sec_people p                                     | 403
            masked | SELECT to_jsonb(p) FROM sec_people p                                        | 403
            masked | SELECT p::text FROM sec_people p                                            | 403
            masked | SELECT p.row_to_json FROM sec_people p                                      | 403
            masked | SELECT p.to_jsonb FROM sec_people p                                         | 403
            masked | SELECT p.record_out FROM sec_people p                                       | 403
            masked | SELECT s FROM sec_people AS p(a, b, s)                                      | 403
            masked | SELECT x.v FROM sec_people p, LATERAL (SELECT p.ssn AS v) x                 | 403
            masked | SELECT u FROM sec_people p, unnest(ARRAY[p.ssn]) AS u                       | 403
            masked | SELECT v.x FROM sec_people p CROSS JOIN LATERAL (VALUES (p.ssn)) v(x)       | 403
            masked | SELECT * FROM sec_people                                                    | 403
            masked | SELECT most_common_vals::text FROM pg_stats WHERE tablename = 'sec_people'  | 403
            masked | SELECT histogram_bounds::text FROM pg_catalog.pg_stats                      | 403
            masked | SELECT CAST(ssn AS integer) FROM sec_people                                 | 500
            masked | SELECT name FROM sec_people WHERE ssn LIKE '1%'                             | 200
            strict | SELECT name FROM sec_people WHERE ssn LIKE '1%'                             | 403
            strict | SELECT name FROM sec_people ORDER BY ssn                                    | 403
            strict | SELECT ssn, name FROM sec_people                                            | 200
            narrow | SELECT CAST(name AS integer) FROM sec_people                                | 500
            """)
    void maskedValuesNeverLeave(String key, String sql, int status) {
        Reply r = sql(key, sql);
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        Leaks.assertNone(sql, r.body(), SSNS);
        if (key.equals("narrow")) {
            assertThat(r.body()).doesNotContain("Ada");
        }
        if (status == 500) {
            assertThat(r.json().get("code").asText()).isEqualTo("query_failed");
            assertThat(r.json().get("detail").asText()).contains("22P02").contains("withheld");
        }
    }

    @Test
    void anUnrestrictedCallerStillSeesTheDatabaseMessage() {
        // the leak the masked caller is spared: the database echoes the value it could not convert
        Reply r = sql("reader", "SELECT CAST(ssn AS integer) FROM sec_people");
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.body()).contains(SSNS.get(0));
    }

    @Test
    void aSavedQuerysDatabaseErrorIsShownToTheAdministratorOnly() {
        Reply saved = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", "broken_cast",
                "sql", "SELECT CAST(name AS integer) AS n FROM sec_people WHERE id = :id",
                "parameters", Map.of("id", Map.of("type", "int")), "connection_name", "pg", "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        Reply reader = http.get("/q/broken_cast?id=1", keys.get("reader"));
        assertThat(reader.status()).as(reader.body()).isEqualTo(500);
        assertThat(reader.body()).contains("withheld").doesNotContain("Ada");
        Reply admin = http.get("/q/broken_cast?id=1", TestingConfig.ADMIN_KEY);
        assertThat(admin.status()).isEqualTo(500);
        assertThat(admin.body()).contains("Ada");
    }

    @Test
    void pagedAndStreamedResultsAreMaskedToo() {
        Reply paged = http.post("/execute_sql", keys.get("masked"), Http.json(Map.of("sql",
                "SELECT name, ssn FROM sec_people ORDER BY id", "connection_name", "pg", "page", 1, "page_size", 1)));
        assertThat(paged.status()).as(paged.body()).isEqualTo(200);
        assertThat(paged.json().get(0).get("ssn").isNull()).isTrue();
        Reply streamed = http.post("/execute_sql", keys.get("masked"), Http.json(Map.of("sql",
                "SELECT name, ssn FROM sec_people ORDER BY id", "connection_name", "pg", "stream", true,
                "format", "csv")));
        assertThat(streamed.status()).as(streamed.body()).isEqualTo(200);
        assertThat(streamed.body()).contains("Ada").doesNotContain(SSNS.get(0)).doesNotContain(SSNS.get(1));
    }

    @Test
    void maskedColumnsAreReplacedInEveryForm() {
        Reply r = sql("masked", "SELECT name, ssn, upper(ssn) AS u, (SELECT p.ssn) AS sub FROM sec_people p "
                + "ORDER BY id");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("name").asText()).isEqualTo("Ada");
        assertThat(r.json().get(0).get("ssn").isNull()).isTrue();
        assertThat(r.json().get(0).get("u").isNull()).isTrue();
        assertThat(r.json().get(0).get("sub").isNull()).isTrue();
        Reply strict = sql("strict", "SELECT ssn FROM sec_people ORDER BY id");
        assertThat(strict.json().get(0).get("ssn").asText()).isEqualTo("***");
    }
}
