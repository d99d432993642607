package com.example.qag.derby;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Derby itself refuses on the dialect's read sessions, what it does not (and what the dialect does about it),
 * and attacks through the dialect on a pool of one session.
 */
class DerbySecurityTest {

    @TempDir
    Path home;

    private Dialect dialect;

    @BeforeEach
    void createDatabase() throws Exception {
        Path script = home.resolve("init.sql");
        Files.writeString(script, "CREATE TABLE qag (id INTEGER PRIMARY KEY, name VARCHAR(20));\n"
                + "INSERT INTO qag VALUES (1, 'one'), (2, 'two');\n");
        DialectContext context = new DialectContext("security", "db", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(10), 1000, 1, home);
        dialect = new DerbyDialectFactory().create(context, Map.of("derby.init_script", script.toString()));
    }

    @AfterEach
    void close() {
        dialect.close();
    }

    /** A new session exactly as the dialect opens them, outside the dialect. */
    private Connection readSession() {
        return new DerbySessions(DerbyDialectFactory.embeddedDriver(), home.resolve("db"), 1).open();
    }

    private static String refusal(Connection session, String sql) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> {
            try (Statement statement = session.createStatement()) {
                statement.execute(sql);
            }
        });
        assertThat((Throwable) e).as("Derby ran " + sql).isNotNull();
        return e.getSQLState();
    }

    @Test
    void derbyItselfRefusesWritesDdlAndWritingProceduresOnTheReadSessions() throws Exception {
        try (Connection session = readSession()) {
            assertThat(session.isReadOnly()).isTrue();
            assertThat(refusal(session, "INSERT INTO qag VALUES (3, 'three')")).isEqualTo("25502");
            assertThat(refusal(session, "UPDATE qag SET name = 'x'")).isEqualTo("25502");
            assertThat(refusal(session, "DELETE FROM qag")).isEqualTo("25502");
            assertThat(refusal(session, "CREATE TABLE evil (x INTEGER)")).isEqualTo("25503");
            assertThat(refusal(session, "DROP TABLE qag")).isEqualTo("25503");
            assertThat(refusal(session, "DECLARE GLOBAL TEMPORARY TABLE SESSION.t (x INTEGER) NOT LOGGED"))
                    .isEqualTo("25503");
            assertThat(refusal(session, "CREATE FUNCTION qag_exit(code INTEGER) RETURNS INTEGER LANGUAGE JAVA"
                    + " PARAMETER STYLE JAVA NO SQL EXTERNAL NAME 'java.lang.Integer.valueOf'")).isEqualTo("25503");
            assertThat(refusal(session, "CALL SYSCS_UTIL.SYSCS_BACKUP_DATABASE('" + home.resolve("backup") + "')"))
                    .isEqualTo("25502");
            assertThat(refusal(session, "CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.user.evil', 'x')"))
                    .isEqualTo("25502");
            assertThat(refusal(session, "CALL SQLJ.INSTALL_JAR('file:/tmp/evil.jar', 'APP.EVIL', 0)"))
                    .isEqualTo("25502");
            assertThat(refusal(session, "SELECT * FROM qag; DELETE FROM qag")).as("one statement per call")
                    .isEqualTo("42X01");
            session.rollback();
        }
        assertThat(Files.exists(home.resolve("backup"))).isFalse();
        assertThat(names()).containsExactly("one", "two");
    }

    @Test
    void derbyLetsAReadOnlySessionExportFilesSoTheDialectRunsOnlyQueriesInReads() throws Exception {
        Path exported = home.resolve("exported.csv");
        try (Connection session = readSession(); Statement statement = session.createStatement()) {
            statement.execute("CALL SYSCS_UTIL.SYSCS_EXPORT_TABLE(null, 'QAG', '" + exported + "', null, null, null)");
            session.rollback();
        }
        assertThat(exported).as("Derby's read-only mode does not stop an export").exists();
        Files.delete(exported);

        for (String sql : List.of(
                "CALL SYSCS_UTIL.SYSCS_EXPORT_TABLE(null, 'QAG', '" + exported + "', null, null, null)",
                "CALL SYSCS_UTIL.SYSCS_EXPORT_QUERY('SELECT * FROM qag', '" + exported + "', null, null, null)",
                "CALL SYSCS_UTIL.SYSCS_FREEZE_DATABASE()",
                "SET SCHEMA SYS")) {
            DialectException e = failure(read(sql));
            assertThat(e.error()).as(sql).isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(e.getMessage()).contains("not run");
        }
        assertThat(exported).doesNotExist();
        assertThat(names()).as("the session still answers, unfrozen").containsExactly("one", "two");
    }

    @Test
    void writesSentAsReadsAreRefusedAndWritesSentAsWritesCommit() {
        assertThat(failure(read("INSERT INTO qag VALUES (3, 'three')")).error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(names()).containsExactly("one", "two");

        RecordingSink sink = new RecordingSink();
        assertThat(dialect.execute(write("INSERT INTO qag VALUES (3, 'three')"), sink).updateCount()).isEqualTo(1);
        assertThat(names()).containsExactly("one", "two", "three");
        assertThat(failure(read("DELETE FROM qag")).error()).as("the next read is read-only again")
                .isEqualTo(DialectError.NOT_READ_ONLY);
    }

    @Test
    void nothingAWriteLeavesOnItsSessionReachesTheNextRead() {
        dialect.execute(write("DECLARE GLOBAL TEMPORARY TABLE SESSION.qag_leak (x INTEGER) NOT LOGGED"),
                new RecordingSink());
        dialect.execute(write("SET SCHEMA SYS"), new RecordingSink());
        assertThat(failure(read("SELECT * FROM SESSION.qag_leak")).error()).isEqualTo(DialectError.SYNTAX);
        assertThat(names()).containsExactly("one", "two");
    }

    @Test
    void embeddedDerbyCannotCancelAStatementSoTheDialectInterruptsIt() throws Exception {
        try (Connection session = readSession(); Statement statement = session.createStatement()) {
            assertThatThrownBy(statement::cancel).isInstanceOf(SQLFeatureNotSupportedException.class);
        }
        DialectException e = failure(read("SELECT count(*) FROM SYS.SYSCOLUMNS a, SYS.SYSCOLUMNS b,"
                + " SYS.SYSCOLUMNS c, SYS.SYSCOLUMNS d").withTimeout(Duration.ofMillis(200)));
        assertThat(e.error()).isEqualTo(DialectError.TIMEOUT);
        assertThat(e.sqlState()).as("Derby's answer to the interrupt").isEqualTo("08000");
        assertThat(Thread.currentThread().isInterrupted()).as("the interrupt stays inside the dialect").isFalse();
        assertThat(names()).as("a new session replaced the interrupted one").containsExactly("one", "two");
    }

    private List<Object> names() {
        RecordingSink sink = new RecordingSink();
        dialect.execute(read("SELECT name FROM qag ORDER BY id"), sink);
        return sink.column("name");
    }

    private DialectException failure(QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class,
                () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as("expected " + request.sql() + " to fail").isNotNull();
        return e;
    }

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(10), 1000);
    }

    private static QueryRequest write(String sql) {
        return read(sql).withMode(AccessMode.WRITE);
    }
}
