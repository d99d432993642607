package io.queryapigate.dialect.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
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
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.JDBC;

/**
 * Writers and the file: the busy timeout bounds how long a write waits for another writer's lock (then {@code
 * CONFLICT}), readers keep reading while a writer holds it (WAL), and the privilege warnings name who else can
 * change the file.
 */
class SqliteWritersTest {

    @TempDir
    Path home;

    private Dialect dialect(String busyTimeout) throws Exception {
        SqliteDialectContractTest.runSql(home.resolve("w.db"), List.of("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY)",
                "PRAGMA journal_mode = WAL"));
        return new SqliteDialectFactory().create(new DialectContext("w", "w.db", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 100, 4, home), Map.of("sqlite.busy_timeout", busyTimeout));
    }

    private static QueryRequest write(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 100).withMode(AccessMode.WRITE);
    }

    @Test
    void aWriteWaitsTheBusyTimeoutForAnotherWriterThenConflictsWhileReadersRead() throws Exception {
        try (Dialect dialect = dialect("300ms");
                Connection other = new JDBC().connect("jdbc:sqlite:" + home.resolve("w.db"), new Properties());
                Statement lock = other.createStatement()) {
            lock.execute("BEGIN IMMEDIATE");
            lock.execute("INSERT INTO t VALUES (1)");

            long start = System.nanoTime();
            DialectException e = catchThrowableOfType(DialectException.class,
                    () -> dialect.execute(write("INSERT INTO t VALUES (2)"), new RecordingSink()));
            long waited = (System.nanoTime() - start) / 1_000_000;
            assertThat(e).isNotNull();
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.CONFLICT);
            assertThat(waited).as("waited the busy timeout").isBetween(250L, 5_000L);

            RecordingSink read = new RecordingSink();
            dialect.execute(QueryRequest.read("SELECT count(*) FROM t", List.of(), Duration.ofSeconds(5), 10), read);
            assertThat(read.singleValue()).as("a reader is not blocked by the writer, and sees no uncommitted row")
                    .isEqualTo(0);

            lock.execute("COMMIT");
            assertThat(dialect.execute(write("INSERT INTO t VALUES (2)"), new RecordingSink()).updateCount()).isEqualTo(1);
        }
    }

    @Test
    void privilegeWarningsNameWhoElseCanChangeTheFile() throws Exception {
        try (Dialect dialect = dialect("1s")) {
            Path file = home.resolve("w.db");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
            assertThat(dialect.privilegeWarnings(Duration.ofSeconds(5))).isEmpty();

            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
            assertThat(dialect.privilegeWarnings(Duration.ofSeconds(5))).hasSize(2)
                    .anySatisfy(w -> assertThat(w).contains("is writable by other users"))
                    .anySatisfy(w -> assertThat(w).startsWith("The directory of SQLite database"));
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        }
        Path link = Files.createSymbolicLink(home.resolve("link.db"), home.resolve("w.db"));
        try (Dialect linked = new SqliteDialectFactory().create(new DialectContext("l", link.toString(), Optional.empty(),
                Optional.empty(), Duration.ofSeconds(30), 100, 1, home), Map.of())) {
            assertThat(linked.privilegeWarnings(Duration.ofSeconds(5))).anySatisfy(w -> assertThat(w)
                    .contains("is a symbolic link"));
        }
    }
}
