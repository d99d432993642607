package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.failure;
import static io.queryapigate.dialect.postgres.Calls.number;
import static io.queryapigate.dialect.postgres.Calls.read;
import static io.queryapigate.dialect.postgres.Calls.run;
import static io.queryapigate.dialect.postgres.Calls.stream;
import static io.queryapigate.dialect.postgres.Calls.text;
import static io.queryapigate.dialect.postgres.Calls.value;
import static io.queryapigate.dialect.postgres.Calls.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.Outcome;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The session-state fingerprint of a pooled PostgreSQL session, taken after every kind of statement the gateway
 * admits (and some it refuses), compared with a fresh connection's. The pool has ONE connection, so each call reuses
 * the session the previous call left (checked with {@code pg_backend_pid()}); the fingerprint is taken through the
 * dialect itself, by read calls on that session, i.e. it is what the next caller would see. The dialect is called
 * directly: the service's SQL guard is not in the picture.
 *
 * <p>The fingerprint: every row of {@code pg_settings} (name, value, source); the GUC_NO_SHOW_ALL identity settings
 * ({@code current_user}, {@code session_user}, {@code role}, {@code session_authorization}, {@code is_superuser});
 * a custom placeholder ({@code qag.fp}); advisory locks held by the backend; objects in the backend's temporary
 * schema ({@code pg_class}, {@code pg_proc}); SQL-level prepared statements ({@code pg_prepared_statements} where
 * {@code from_sql}: pgjdbc's own server-side statements, {@code S_1}, {@code S_2}, ..., are the driver's cache of
 * the dialect's messages, depend on how many calls the session served and are not something a caller can create or
 * use, so they are left out here; that they no longer show earlier callers' SQL is {@link
 * #theDriversOwnPreparedStatementsNoLongerShowEarlierCallersSql}); cursors; LISTEN channels; {@code lastval()} and {@code
 * currval()} of the test's sequence, an error counting as a value ("not yet defined in this session"). Not in the
 * fingerprint: settings a library registers when an earlier call loaded it (calling a PL/pgSQL function adds the
 * {@code plpgsql.*} settings, at their defaults: the session has the library, nobody set a value), whether the
 * backend has a temporary schema at all ({@link #aTemporaryObjectLeavesTheTemporarySchemaAssigned}),
 * and the state of {@code random()}, which cannot be read ({@link #setseedMakesTheNextCallersRandomPredictable}).
 *
 * <p><b>What the SQL guard must refuse</b>, because the message cannot reset it (each proven by a test below that
 * asserts the leak on the raw dialect):
 *
 * <ul>
 *   <li>{@code setseed(...)} anywhere in a statement, read or write: the seed of {@code random()} outlives the call
 *       and the next caller's {@code random()} is the sequence that seed gives. PostgreSQL has no way to undo it.
 *   <li>Session-level advisory locks: {@code pg_advisory_lock(...)}, {@code pg_advisory_lock_shared(...)}, {@code
 *       pg_try_advisory_lock(...)}, {@code pg_try_advisory_lock_shared(...)}: the next call on the session releases
 *       them, but until then the idle pooled session holds them against every other session (for as long as the
 *       connection waits for its next call). The {@code _xact_} forms end with the call and are harmless.
 *   <li>Reading {@code pg_stat_activity} and {@code pg_stat_statements} (not session state, and not tested here):
 *       they show the SQL of other sessions of the same login role, i.e. other keys' calls; {@code
 *       pg_prepared_statements} no longer shows earlier callers' SQL ({@link
 *       #theDriversOwnPreparedStatementsNoLongerShowEarlierCallersSql}).
 *   <li>{@code set_config('<custom.name>', ...)} with a name that has a dot: the value is reset, but the placeholder
 *       stays defined, so {@code current_setting('<name>', true)} answers {@code ''} instead of NULL to every later
 *       caller: one bit per name, a channel between cooperating keys (never another key's value).
 * </ul>
 *
 * <p>Reset by the message (the main parameterised test fails if one of these statements is removed): settings
 * ({@code RESET ALL}), role and session authorization ({@code RESET SESSION AUTHORIZATION}), advisory locks ({@code
 * SELECT pg_advisory_unlock_all()}), sequence state ({@code DISCARD SEQUENCES}, also after a write that failed or
 * timed out after its {@code nextval()}), prepared statements ({@code DEALLOCATE ALL}, also those a function prepared
 * through dynamic SQL, and pgjdbc's own), LISTEN registrations ({@code UNLISTEN *}), cursors held open ({@code CLOSE
 * ALL}), temporary objects ({@code DISCARD TEMP} after a write). Accepted residue, not reset: a write that created a
 * temporary object leaves the backend's temporary schema assigned ({@code pg_my_temp_schema()} is no longer 0), which
 * tells a later caller only that some earlier write on that session created one.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresSessionFingerprintTest {

    private static final String SCHEMA = TestingPostgresServer.schemaName("fingerprint");
    private static final Duration SHORT = Duration.ofMillis(200);
    private static final String FAIL = "1 / (random() * 0)::int"; // division by zero at run time, not when planned
    private static TestingPostgresServer server;
    /** The fresh fingerprint per query mode and per access mode of the call that takes it. */
    private static final Map<String, Map<String, String>> FRESH = new java.util.HashMap<>();
    private final List<PostgresDialect> opened = new ArrayList<>();

    @BeforeAll
    static void createSchema() throws Exception {
        server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
        server.run("CREATE TABLE " + SCHEMA + ".t (id bigint PRIMARY KEY, v text)",
                "INSERT INTO " + SCHEMA + ".t VALUES (1, 'one')",
                "CREATE SEQUENCE " + SCHEMA + ".seq START 1000",
                // functions a SELECT can call, that leave session state through dynamic SQL
                "CREATE FUNCTION " + SCHEMA + ".qag_fp_listen() RETURNS int LANGUAGE plpgsql AS"
                        + " $$ BEGIN EXECUTE 'LISTEN qag_fp_channel'; RETURN 1; END $$",
                "CREATE FUNCTION " + SCHEMA + ".qag_fp_hold() RETURNS int LANGUAGE plpgsql AS"
                        + " $$ BEGIN EXECUTE 'DECLARE qag_fp_held CURSOR WITH HOLD FOR SELECT 1'; RETURN 1; END $$",
                "CREATE FUNCTION " + SCHEMA + ".qag_fp_prepare() RETURNS int LANGUAGE plpgsql AS"
                        + " $$ BEGIN EXECUTE 'PREPARE qag_fp_prepared AS SELECT 42'; RETURN 1; END $$",
                // the fingerprint's helper: a probe's error as its value
                "CREATE FUNCTION " + SCHEMA + ".qag_fp_try(q text) RETURNS text LANGUAGE plpgsql AS $$ DECLARE r text;"
                        + " BEGIN EXECUTE q INTO r; RETURN r; EXCEPTION WHEN OTHERS THEN"
                        + " RETURN 'ERROR ' || SQLSTATE || ': ' || SQLERRM; END $$");
        for (QueryMode mode : QueryMode.values()) {
            for (AccessMode next : AccessMode.values()) {
                try (PostgresDialect fresh = server.dialect(SCHEMA, 1,
                        Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue()))) {
                    FRESH.put(mode + " " + next, fingerprint(fresh, next));
                }
            }
        }
    }

    @AfterAll
    static void dropSchema() throws Exception {
        server.dropSchema(SCHEMA);
    }

    @AfterEach
    void closeDialects() {
        opened.forEach(PostgresDialect::close);
    }

    private PostgresDialect dialect(QueryMode mode) {
        PostgresDialect d = server.dialect(SCHEMA, 1, Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue()));
        opened.add(d);
        return d;
    }

    // ------------------------------------------------------------------ the cases

    /** One statement run before the fingerprint, and how long the session then idles in the pool. */
    record Case(String name, AccessMode mode, boolean streaming, String sql, Outcome outcome, Duration idle) {
        Case(String name, AccessMode mode, boolean streaming, String sql, Outcome outcome) {
            this(name, mode, streaming, sql, outcome, Duration.ZERO);
        }

        QueryRequest request() {
            QueryRequest r = streaming ? stream(sql, 1_000) : mode == AccessMode.WRITE ? write(sql) : read(sql);
            return outcome == Outcome.TIMES_OUT ? r.withTimeout(SHORT) : r;
        }

        @Override
        public String toString() {
            return (streaming ? "stream" : mode.name().toLowerCase(java.util.Locale.ROOT)) + ": " + name;
        }
    }

    private static Case readCase(String name, String sql, Outcome outcome) {
        return new Case(name, AccessMode.READ, false, sql, outcome);
    }

    private static Case writeCase(String name, String sql, Outcome outcome) {
        return new Case(name, AccessMode.WRITE, false, sql, outcome);
    }

    static List<Case> statements() {
        return List.of(
                readCase("plain SELECT", "SELECT id, v FROM t", Outcome.OK),
                readCase("search_path", "SELECT set_config('search_path', 'pg_catalog', false)", Outcome.OK),
                readCase("TimeZone", "SELECT set_config('TimeZone', 'Asia/Tokyo', false)", Outcome.OK),
                readCase("statement_timeout", "SELECT set_config('statement_timeout', '5', false)", Outcome.OK),
                readCase("role", "SELECT set_config('role', 'pg_monitor', false)", Outcome.OK),
                // only a superuser may (the test user is one; a gateway's user should not be)
                readCase("session_authorization", "SELECT set_config('session_authorization', 'pg_monitor', false)",
                        Outcome.OK),
                readCase("more settings", "SELECT set_config('default_transaction_read_only', 'off', false),"
                        + " set_config('work_mem', '64kB', false), set_config('IntervalStyle', 'sql_standard', false),"
                        + " set_config('application_name', 'x', false), set_config('client_min_messages', 'debug5', false),"
                        + " set_config('default_transaction_isolation', 'serializable', false)", Outcome.OK),
                // settings that act before the next call's RESET ALL: when its transaction starts, or while idle
                readCase("default_transaction_read_only on", "SELECT set_config('default_transaction_read_only', 'on',"
                        + " false)", Outcome.OK),
                readCase("default_transaction_isolation", "SELECT set_config('default_transaction_isolation',"
                        + " 'serializable', false), set_config('default_transaction_deferrable', 'on', false)",
                        Outcome.OK),
                new Case("idle_session_timeout, then 400 ms in the pool", AccessMode.READ, false,
                        "SELECT set_config('idle_session_timeout', '100', false)", Outcome.OK, Duration.ofMillis(400)),
                readCase("advisory lock", "SELECT pg_advisory_lock(1)", Outcome.OK),
                readCase("try advisory lock", "SELECT pg_try_advisory_lock(2)", Outcome.OK),
                readCase("shared advisory lock", "SELECT pg_advisory_lock_shared(3)", Outcome.OK),
                readCase("settings, then division by zero", "SELECT set_config('TimeZone', 'Asia/Tokyo', false),"
                        + " set_config('role', 'pg_monitor', false), " + FAIL, Outcome.FAILS),
                readCase("advisory lock, then division by zero", "SELECT pg_advisory_lock(4), " + FAIL, Outcome.FAILS),
                readCase("advisory lock and settings, timed out", "SELECT pg_advisory_lock(5),"
                        + " set_config('search_path', 'pg_catalog', false), pg_sleep(5)", Outcome.TIMES_OUT),
                readCase("advisory lock and settings, cancelled", "SELECT pg_advisory_lock(6),"
                        + " set_config('TimeZone', 'Asia/Tokyo', false), pg_sleep(5)", Outcome.CANCELLED),
                readCase("a function that LISTENs", "SELECT qag_fp_listen()", Outcome.OK),
                readCase("a function that opens a WITH HOLD cursor", "SELECT qag_fp_hold()", Outcome.OK),
                // refused by the guard; run anyway to know what they would leave
                readCase("LISTEN", "LISTEN qag_fp_channel", Outcome.OK),
                readCase("PREPARE", "PREPARE qag_fp_direct AS SELECT 41", Outcome.OK),
                readCase("a function that PREPAREs", "SELECT qag_fp_prepare()", Outcome.OK),
                readCase("PREPARE, then a failure", "SELECT qag_fp_prepare(), " + FAIL, Outcome.FAILS),
                readCase("DECLARE WITH HOLD", "DECLARE qag_fp_held CURSOR WITH HOLD FOR SELECT 1", Outcome.OK),
                new Case("advisory lock and settings", AccessMode.READ, true, "SELECT pg_advisory_lock(7),"
                        + " set_config('TimeZone', 'Asia/Tokyo', false) FROM generate_series(1, 3)", Outcome.OK),
                writeCase("plain SELECT", "SELECT 1", Outcome.OK),
                writeCase("nextval", "SELECT nextval('seq')", Outcome.OK),
                writeCase("INSERT with nextval", "INSERT INTO t VALUES (nextval('seq'), 'x')", Outcome.OK),
                writeCase("INSERT RETURNING", "INSERT INTO t VALUES (nextval('seq'), 'y') RETURNING id", Outcome.OK),
                writeCase("UPDATE", "UPDATE t SET v = v || '!' WHERE id > 1", Outcome.OK),
                writeCase("DELETE", "DELETE FROM t WHERE id > 1", Outcome.OK),
                writeCase("CREATE TEMP TABLE", "CREATE TEMP TABLE fp_tmp AS SELECT 1 AS x", Outcome.OK),
                writeCase("CREATE TEMP TABLE shadowing t", "CREATE TEMP TABLE t AS SELECT 99::bigint AS id, 'fake' AS v",
                        Outcome.OK),
                writeCase("CREATE TEMP SEQUENCE", "CREATE TEMP SEQUENCE fp_tmp_seq", Outcome.OK),
                writeCase("CREATE FUNCTION pg_temp", "CREATE FUNCTION pg_temp.fp_f() RETURNS int LANGUAGE sql AS 'SELECT 1'",
                        Outcome.OK),
                writeCase("settings", "SELECT set_config('search_path', 'pg_catalog', false),"
                        + " set_config('TimeZone', 'Asia/Tokyo', false), set_config('role', 'pg_monitor', false)",
                        Outcome.OK),
                writeCase("default_transaction_read_only on", "SELECT set_config('default_transaction_read_only', 'on',"
                        + " false)", Outcome.OK),
                writeCase("default_transaction_isolation", "SELECT set_config('default_transaction_isolation',"
                        + " 'repeatable read', false)", Outcome.OK),
                writeCase("advisory lock", "SELECT pg_advisory_lock(11)", Outcome.OK),
                writeCase("nextval, then division by zero", "SELECT nextval('seq') / 0", Outcome.FAILS),
                writeCase("INSERT with nextval, then division by zero",
                        "INSERT INTO t VALUES (nextval('seq'), (" + FAIL + ")::text)", Outcome.FAILS),
                writeCase("CREATE TEMP TABLE, then division by zero", "CREATE TEMP TABLE fp_tmp2 AS SELECT " + FAIL + " AS x",
                        Outcome.FAILS),
                writeCase("settings, then division by zero", "SELECT set_config('TimeZone', 'Asia/Tokyo', false), " + FAIL,
                        Outcome.FAILS),
                writeCase("advisory lock, then division by zero", "SELECT pg_advisory_lock(12), " + FAIL, Outcome.FAILS),
                writeCase("nextval, timed out", "SELECT nextval('seq'), pg_sleep(5)", Outcome.TIMES_OUT),
                writeCase("CREATE TEMP TABLE, timed out", "CREATE TEMP TABLE fp_tmp3 AS SELECT 1 AS x FROM pg_sleep(5)",
                        Outcome.TIMES_OUT),
                writeCase("nextval and advisory lock, cancelled", "SELECT nextval('seq'), pg_advisory_lock(13), pg_sleep(5)",
                        Outcome.CANCELLED),
                writeCase("a function that LISTENs", "SELECT qag_fp_listen()", Outcome.OK),
                writeCase("a function that PREPAREs", "SELECT qag_fp_prepare()", Outcome.OK),
                writeCase("a function that opens a WITH HOLD cursor", "SELECT qag_fp_hold()", Outcome.OK));
    }

    /** Every statement, in both query modes, followed by a read and by a write (the next caller may be either). */
    static Stream<Arguments> cases() {
        return statements().stream().flatMap(c -> Stream.of(QueryMode.values()).flatMap(mode ->
                Stream.of(AccessMode.values()).map(next -> Arguments.of(c, mode, next))));
    }

    // ------------------------------------------------------------------ the main test

    @ParameterizedTest(name = "{1} {0}, then a {2}")
    @MethodSource("cases")
    void theNextCallSeesTheFingerprintOfAFreshSession(Case c, QueryMode mode, AccessMode next) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = number(d, "SELECT pg_backend_pid()");
        runCase(d, c);
        Thread.sleep(c.idle().toMillis());
        Map<String, String> after = fingerprint(d, next);
        assertThat(after.get("backend pid")).as("the same session was reused").isEqualTo(Long.toString(pid));
        assertThat(differences(FRESH.get(mode + " " + next), after))
                .as("what the next call (a %s) sees after %s (%s)", next, c, mode).isEmpty();
        // and in the database, seen from another session: nothing held, nothing open
        try (Connection admin = server.connect()) {
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = ?", pid))
                    .as("advisory locks held by the pooled session").isZero();
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND state <> 'idle'", pid))
                    .as("the pooled session is idle, outside any transaction").isZero();
            long tempSchema = Long.parseLong(after.get("temporary schema oid"));
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_class WHERE relnamespace = ?::oid", tempSchema))
                    .as("relations in the pooled session's temporary schema").isZero();
        }
        // the real table is what an unqualified name reaches
        assertThat(text(d, "SELECT v FROM t WHERE id = 1")).isEqualTo("one");
        server.run("DELETE FROM " + SCHEMA + ".t WHERE id > 1");
    }

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void aDescribeLeavesTheSessionAsAFreshOneAndOutsideAnyTransaction(AccessMode next) throws Exception {
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        long pid = number(d, "SELECT pg_backend_pid()");
        assertThat(d.describe(read("SELECT id, v FROM t WHERE id = 1"))).isPresent();
        assertThat(d.describe(read("INSERT INTO t VALUES (nextval('seq'), 'described')"))).contains(List.of());
        assertThat(catchThrowableOfType(DialectException.class, () -> d.describe(read("SELECT no_such_column FROM t"))))
                .isNotNull();
        Map<String, String> after = fingerprint(d, next);
        assertThat(after.get("backend pid")).as("the same session was reused").isEqualTo(Long.toString(pid));
        assertThat(differences(FRESH.get(QueryMode.EXTENDED + " " + next), after)).isEmpty();
        try (Connection admin = server.connect()) {
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND state <> 'idle'", pid))
                    .as("the pooled session is idle, outside any transaction").isZero();
        }
        assertThat(text(d, "SELECT count(*) FROM t WHERE v = 'described'")).isEqualTo("0");
    }

    private static void runCase(PostgresDialect d, Case c) throws Exception {
        c.outcome().check(d, c.request(), Set.of(DialectError.SYNTAX));
    }

    // ------------------------------------------------------------------ what the guard must refuse

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void setseedMakesTheNextCallersRandomPredictable(AccessMode mode) throws Exception {
        // the seed cannot be read; what the next caller gets is compared with what setseed(0.42) gives elsewhere
        double expected;
        try (Connection other = server.connect(); Statement s = other.createStatement()) {
            s.execute("SELECT setseed(0.42)");
            try (ResultSet r = s.executeQuery("SELECT random()")) {
                r.next();
                expected = r.getDouble(1);
            }
        }
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        long pid = number(d, "SELECT pg_backend_pid()");
        run(d, mode == AccessMode.WRITE ? write("SELECT setseed(0.42)") : read("SELECT setseed(0.42)"));
        assertThat(((Number) value(d, "SELECT random()")).doubleValue())
                .as("the next caller's random() is the one setseed(0.42) gives").isEqualTo(expected);
        assertThat(number(d, "SELECT pg_backend_pid()")).isEqualTo(pid);
        // control: a fresh session does not give that value
        assertThat(((Number) value(dialect(QueryMode.EXTENDED), "SELECT random()")).doubleValue()).isNotEqualTo(expected);
    }

    @Test
    void theDriversOwnPreparedStatementsNoLongerShowEarlierCallersSql() throws Exception {
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        // from the 5th use of the same text pgjdbc prepares named server-side statements (prepareThreshold); they
        // held the text of the whole message, the caller's SQL included, until DEALLOCATE ALL dropped them
        for (int i = 0; i < 6; i++) {
            run(d, read("SELECT v AS another_keys_query FROM t WHERE id = 1"));
        }
        String seen = text(d, "SELECT string_agg(statement, ' | ') FROM pg_prepared_statements");
        assertThat(Objects.toString(seen, "")).doesNotContain("another_keys_query");
        // a prepared statement a function made through dynamic SQL inside a failed call is gone too (PREPARE is not
        // transactional, the next message drops it)
        assertThat(failure(d, read("SELECT qag_fp_prepare(), " + FAIL)).error()).isEqualTo(DialectError.SYNTAX);
        assertThat(value(d, "SELECT count(*) FROM pg_prepared_statements WHERE from_sql")).isEqualTo(0L);
    }

    @Test
    void advisoryLocksAreHeldByTheIdleSessionUntilItsNextCall() throws Exception {
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        long pid = number(d, "SELECT pg_backend_pid()");
        run(d, read("SELECT pg_advisory_lock(21), pg_advisory_lock_shared(22), pg_try_advisory_lock(23)"));
        try (Connection admin = server.connect()) {
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = ?", pid))
                    .as("held between calls").isEqualTo(3);
            try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery("SELECT pg_try_advisory_lock(21)")) {
                r.next();
                assertThat(r.getBoolean(1)).as("another session cannot take it").isFalse();
            }
            number(d, "SELECT 1"); // the next call on the pooled session releases them
            assertThat(adminCount(admin, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = ?", pid))
                    .isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(value = AccessMode.class)
    void aCustomSettingLeavesItsPlaceholderDefined(AccessMode mode) throws Exception {
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        assertThat(value(d, "SELECT current_setting('qag.fp', true)")).as("undefined on a fresh session").isNull();
        String set = "SELECT set_config('qag.fp', 'secret', true)"; // even a transaction-local one
        run(d, mode == AccessMode.WRITE ? write(set) : read(set));
        assertThat(value(d, "SELECT current_setting('qag.fp', true)"))
                .as("the value is gone, the placeholder is not").isEqualTo("");
    }

    @Test
    void aTemporaryObjectLeavesTheTemporarySchemaAssigned() throws Exception {
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        assertThat(number(d, "SELECT pg_my_temp_schema()")).isZero();
        run(d, write("CREATE TEMP TABLE fp_tmp AS SELECT 1 AS x"));
        assertThat(number(d, "SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema()")).isZero();
        assertThat(number(d, "SELECT pg_my_temp_schema()")).as("no way back to 0").isNotZero();
        assertThat(text(d, "SELECT current_schemas(true)::text")).contains("pg_temp_");
    }

    // ------------------------------------------------------------------ the fingerprint

    /**
     * What the next caller of {@code d} sees of its session: ONE read call, so that nothing the call's own message
     * resets at commit is mistaken for state the earlier call did not leave. Probes that raise when the state is
     * absent ({@code lastval()}, {@code currval()}) go through {@code qag_fp_try}, which returns the error as text.
     */
    static Map<String, String> fingerprint(PostgresDialect d, AccessMode mode) {
        String[] probes = {
            "backend pid", "pg_backend_pid()",
            "settings", "(SELECT string_agg(name || '=' || setting || ' (' || source || ')', E'\\n' ORDER BY name)"
                    + " FROM pg_settings)",
            "transaction", "concat_ws(' | ', current_setting('transaction_isolation'),"
                    + " current_setting('transaction_read_only'), current_setting('transaction_deferrable'))",
            "identity", "concat_ws(' | ', current_user, session_user, current_setting('role'),"
                    + " current_setting('session_authorization'), current_setting('is_superuser'))",
            "placeholder qag.fp", "current_setting('qag.fp', true)",
            "advisory locks", "(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())",
            "temporary objects", "(SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema())"
                    + " + (SELECT count(*) FROM pg_proc WHERE pronamespace = pg_my_temp_schema())",
            "prepared statements (SQL)", "(SELECT string_agg(name, ',' ORDER BY name) FROM pg_prepared_statements"
                    + " WHERE from_sql)",
            "cursors", "(SELECT string_agg(name || ' holdable=' || is_holdable, ',' ORDER BY name) FROM pg_cursors)",
            "listen channels", "(SELECT string_agg(c, ',' ORDER BY c) FROM pg_listening_channels() c)",
            "lastval()", "qag_fp_try('SELECT lastval()')",
            "currval(seq)", "qag_fp_try('SELECT currval(''seq'')')",
            "current_schemas(false)", "current_schemas(false)",
            // not compared: tells only whether some earlier write created a temporary object (see the class comment)
            "temporary schema oid", "pg_my_temp_schema()::bigint",
        };
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 1; i < probes.length; i += 2) {
            select.append(i > 1 ? ", " : "").append('(').append(probes[i]).append(")::text");
        }
        List<Object> row = run(d, mode == AccessMode.WRITE ? write(select.toString()) : read(select.toString()))
                .rows().get(0);
        Map<String, String> f = new LinkedHashMap<>();
        for (int i = 0; i < probes.length; i += 2) {
            String value = Objects.toString(row.get(i / 2), "NULL");
            if (probes[i].equals("settings")) {
                for (String line : value.split("\n")) {
                    int eq = line.indexOf('=');
                    String name = line.substring(0, eq);
                    String setting = line.substring(eq + 1);
                    if (name.startsWith("transaction_")) {
                        // the source of transaction_read_only (and _isolation, _deferrable) records whether an
                        // earlier transaction of the session ran SET TRANSACTION, which every read does: the values
                        // are compared, the source is not
                        setting = setting.substring(0, setting.lastIndexOf(" ("));
                    }
                    f.put("setting " + name, setting);
                }
            } else {
                f.put(probes[i], value);
            }
        }
        return f;
    }

    /** The probes whose values differ, as {@code name: fresh -> after}; the pid and temporary schema aside. */
    static Map<String, String> differences(Map<String, String> fresh, Map<String, String> after) {
        Map<String, String> diff = new LinkedHashMap<>();
        TreeSet<String> names = new TreeSet<>(fresh.keySet());
        names.addAll(after.keySet());
        names.remove("backend pid");
        names.remove("temporary schema oid");
        for (String name : names) {
            if (name.startsWith("setting ") && fresh.get(name) == null && after.get(name).endsWith(" (default)")) {
                // a library an earlier call loaded (plpgsql, by calling a PL/pgSQL function) registers its settings
                // at their defaults: the session has the library, not a value anyone set
                continue;
            }
            if (!Objects.equals(fresh.get(name), after.get(name))) {
                diff.put(name, fresh.get(name) + " -> " + after.get(name));
            }
        }
        return diff;
    }

    private static long adminCount(Connection admin, String sql, long parameter) throws Exception {
        try (PreparedStatement s = admin.prepareStatement(sql)) {
            s.setLong(1, parameter);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
