package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.failure;
import static io.queryapigate.dialect.postgres.Calls.number;
import static io.queryapigate.dialect.postgres.Calls.read;
import static io.queryapigate.dialect.postgres.Calls.run;
import static io.queryapigate.dialect.postgres.Calls.text;
import static io.queryapigate.dialect.postgres.Calls.value;
import static io.queryapigate.dialect.postgres.Calls.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.testkit.CountingSocket.Counter;
import io.queryapigate.dialect.testkit.CountingSocket.Snapshot;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * ADR 0027's tests against the real server, each with a pool of one connection so that the next call reuses the
 * session (checked with {@code pg_backend_pid()}), in both query modes. The dialect is called directly: the
 * service's SQL guard is not in the picture, so what is refused here is refused by the server (or by the dialect's
 * own one-statement check).
 */
class PostgresSessionSafetyTest {

    private static final String SCHEMA = TestingPostgresServer.schemaName("safety");
    private static final String T = SCHEMA + ".t";
    private static TestingPostgresServer server;
    private PostgresDialect dialect;

    @BeforeAll
    static void createSchema() throws Exception {
        server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
    }

    @AfterAll
    static void dropSchema() throws Exception {
        server.dropSchema(SCHEMA);
    }

    @BeforeEach
    void createTable() throws Exception {
        server.run("DROP TABLE IF EXISTS " + T, "DROP TABLE IF EXISTS " + SCHEMA + ".escaped",
                "CREATE TABLE " + T + " (id int PRIMARY KEY, v text)", "INSERT INTO " + T + " VALUES (1, 'one')");
    }

    @AfterEach
    void closeDialect() {
        if (dialect != null) {
            dialect.close();
        }
    }

    private PostgresDialect dialect(QueryMode mode, String... urlParameters) {
        dialect = server.dialect(SCHEMA, 1, Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue()),
                urlParameters);
        return dialect;
    }

    private static long pid(PostgresDialect dialect) {
        return number(dialect, "SELECT pg_backend_pid()");
    }

    private static long rowsInT() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*) FROM " + T)) {
            r.next();
            return r.getLong(1);
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aWriteInsideAReadCallIsRefusedByTheServer(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        server.run("CREATE SEQUENCE IF NOT EXISTS " + SCHEMA + ".seq");
        for (String sql : List.of(
                "INSERT INTO t VALUES (2, 'two')",
                "UPDATE t SET v = 'changed'",
                "DELETE FROM t",
                "CREATE TABLE escaped (i int)",
                "CREATE TEMP TABLE escaped (i int)",
                "SELECT * INTO TEMP escaped FROM t",
                "WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone",
                "SELECT nextval('seq')",
                "TRUNCATE t")) {
            DialectException e = failure(d, read(sql));
            assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(e.sqlState()).isEqualTo("25006");
        }
        DialectException lift = failure(d, read("SELECT set_config('transaction_read_only', 'off', true)"));
        assertThat(lift.sqlState()).as(lift.getMessage()).isEqualTo("25001");
        assertThat(lift.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(rowsInT()).isEqualTo(1);
        assertThat(text(d, "SELECT v FROM t")).isEqualTo("one");
        assertThat(pid(d)).as("one session all along").isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void turningOffTheSessionDefaultDoesNotMakeTheNextCallWritable(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        assertThat(text(d, "SELECT set_config('default_transaction_read_only', 'off', false)")).isEqualTo("off");
        DialectException e = failure(d, read("INSERT INTO t VALUES (2, 'two')"));
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        // the same with the session turned read-write explicitly, through set_config of the transaction default
        assertThat(text(d, "SELECT set_config('default_transaction_read_only', 'on', false)")).isEqualTo("on");
        assertThat(text(d, "SELECT current_setting('default_transaction_read_only')")).isEqualTo("off");
        assertThat(rowsInT()).isEqualTo(1);
        assertThat(pid(d)).isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void settingsAQueryChangesAreBackToTheDefaultsInTheNextCall(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        String defaults = "SELECT concat_ws(' | ', current_setting('search_path'), current_setting('TimeZone'),"
                + " current_user, session_user, current_setting('statement_timeout'),"
                + " current_setting('default_transaction_read_only'), current_setting('application_name'),"
                + " current_setting('DateStyle'), current_setting('IntervalStyle'), current_setting('work_mem'))";
        String before = text(d, defaults);
        long pid = pid(d);
        run(d, read("SELECT set_config('search_path', 'pg_catalog', false), set_config('TimeZone', 'Asia/Tokyo', false),"
                + " set_config('role', 'pg_monitor', false), set_config('statement_timeout', '5', false),"
                + " set_config('default_transaction_read_only', 'off', false), set_config('application_name', 'x', false),"
                + " set_config('IntervalStyle', 'sql_standard', false), set_config('work_mem', '64kB', false)"));
        assertThat(text(d, defaults)).isEqualTo(before);
        assertThat(before).startsWith(SCHEMA + " | ").contains(" | 30s | off | queryapigate | ISO, MDY | postgres | ");
        // session_authorization needs a superuser, which the test user is (a gateway's user should not be)
        run(d, read("SELECT set_config('session_authorization', 'pg_monitor', false)"));
        assertThat(text(d, defaults)).isEqualTo(before);
        assertThat(pid(d)).isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aDateStyleChangeIsUndoneBeforePgjdbcHearsOfIt(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        // pgjdbc needs DateStyle ISO: when the server reports another one it closes the connection (08006). The
        // server reports a changed setting when the transaction ends (PostgreSQL 14+), and by then the RESET ALL at
        // the end of the message has put it back: nothing is reported, the call succeeds, the session is kept
        assertThat(text(d, "SELECT set_config('DateStyle', 'SQL, DMY', false)")).isEqualTo("SQL, DMY");
        assertThat(text(d, "SELECT current_setting('DateStyle')")).isEqualTo("ISO, MDY");
        assertThat(pid(d)).as("the same session").isEqualTo(pid);
        assertThat(text(d, "SELECT set_config('DateStyle', 'SQL, DMY', true)")).isEqualTo("SQL, DMY");
        assertThat(text(d, "SELECT current_setting('DateStyle')")).isEqualTo("ISO, MDY");
        // a write too, and a change followed by a failure (rolled back)
        assertThat(run(d, write("SELECT set_config('DateStyle', 'SQL, DMY', false)")).singleValue()).isEqualTo("SQL, DMY");
        assertThat(failure(d, read("SELECT set_config('DateStyle', 'SQL, DMY', false), 1 / (random() * 0)::int"))
                .error()).isEqualTo(DialectError.SYNTAX);
        assertThat(text(d, "SELECT current_setting('DateStyle')")).isEqualTo("ISO, MDY");
        assertThat(pid(d)).isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void theTimeLimitIsEnforcedAndDoesNotLeakIntoTheNextCall(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        long start = System.nanoTime();
        DialectException e = failure(d, read("SELECT pg_sleep(2)").withTimeout(Duration.ofMillis(200)));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(e.sqlState()).isEqualTo("57014");
        assertThat(e.getMessage()).contains("statement timeout");
        assertThat(millis).isBetween(150L, 1_500L);

        assertThat(text(d, "SELECT current_setting('statement_timeout')")).isEqualTo("30s");
        RecordingSink slower = run(d, read("SELECT 'done' FROM pg_sleep(0.5)"));
        assertThat(slower.singleValue()).isEqualTo("done");
        assertThat(pid(d)).as("the server's timeout leaves the session usable").isEqualTo(pid);
        // nor does a limit a query sets for the session outlive its call
        run(d, read("SELECT set_config('statement_timeout', '100', false)"));
        assertThat(run(d, read("SELECT 'ok' FROM pg_sleep(0.3)")).singleValue()).isEqualTo("ok");
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void consecutiveCallsSeeEachOthersCommittedWrites(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        assertThat(number(d, "SELECT count(*) FROM t")).isEqualTo(1);
        try (Connection other = server.connect(); Statement s = other.createStatement()) {
            s.execute("INSERT INTO " + T + " VALUES (2, 'two')");
            assertThat(number(d, "SELECT count(*) FROM t")).isEqualTo(2);
            s.execute("UPDATE " + T + " SET v = 'uno' WHERE id = 1");
            assertThat(text(d, "SELECT v FROM t WHERE id = 1")).isEqualTo("uno");
        }
        // and the dialect's own writes are committed when the call returns
        RecordingSink inserted = run(d, write("INSERT INTO t VALUES (?, ?) RETURNING id",
                new Parameter("id", 3L, JDBCType.BIGINT), new Parameter("v", "three", JDBCType.VARCHAR)));
        assertThat(inserted.singleValue()).isEqualTo(3);
        assertThat(rowsInT()).isEqualTo(3);
        assertThat(number(d, "SELECT count(*) FROM t")).isEqualTo(3);
        assertThat(pid(d)).isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void smuggledSecondStatementsAreRefusedBeforeAnythingIsSent(QueryMode mode) throws Exception {
        String tag = "safety-escape-" + mode;
        PostgresDialect d = dialect(mode, PgCountingSocketFactory.urlParameters(tag));
        pid(d);
        Counter wire = PgCountingSocketFactory.sessions(tag).get(0);
        for (String sql : List.of(
                "SELECT 1; COMMIT; CREATE TABLE escaped (i int)",
                "COMMIT; CREATE TABLE escaped (i int)",
                "SET TRANSACTION READ WRITE; CREATE TABLE escaped (i int)",
                "SELECT 1; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                "SELECT 'x' /* ; */; COMMIT; CREATE TABLE escaped (i int)",
                "SELECT 1;\nCOMMIT")) {
            Snapshot before = wire.snapshot();
            DialectException e = failure(d, read(sql));
            assertThat(e.error()).as(sql).isEqualTo(DialectError.SYNTAX);
            assertThat(e.getMessage()).contains("exactly one statement").contains("nothing was sent");
            assertThat(wire.snapshot().minus(before).bytesOut()).as("bytes sent for " + sql).isZero();
            DialectException asWrite = failure(d, write(sql));
            assertThat(asWrite.error()).isEqualTo(DialectError.SYNTAX);
        }
        assertThat(value(d, "SELECT to_regclass('escaped')")).isNull();
        // single statements that merely contain semicolons go through, as one round trip each
        for (String sql : List.of("SELECT ';' AS s", "SELECT $$;COMMIT;$$", "SELECT 1 -- ; COMMIT", "SELECT 'a''; COMMIT'")) {
            Snapshot before = wire.snapshot();
            run(d, read(sql));
            assertThat(wire.snapshot().minus(before).roundTrips()).as(sql).isEqualTo(1);
        }
    }

    @Test
    void withoutTheOneStatementCheckBothEscapesWouldSucceed() throws Exception {
        // what test-servers.md measured, reproduced on pgjdbc: the prelude's read-only transaction is ended
        // (COMMIT) or flipped before its first query (SET TRANSACTION READ WRITE) by a smuggled statement
        for (String escape : List.of("COMMIT", "SET TRANSACTION READ WRITE")) {
            server.run("DROP TABLE IF EXISTS " + SCHEMA + ".escaped");
            try (Connection c = server.connect(); Statement s = c.createStatement()) {
                s.execute("RESET ALL; SET TRANSACTION READ ONLY; SET LOCAL statement_timeout = 1000; " + escape
                        + "; CREATE TABLE " + SCHEMA + ".escaped (i int)");
            }
            try (Connection c = server.connect(); Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT to_regclass('" + SCHEMA + ".escaped') IS NOT NULL")) {
                r.next();
                assertThat(r.getBoolean(1)).as(escape).isTrue();
            }
            assertThat(PostgresStatements.count(escape + "; CREATE TABLE escaped (i int)")).isEqualTo(2);
        }
    }

    @Test
    void pgjdbcsBeginAtomicQuirkIsRefusedEitherWay() throws Exception {
        String sql = "CREATE FUNCTION qag_f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; COMMIT";
        assertThat(PostgresStatements.count(sql)).as("pgjdbc sees one statement").isEqualTo(1);
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        // pgjdbc would swallow the statements the dialect sends after the user's (a read's UNLISTEN *, a write's
        // DISCARD TEMP), which the dialect's count notices; nothing is sent. (Sent as one Parse, the server would
        // refuse it anyway: cannot insert multiple commands into a prepared statement.)
        DialectException asRead = failure(d, read(sql));
        assertThat(asRead.getMessage()).contains("exactly one statement");
        assertThat(asRead.error()).isEqualTo(DialectError.SYNTAX);
        DialectException asWrite = failure(d, write(sql));
        assertThat(asWrite.getMessage()).contains("exactly one statement");
        assertThat(asWrite.error()).isEqualTo(DialectError.SYNTAX);
        assertThat(value(d, "SELECT to_regproc('qag_f')")).isNull();
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void temporaryTablesDoNotOutliveTheWriteThatCreatedThem(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        // a temporary table named like a real one would shadow it for every later call on the session
        RecordingSink created = run(d, write("CREATE TEMP TABLE t AS SELECT 99 AS id, 'fake'::text AS v"));
        assertThat(created.rows()).isEmpty();
        assertThat(text(d, "SELECT v FROM t")).isEqualTo("one");
        assertThat(value(d, "SELECT to_regclass('pg_temp.t')")).isNull();
        assertThat(pid(d)).isEqualTo(pid);
        // RESET ALL alone would have kept it: the same sequence on a plain connection
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("RESET ALL; CREATE TEMP TABLE t AS SELECT 99 AS id");
            s.execute("RESET ALL");
            try (ResultSet r = s.executeQuery("SELECT to_regclass('pg_temp.t') IS NOT NULL")) {
                r.next();
                assertThat(r.getBoolean(1)).isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void sessionAdvisoryLocksAreReleasedByTheNextCall(QueryMode mode) throws Exception {
        PostgresDialect d = dialect(mode);
        long pid = pid(d);
        String held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()";
        run(d, read("SELECT pg_advisory_lock(4242), pg_advisory_lock(4243)"));
        try (Connection other = server.connect(); Statement s = other.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT pg_try_advisory_lock(4242)")) {
                r.next();
                assertThat(r.getBoolean(1)).as("held by the idle pooled session").isFalse();
            }
            assertThat(number(d, held)).isZero();
            try (ResultSet r = s.executeQuery("SELECT pg_try_advisory_lock(4242), pg_advisory_unlock(4242)")) {
                r.next();
                assertThat(r.getBoolean(1)).as("released once the next call ran").isTrue();
            }
        }
        // a lock taken by a call that then fails is released too (session locks survive the rollback)
        DialectException e = failure(d, read("SELECT pg_advisory_lock(4244), 1 / 0"));
        assertThat(e.error()).isEqualTo(DialectError.SYNTAX);
        assertThat(number(d, held)).isZero();
        assertThat(pid(d)).isEqualTo(pid);
    }

    @Test
    void statementsOtherThanASelectLeaveNothingForTheNextCall() throws Exception {
        // the service's guard admits only a single SELECT for reads, and none of these is one. The dialect alone
        // lets them through in a read-only call, but nothing they leave reaches the next call: DEALLOCATE ALL at its
        // start, UNLISTEN * and CLOSE ALL at the end of their own (PostgresSessionFingerprintTest has the full list)
        PostgresDialect d = dialect(QueryMode.EXTENDED);
        run(d, read("PREPARE qag_prepared AS SELECT 1"));
        assertThat(number(d, "SELECT count(*) FROM pg_prepared_statements WHERE name = 'qag_prepared'")).isZero();
        run(d, read("LISTEN qag_channel"));
        assertThat(number(d, "SELECT count(*) FROM pg_listening_channels()")).isZero();
        run(d, read("DECLARE qag_held CURSOR WITH HOLD FOR SELECT 1"));
        assertThat(number(d, "SELECT count(*) FROM pg_cursors WHERE name = 'qag_held'")).isZero();
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aPinnedSchemaAppliesToItsCallOnly(QueryMode mode) throws Exception {
        String other = SCHEMA + "_b";
        server.run("DROP SCHEMA IF EXISTS " + other + " CASCADE", "CREATE SCHEMA " + other,
                "CREATE TABLE " + other + ".t (id int, v text)", "INSERT INTO " + other + ".t VALUES (1, 'b')");
        try {
            PostgresDialect d = dialect(mode);
            RecordingSink pinned = new RecordingSink();
            d.execute(read("SELECT v, current_setting('search_path') FROM t"), pinned, other);
            assertThat(pinned.rows().get(0)).containsExactly("b", other + ", pg_temp");
            assertThat(text(d, "SELECT v FROM t")).isEqualTo("one");
            RecordingSink missing = new RecordingSink();
            d.execute(read("SELECT current_schemas(false)::text"), missing, "no_such_schema");
            // a schema that does not exist is skipped: no schema at all but (possibly) the temporary one
            assertThat((String) missing.singleValue()).matches("\\{(pg_temp_\\d+)?\\}");
        } finally {
            server.dropSchema(other);
        }
    }
}
