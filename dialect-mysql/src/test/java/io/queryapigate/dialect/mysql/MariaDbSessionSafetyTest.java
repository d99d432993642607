package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session safety on the real MariaDB, with a pool of one connection so that every call reuses the session the
 * previous call left behind. The SQL guard is bypassed on purpose: these calls reach the dialect directly.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MariaDbSessionSafetyTest {
    static final String DB = "qag_my_session";
    private MySqlDialect dialect;

    @BeforeAll
    static void createDatabase() throws Exception {
        TestingMariaDb.recreateDatabase(DB);
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c,
                    "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(100)) ENGINE=InnoDB",
                    "INSERT INTO t VALUES (1, 'one'), (2, 'two')",
                    // the attacks: functions a SELECT can call, that change the session for later calls
                    "CREATE FUNCTION qag_my_flip() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION TRANSACTION READ WRITE; RETURN 1; END",
                    "CREATE FUNCTION qag_my_flip_var() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION tx_read_only = 0; RETURN 1; END",
                    "CREATE FUNCTION qag_my_no_limit() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION max_statement_time = 0; RETURN 1; END",
                    "CREATE FUNCTION qag_my_tz() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION time_zone = '+09:00'; SET SESSION sql_select_limit = 1; RETURN 1; END",
                    "CREATE FUNCTION qag_my_nbe() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION sql_mode = 'NO_BACKSLASH_ESCAPES'; RETURN 1; END");
        }
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        TestingMariaDb.dropDatabase(DB);
    }

    @BeforeEach
    void open() {
        dialect = TestingMariaDb.dialect(DB, "", Map.of(), 1);
    }

    @AfterEach
    void close() throws Exception {
        dialect.close();
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "DELETE FROM t WHERE id > 2", "DROP TABLE IF EXISTS qag_my_evil");
        }
    }

    static QueryRequest read(String sql, Parameter... parameters) {
        return QueryRequest.read(sql, List.of(parameters), Duration.ofSeconds(30), 10_000);
    }

    static RecordingSink run(MySqlDialect d, QueryRequest request) {
        RecordingSink sink = new RecordingSink();
        d.execute(request, sink);
        return sink;
    }

    static Object value(MySqlDialect d, String sql) {
        return run(d, read(sql)).singleValue();
    }

    static DialectException failure(MySqlDialect d, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> d.execute(request, new RecordingSink()));
        assertThat(e).as("expected %s to fail", request.sql()).isNotNull();
        return e;
    }

    private long connectionId() {
        return ((Number) value(dialect, "SELECT CONNECTION_ID()")).longValue();
    }

    private long rowsInT() throws Exception {
        try (Connection c = TestingMariaDb.admin(DB)) {
            return Long.parseLong(TestingMariaDb.query(c, "SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void aWriteInAReadCallIsRefusedByTheServerAndTheSessionIsKept() throws Exception {
        long id = connectionId();
        for (String write : List.of("INSERT INTO t VALUES (3, 'x')", "UPDATE t SET name = 'y'", "DELETE FROM t")) {
            DialectException e = failure(dialect, read(write));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(e.sqlState()).isEqualTo("25006");
        }
        assertThat(rowsInT()).isEqualTo(2);
        assertThat(connectionId()).as("a refused write leaves the session reusable").isEqualTo(id);
    }

    @Test
    void aStoredFunctionCannotMakeTheNextCallWritable() throws Exception {
        long id = connectionId();
        for (String flip : List.of("SELECT qag_my_flip()", "SELECT qag_my_flip_var()")) {
            assertThat(value(dialect, flip)).isEqualTo(1);
            // the session default is back to read-only after the statement (SET STATEMENT restored it) ...
            DialectException e = failure(dialect, read("INSERT INTO t VALUES (3, 'after flip')"));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            // ... and so is DDL, whose implicit commit ends the transaction before the read-only check
            DialectException ddl = failure(dialect, read("CREATE TABLE qag_my_evil (x INT)"));
            assertThat(ddl.error()).as(ddl.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            DialectException insertAfterDdl = failure(dialect, read("INSERT INTO t VALUES (4, 'after ddl')"));
            assertThat(insertAfterDdl.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        }
        assertThat(rowsInT()).isEqualTo(2);
        try (Connection c = TestingMariaDb.admin(DB)) {
            assertThat(TestingMariaDb.query(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                    + DB + "' AND table_name = 'qag_my_evil'")).isEqualTo("0");
        }
        // the refused DDL's implicit commit ended a transaction, but ROLLBACK AND CHAIN started a read-only one
        // again (the session default was pinned): the status flags said so, and the session was kept
        assertThat(connectionId()).isEqualTo(id);
        assertThat(value(dialect, "SELECT @@session.tx_read_only").toString()).isIn("1", "true");
    }

    /**
     * The control: the same attack on a connection that relies on the chain alone, without the statement-level
     * pin, gets its DDL through. This is why the dialect pins the read-only default in every statement.
     */
    @Test
    void withoutThePinTheFlipPlusDdlGetsThrough() throws Exception {
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY",
                    "SELECT qag_my_flip()", "ROLLBACK AND CHAIN");
            TestingMariaDb.exec(c, "CREATE TABLE qag_my_evil (x INT)");
            assertThat(TestingMariaDb.query(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                    + DB + "' AND table_name = 'qag_my_evil'")).isEqualTo("1");
        }
    }

    @Test
    void aFunctionThatLiftsTheTimeLimitDoesNotLiftTheNextCallsLimit() {
        long id = connectionId();
        assertThat(value(dialect, "SELECT qag_my_no_limit()")).isEqualTo(1);
        long start = System.nanoTime();
        DialectException e = failure(dialect, read("SELECT SLEEP(2)").withTimeout(Duration.ofMillis(300)));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(ms).isBetween(250L, 1_200L);
        assertThat(connectionId()).as("the server's own limit stopped it: no kill, the session is kept").isEqualTo(id);
    }

    @Test
    void theTimeLimitIsEnforcedAndDoesNotLeak() {
        long start = System.nanoTime();
        DialectException e = failure(dialect, read("SELECT SLEEP(2)").withTimeout(Duration.ofMillis(300)));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(e.sqlState()).isEqualTo("70100");
        assertThat(ms).isBetween(250L, 1_200L);
        // the next call runs with its own, longer limit: a 0.5 s sleep completes
        assertThat(value(dialect, "SELECT SLEEP(0.5)")).isIn(0, 0L);
        // inside a call, the limit in force is that call's own (30 s here, less the wait for the pool's only
        // connection, whose previous release may still be travelling), pinned per statement
        assertThat(Double.parseDouble(value(dialect, "SELECT @@session.max_statement_time").toString()))
                .isBetween(29.0, 30.0);
    }

    @Test
    void sessionSettingsAFunctionChangesDoNotReachTheNextCall() {
        long id = connectionId();
        assertThat(value(dialect, "SELECT @@session.time_zone")).isEqualTo("SYSTEM");
        assertThat(value(dialect, "SELECT qag_my_tz()")).isEqualTo(1);
        assertThat(value(dialect, "SELECT @@session.time_zone")).isEqualTo("SYSTEM");
        assertThat(run(dialect, read("SELECT id FROM t ORDER BY id")).rows()).as("sql_select_limit restored").hasSize(2);
        // a SET that got past the guard is undone at the statement's end too
        run(dialect, read("SET time_zone = '+05:00'"));
        assertThat(value(dialect, "SELECT @@session.time_zone")).isEqualTo("SYSTEM");
        assertThat(connectionId()).isEqualTo(id);
    }

    @Test
    void aFunctionThatTurnsOffBackslashEscapesCannotTurnParametersIntoSql() {
        String tricky = "a\\' OR 1=1 -- ";
        // default mode: SET STATEMENT pins sql_mode as read at open, so the change ends with the statement
        long id = connectionId();
        assertThat(value(dialect, "SELECT qag_my_nbe()")).isEqualTo(1);
        assertThat(value(dialect, "SELECT @@session.sql_mode").toString()).doesNotContain("NO_BACKSLASH_ESCAPES");
        assertThat(connectionId()).isEqualTo(id);
        assertEchoed(dialect, tricky);
        // session mode pins nothing: the mode sticks, the status flags show it, and the connection is closed
        // (Connector/J escapes parameters by the sql_mode it read at connect, so reusing it would be unsafe)
        try (MySqlDialect session = TestingMariaDb.dialect(DB, "", Map.of("mysql.time_limit_mode", "session"), 1)) {
            long before = ((Number) value(session, "SELECT CONNECTION_ID()")).longValue();
            assertThat(value(session, "SELECT qag_my_nbe()")).isEqualTo(1);
            assertThat(((Number) value(session, "SELECT CONNECTION_ID()")).longValue()).isNotEqualTo(before);
            assertThat(value(session, "SELECT @@session.sql_mode").toString()).doesNotContain("NO_BACKSLASH_ESCAPES");
            assertEchoed(session, tricky);
        }
    }

    /**
     * The guard lexes MySQL-family SQL with backslash escapes and {@code "..."} as strings. A session whose sql_mode
     * has ANSI_QUOTES or NO_BACKSLASH_ESCAPES (from the server's default, or, as here, from Connector/J's
     * sessionVariables at connect) would read the same text differently: the dialect takes them out at open.
     */
    @Test
    void aSqlModeThatChangesHowTextIsLexedIsTakenOutAtOpen() throws Exception {
        for (String modes : List.of("ANSI_QUOTES,NO_BACKSLASH_ESCAPES", "ANSI,NO_BACKSLASH_ESCAPES", "ORACLE")) {
            String extra = "sessionVariables=sql_mode='" + modes + "'";
            // the premise: Connector/J applies it at connect, and the server then reads "a" as a column
            java.util.Properties p = new java.util.Properties();
            p.setProperty("user", TestingMariaDb.user());
            p.setProperty("password", TestingMariaDb.password());
            try (Connection plain = java.sql.DriverManager.getConnection(TestingMariaDb.url(DB, extra), p)) {
                assertThat(TestingMariaDb.query(plain, "SELECT @@session.sql_mode")).contains("ANSI_QUOTES");
                java.sql.SQLException column = catchThrowableOfType(java.sql.SQLException.class,
                        () -> TestingMariaDb.query(plain, "SELECT \"a\""));
                assertThat((Throwable) column).as(modes).isNotNull();
            }
            for (Map<String, String> properties : List.of(Map.<String, String>of(),
                    Map.of("mysql.time_limit_mode", "session"))) {
                try (MySqlDialect d = TestingMariaDb.dialect(DB, extra, properties, 1)) {
                    for (AccessMode mode : AccessMode.values()) {
                        QueryRequest quoted = read("SELECT \"a\"");
                        QueryRequest escaped = read("SELECT 'a\\'b'");
                        QueryRequest sqlMode = read("SELECT @@session.sql_mode");
                        if (mode == AccessMode.WRITE) {
                            quoted = quoted.withMode(mode);
                            escaped = escaped.withMode(mode);
                            sqlMode = sqlMode.withMode(mode);
                        }
                        assertThat(run(d, quoted).singleValue()).as(modes + " " + properties).isEqualTo("a");
                        assertThat(run(d, escaped).singleValue()).isEqualTo("a'b");
                        assertThat(run(d, sqlMode).singleValue().toString())
                                .doesNotContain("ANSI_QUOTES").doesNotContain("NO_BACKSLASH_ESCAPES")
                                .doesNotContain("ANSI").doesNotContain("ORACLE");
                    }
                    assertEchoed(d, "a\\' OR 1=1 -- ");
                    assertThat(d.sessionStrategy().plan(read("SELECT 1")).statement()).doesNotContain("ANSI_QUOTES");
                }
            }
        }
    }

    private static void assertEchoed(MySqlDialect d, String tricky) {
        RecordingSink echo = run(d, read("SELECT ? AS v, (SELECT COUNT(*) FROM t WHERE name = ?) AS n",
                new Parameter("v", tricky, JDBCType.VARCHAR), new Parameter("n", tricky, JDBCType.VARCHAR)));
        assertThat(echo.rows().get(0)).containsExactly(tricky, 0L);
    }

    /**
     * A statement that begins with SET STATEMENT would be nested in the dialect's own, and override its pins for that
     * statement (the control below): the dialect refuses it before sending anything, reads and writes alike.
     */
    @Test
    void aStatementThatWouldOverrideTheDialectsPinsIsRefused() throws Exception {
        for (AccessMode mode : AccessMode.values()) {
            for (String sql : List.of(
                    "SET STATEMENT tx_read_only=0 FOR CREATE TABLE qag_my_evil (x INT)",
                    "  /* x */ set statement max_statement_time=0 FOR SELECT SLEEP(0)",
                    "/*!SET STATEMENT tx_read_only=0 FOR */ CREATE TABLE qag_my_evil (x INT)",
                    "/*M!100000 SET STATEMENT tx_read_only=0 FOR */ CREATE TABLE qag_my_evil (x INT)")) {
                DialectException e = failure(dialect, read(sql).withMode(mode));
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.SYNTAX);
                assertThat(e.getMessage()).contains("SET STATEMENT").contains("nothing was sent");
            }
            // SET STATEMENT further in is the server's business (a syntax error there); in a string it is text
            assertThat(failure(dialect, read("SELECT 1 FOR SET STATEMENT").withMode(mode)).error())
                    .isEqualTo(DialectError.SYNTAX);
            RecordingSink text = new RecordingSink();
            dialect.execute(read("SELECT 'SET STATEMENT x=1 FOR'").withMode(mode), text);
            assertThat(text.singleValue()).isEqualTo("SET STATEMENT x=1 FOR");
        }
        try (Connection c = TestingMariaDb.admin(DB)) {
            assertThat(TestingMariaDb.query(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                    + DB + "' AND table_name = 'qag_my_evil'")).isEqualTo("0");
        }
    }

    /**
     * The control for the refusal above, on a bare connection set up like a pooled read connection: the user's
     * SET STATEMENT, nested in the dialect's, lifts the read-only pin for its statement, and the DDL's implicit
     * commit runs read-write. (The same with max_statement_time=0 lifts the time limit.)
     */
    @Test
    void withoutTheRefusalANestedSetStatementLiftsTheReadOnlyPin() throws Exception {
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY",
                    "SET STATEMENT max_statement_time=30, tx_read_only=1 FOR"
                            + " SET STATEMENT tx_read_only=0 FOR CREATE TABLE qag_my_evil (x INT)");
            assertThat(TestingMariaDb.query(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"
                    + DB + "' AND table_name = 'qag_my_evil'")).isEqualTo("1");
        }
    }

    @Test
    void aUseIsRefusedBeforeAnythingIsSent() throws Exception {
        for (AccessMode mode : AccessMode.values()) {
            DialectException e = failure(dialect, read("USE test").withMode(mode));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.SYNTAX);
            assertThat(e.getMessage()).contains("USE").contains("nothing was sent");
            RecordingSink db = new RecordingSink();
            dialect.execute(read("SELECT DATABASE()").withMode(mode), db);
            assertThat(db.singleValue()).isEqualTo(DB);
        }
        // the control: sent as the dialect would send it, a USE changes the database for the rest of the session
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY",
                    "SET STATEMENT max_statement_time=30, tx_read_only=1 FOR USE test", "ROLLBACK AND CHAIN");
            assertThat(TestingMariaDb.query(c, "SELECT DATABASE()")).isEqualTo("test");
        }
    }

    @Test
    void aCommitSentAsAReadEndsNothingThatMatters() throws Exception {
        long id = connectionId();
        run(dialect, read("COMMIT"));
        assertThat(connectionId()).as("the chain was broken: the connection was closed").isNotEqualTo(id);
        DialectException e = failure(dialect, read("INSERT INTO t VALUES (3, 'x')"));
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(rowsInT()).isEqualTo(2);
    }

    @Test
    void aCommittedWriteFromElsewhereIsVisibleToTheNextCall() throws Exception {
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(2L);
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "INSERT INTO t VALUES (3, 'three')");
        }
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(3L);
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "UPDATE t SET name = 'THREE' WHERE id = 3");
        }
        assertThat(value(dialect, "SELECT name FROM t WHERE id = 3")).isEqualTo("THREE");
    }

    @Test
    void anIdlePooledConnectionDoesNotBlockDdl() throws Exception {
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(2L);
        // the pooled connection now idles inside its chained read-only transaction
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "SET SESSION lock_wait_timeout = 5");
            long start = System.nanoTime();
            TestingMariaDb.exec(c, "ALTER TABLE t ADD COLUMN extra INT", "ALTER TABLE t DROP COLUMN extra");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(ms).as("two ALTER TABLEs while the pool holds its idle transaction").isLessThan(1_000L);
        }
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(2L);
    }

    @Test
    void cancellingFromAnotherThreadStopsTheStatementAndClosesItsConnection() throws Exception {
        long id = connectionId();
        RecordingSink sink = new RecordingSink();
        Thread canceller = sink.cancelAfter(java.time.Duration.ofMillis(200));
        long start = System.nanoTime();
        DialectException e = catchThrowableOfType(DialectException.class,
                () -> dialect.execute(read("SELECT SLEEP(10)"), sink));
        long ms = (System.nanoTime() - start) / 1_000_000;
        canceller.join(5_000);
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.CANCELLED);
        assertThat(ms).isLessThan(2_000L);
        assertThat(sink.rows()).as("SLEEP returns 1 when killed; that row must not be delivered").isEmpty();
        assertThat(connectionId()).as("a killed session is closed, never reused").isNotEqualTo(id);
    }

    @Test
    void rowLimitsAndEarlyStopsOnLargeResults() {
        QueryStats small = dialect.execute(QueryRequest.read("SELECT seq FROM seq_1_to_20000", List.of(),
                Duration.ofSeconds(30), 100), new RecordingSink());
        assertThat(small).isEqualTo(new QueryStats(100, -1, true));
        long id = connectionId();
        assertThat(id).isPositive();
        // ten million pending rows: skipping them would take seconds, so the rest is killed
        long start = System.nanoTime();
        RecordingSink ten = new RecordingSink(10);
        QueryStats big = dialect.execute(QueryRequest.read("SELECT seq FROM seq_1_to_10000000", List.of(),
                Duration.ofSeconds(30), 1_000_000), ten);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(big.rows()).isEqualTo(10);
        assertThat(ten.rows()).hasSize(10);
        assertThat(ms).isLessThan(5_000L);
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(2L);
    }

    @Test
    void writesCommitAndChain() throws Exception {
        QueryRequest insert = read("INSERT INTO t VALUES (?, ?)", new Parameter("id", 10L, JDBCType.BIGINT),
                new Parameter("name", "ten", JDBCType.VARCHAR)).withMode(AccessMode.WRITE);
        QueryStats stats = dialect.execute(insert, new RecordingSink());
        assertThat(stats).isEqualTo(new QueryStats(0, 1, false));
        assertThat(rowsInT()).as("committed: visible elsewhere").isEqualTo(3);
        DialectException dup = failure(dialect, insert);
        assertThat(dup.error()).as(dup.getMessage()).isEqualTo(DialectError.CONSTRAINT);
        assertThat(dialect.execute(read("UPDATE t SET name = 'TEN' WHERE id = 10").withMode(AccessMode.WRITE),
                new RecordingSink()).updateCount()).isEqualTo(1);
        DialectException slow = failure(dialect,
                read("UPDATE t SET name = SLEEP(2) WHERE id = 10").withMode(AccessMode.WRITE)
                        .withTimeout(Duration.ofMillis(300)));
        assertThat(slow.error()).as(slow.getMessage()).isEqualTo(DialectError.TIMEOUT);
        try (Connection c = TestingMariaDb.admin(DB)) {
            assertThat(TestingMariaDb.query(c, "SELECT name FROM t WHERE id = 10")).isEqualTo("TEN");
        }
        // reads still run read-only on their own pool
        assertThat(failure(dialect, read("DELETE FROM t")).error()).isEqualTo(DialectError.NOT_READ_ONLY);
        RecordingSink returning = run(dialect, read("DELETE FROM t WHERE id = 10 RETURNING id, name")
                .withMode(AccessMode.WRITE));
        assertThat(returning.rows()).containsExactly(List.of(10, "TEN"));
        assertThat(rowsInT()).isEqualTo(2);
    }

    @Test
    void aSecondStatementInOneCallIsRefusedByTheServer() throws Exception {
        for (String twoStatements : List.of("SELECT 1; INSERT INTO t VALUES (3, 'smuggled')",
                "SELECT 1; SET SESSION TRANSACTION READ WRITE")) {
            DialectException e = failure(dialect, read(twoStatements));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.SYNTAX);
        }
        assertThat(rowsInT()).isEqualTo(2);
        assertThat(failure(dialect, read("INSERT INTO t VALUES (3, 'x')")).error()).isEqualTo(DialectError.NOT_READ_ONLY);
    }

    @Test
    void streamingReadsDeliverEveryRowInOrder() {
        RecordingSink sink = new RecordingSink();
        QueryRequest request = new QueryRequest("SELECT seq FROM seq_1_to_200000 WHERE seq > ?",
                List.of(new Parameter("from", 100L, JDBCType.BIGINT)), AccessMode.READ, Duration.ofSeconds(30),
                1_000_000, true, "streaming-test");
        QueryStats stats = dialect.execute(request, sink);
        assertThat(stats).isEqualTo(new QueryStats(199_900, -1, false));
        assertThat(sink.rows().get(0).get(0)).isEqualTo(101L);
        assertThat(sink.rows().get(199_899).get(0)).isEqualTo(200_000L);
        assertThat(value(dialect, "SELECT COUNT(*) FROM t")).isEqualTo(2L);
    }

    @Test
    void theSessionModeAlsoHoldsTheLine() {
        try (MySqlDialect session = TestingMariaDb.dialect(DB, "", Map.of("mysql.time_limit_mode", "session"), 1)) {
            assertThat(value(session, "SELECT qag_my_flip()")).isEqualTo(1);
            assertThat(failure(session, read("INSERT INTO t VALUES (3, 'x')")).error())
                    .isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(value(session, "SELECT qag_my_no_limit()")).isEqualTo(1);
            assertThat(failure(session, read("SELECT SLEEP(2)").withTimeout(Duration.ofMillis(300))).error())
                    .isEqualTo(DialectError.TIMEOUT);
            assertThat(failure(session, read("CREATE TABLE qag_my_evil (x INT)")).error())
                    .isEqualTo(DialectError.NOT_READ_ONLY);
        }
    }

    @Test
    void theDetectedServerAndItsPlan() {
        connectionId();
        assertThat(dialect.server().flavor()).isEqualTo(ServerInfo.Flavor.MARIADB);
        assertThat(dialect.sessionStrategy().plan(read("SELECT 1")).statement())
                .startsWith("SET STATEMENT max_statement_time=30.000, tx_read_only=1, time_zone='SYSTEM', sql_mode=")
                .endsWith(" FOR SELECT 1");
    }
}
