package io.queryapigate.dialect.genericjdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What HSQLDB really enforces when the dialect calls {@code Connection.setReadOnly(true)} for a read, and what it
 * does not (the guard refuses those at the service level: {@code GenericJdbcPluginIT}). The dialect is called
 * directly here, as if the guard had let everything through.
 */
class GenericJdbcSecurityTest {

    @TempDir
    Path home;

    private String url;
    private Dialect dialect;

    @BeforeEach
    void createDatabase() throws SQLException {
        url = "jdbc:hsqldb:file:" + home.resolve("security") + ";sql.lowercase_ident=true";
        HsqldbPlugin.run(url, List.of("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20))",
                "INSERT INTO t VALUES (1, 'one'), (2, 'two')"));
        dialect = HsqldbPlugin.create(url + ";ifexists=true", 1, home);
    }

    @AfterEach
    void shutDown() throws SQLException {
        dialect.close();
        try {
            HsqldbPlugin.run(url + ";ifexists=true", List.of("SHUTDOWN"));
        } catch (SQLException alreadyShutDown) {
            // the test shut it down
        }
    }

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(10), 100);
    }

    private RecordingSink run(String sql) {
        return RecordingSink.run(dialect, read(sql));
    }

    private DialectException refused(String sql) {
        return RecordingSink.failure(dialect, read(sql));
    }

    private long rows() {
        return ((Number) run("SELECT COUNT(*) FROM t").singleValue()).longValue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t VALUES (3, 'three')",
        "UPDATE t SET name = 'changed'",
        "DELETE FROM t",
        "MERGE INTO t USING (VALUES (9)) v(x) ON t.id = v.x WHEN NOT MATCHED THEN INSERT VALUES (9, 'nine')",
        "CREATE TABLE evil (x INTEGER)",
        "DROP TABLE t",
        "TRUNCATE TABLE t",
        "CREATE USER evil PASSWORD 'x'",
        "GRANT DBA TO PUBLIC",
        "CHECKPOINT",
        "SET FILES LOG FALSE",
        "SCRIPT '/tmp/qag-hsqldb-script.sql'",
        "BACKUP DATABASE TO '/tmp/qag-hsqldb-backup/' NOT BLOCKING"})
    void hsqldbRefusesWritesAndAdministrationInAReadOnlySession(String sql) {
        DialectException e = refused(sql);
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(e.sqlState()).isEqualTo("25006");
        assertThat(rows()).isEqualTo(2);
        assertThat(Path.of("/tmp/qag-hsqldb-script.sql")).doesNotExist();
    }

    @Test
    void aReadCanLiftItsOwnSessionsReadOnlyModeButTheNextCallIsReadOnlyAgain() {
        // HSQLDB lets a read-only session make itself read-write: only one statement per call, and a fresh
        // session per call, keep that from reaching a write; the guard refuses SET at the service level
        run("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE");
        assertThat(refused("INSERT INTO t VALUES (3, 'three')").error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(rows()).isEqualTo(2);
    }

    @Test
    void twoStatementsInOneCallAreRefusedByTheDriver() {
        DialectException e = refused("SET TRANSACTION READ WRITE; INSERT INTO t VALUES (3, 'three')");
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.SYNTAX);
        assertThat(rows()).isEqualTo(2);
    }

    @Test
    void hsqldbReadsFilesInAReadOnlySession() {
        // not a lock HSQLDB has: LOAD_FILE reads any file the JVM may read, in a read; the guard refuses it
        RecordingSink sink = run("SELECT LOAD_FILE('/etc/hostname', 'UTF-8') AS f FROM (VALUES (0))");
        assertThat(sink.singleValue()).isNotNull();
    }

    @Test
    void hsqldbShutsTheDatabaseDownFromAReadOnlySession() throws SQLException {
        // not refused by HSQLDB either (the guard refuses SHUTDOWN): every other session of the database ends
        try (java.sql.Connection other = HsqldbPlugin.connect(url + ";ifexists=true")) {
            other.createStatement().execute("VALUES 1");
            run("SHUTDOWN");
            Throwable closed = catchThrowable(() -> other.createStatement().execute("VALUES 1"));
            assertThat(closed).as("another session after a read's SHUTDOWN").isInstanceOf(SQLException.class);
        }
    }
}
