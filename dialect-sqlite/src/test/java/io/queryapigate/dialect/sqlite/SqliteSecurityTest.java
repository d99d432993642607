package io.queryapigate.dialect.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a caller with arbitrary SQL cannot do through the dialect, with the SQL guard assumed bypassed: every
 * attack goes straight to {@link Dialect#execute}, and SQLite itself must refuse it. Reads may not write (the file,
 * temporary tables, the schema); neither reads nor writes may attach another file or a memory database, copy the
 * database elsewhere ({@code VACUUM INTO}), load an extension, or smuggle a second statement; and the URL cannot
 * carry driver options that would undo the dialect's settings.
 */
class SqliteSecurityTest {

    @TempDir
    Path home;

    private final List<Dialect> dialects = new ArrayList<>();
    private Path secret;

    @BeforeEach
    void createDatabaseAndAnotherOutsideIt() throws Exception {
        SqliteDialectContractTest.runSql(home.resolve("secure.db"), List.of(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)", "CREATE INDEX t_name ON t (name)",
                "INSERT INTO t VALUES (1, 'one'), (2, 'two')"));
        secret = home.resolve("other").resolve("secret.db");
        Files.createDirectories(secret.getParent());
        SqliteDialectContractTest.runSql(secret, List.of("CREATE TABLE s (v TEXT)", "INSERT INTO s VALUES ('s3cr3t')"));
    }

    @AfterEach
    void close() {
        dialects.forEach(Dialect::close);
    }

    private Dialect dialect(String url) {
        DialectContext context = new DialectContext("secure", url, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, 2, home);
        Dialect dialect = new SqliteDialectFactory().create(context, Map.of());
        dialects.add(dialect);
        return dialect;
    }

    private static DialectException refused(Dialect dialect, String sql, AccessMode mode) {
        return RecordingSink.failure(dialect, QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000).withMode(mode));
    }

    private static Object value(Dialect dialect, String sql) {
        return RecordingSink.run(dialect, QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000)).singleValue();
    }

    private void assertUnchanged(Dialect dialect) {
        assertThat(((Number) value(dialect, "SELECT count(*) FROM t")).longValue()).isEqualTo(2);
        assertThat(value(dialect, "SELECT name FROM t WHERE id = 1")).isEqualTo("one");
        assertThat(value(dialect, "SELECT sql FROM sqlite_schema WHERE name = 't'").toString()).contains("name TEXT");
    }

    @Test
    void smuggledWritesInAReadAreRefusedBySqlite() {
        Dialect dialect = dialect("secure.db");
        for (String write : List.of(
                "INSERT INTO t VALUES (3, 'three')",
                "UPDATE t SET name = 'x'",
                "DELETE FROM t",
                "DROP TABLE t",
                "CREATE TABLE evil (x)",
                "CREATE TEMP TABLE evil AS SELECT 1",
                "REPLACE INTO t VALUES (1, 'replaced')",
                "INSERT INTO t VALUES (3, 'three') RETURNING id",
                "WITH x AS (SELECT 1) INSERT INTO t SELECT 9, 'cte' FROM x",
                "PRAGMA user_version = 7",
                "REINDEX",
                "ANALYZE")) {
            DialectException e = refused(dialect, write, AccessMode.READ);
            assertThat(e.error()).as(write + ": " + e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        }
        assertUnchanged(dialect);
        assertThat(((Number) value(dialect, "PRAGMA user_version")).longValue()).isZero();
    }

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void writableSchemaDoesNotCarryOverToTheCallThatRewritesTheSchema(AccessMode mode) {
        Dialect dialect = dialect("secure.db");
        // the pragma itself is allowed: it changes only the call's own connection, which closes after it
        dialect.execute(QueryRequest.read("PRAGMA writable_schema = ON", List.of(), Duration.ofSeconds(30), 10)
                .withMode(mode), new RecordingSink());
        String rewrite = "UPDATE sqlite_schema SET sql = 'CREATE TABLE t (x)' WHERE name = 't'";
        DialectException e = refused(dialect, rewrite, mode);
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
        assertThat(e.getMessage()).isEqualTo("table sqlite_master may not be modified");
        assertThat(((Number) value(dialect, "PRAGMA writable_schema")).longValue()).as("not carried over").isZero();
        assertUnchanged(dialect);
    }

    @Test
    void turningQueryOnlyOffInOneCallDoesNotOpenTheNext() {
        Dialect dialect = dialect("secure.db");
        dialect.execute(QueryRequest.read("PRAGMA query_only = OFF", List.of(), Duration.ofSeconds(30), 10),
                new RecordingSink());
        assertThat(refused(dialect, "DELETE FROM t", AccessMode.READ).error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(((Number) value(dialect, "PRAGMA query_only")).longValue()).isEqualTo(1);
        assertUnchanged(dialect);
    }

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void noDatabaseCanBeAttachedNorTheFileCopiedElsewhere(AccessMode mode) {
        Dialect dialect = dialect("secure.db");
        Path copy = home.resolve("other").resolve("copy.db");
        for (String attack : List.of(
                "ATTACH DATABASE '" + secret + "' AS s",
                "ATTACH '" + secret + "' AS s",
                "ATTACH DATABASE ':memory:' AS m",
                "ATTACH DATABASE '' AS tmp",
                "ATTACH DATABASE 'file:" + secret + "?mode=ro' AS s",
                "ATTACH DATABASE '../secure.db' AS again",
                "VACUUM INTO '" + copy + "'",
                "VACUUM", // SQLite vacuums through an attached temporary database
                "VACUUM main INTO 'file:" + copy + "'")) {
            DialectException e = refused(dialect, attack, mode);
            assertThat(e.error()).as(attack + " (" + mode + "): " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            assertThat(e.getMessage()).contains("too many attached databases");
        }
        assertThat(copy).doesNotExist();
        assertThat(value(dialect, "SELECT group_concat(name) FROM pragma_database_list")).isEqualTo("main");
        assertThat(dialect.databases(Duration.ofSeconds(10))).containsExactly("main");
        assertUnchanged(dialect);
    }

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void extensionsCannotBeLoaded(AccessMode mode) throws Exception {
        Dialect dialect = dialect("secure.db");
        Path library = Files.write(home.resolve("evil.so"), new byte[] {0x7f, 'E', 'L', 'F'});
        for (String attack : List.of(
                "SELECT load_extension('" + library + "')",
                "SELECT load_extension('" + library + "', 'sqlite3_evil_init')",
                "SELECT load_extension('libc.so.6', 'system')")) {
            DialectException e = refused(dialect, attack, mode);
            assertThat(e.error()).as(attack + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            assertThat(e.getMessage()).isEqualTo("not authorized");
        }
        assertUnchanged(dialect);
    }

    @ParameterizedTest
    @EnumSource(AccessMode.class)
    void aSecondStatementIsRefusedNotDropped(AccessMode mode) {
        Dialect dialect = dialect("secure.db");
        for (String attack : List.of(
                "SELECT 1; DELETE FROM t",
                "SELECT ';'; DELETE FROM t",
                "SELECT 1 -- ;\n; DELETE FROM t",
                "SELECT \"a;b\" FROM (SELECT 1 AS \"a;b\"); DROP TABLE t",
                "SELECT 1;/* x */ATTACH ':memory:' AS m")) {
            DialectException e = refused(dialect, attack, mode);
            assertThat(e.error()).as(attack + ": " + e.getMessage()).isEqualTo(DialectError.SYNTAX);
            assertThat(e.getMessage()).contains("one statement per call");
        }
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read("SELECT ';' AS s; -- a trailing comment\n;", List.of(), Duration.ofSeconds(30),
                10), sink);
        assertThat(sink.singleValue()).as("trailing semicolons and comments are not a statement").isEqualTo(";");
        assertUnchanged(dialect);
    }

    @Test
    void aMissingFileIsNeverCreatedByACall() {
        Dialect dialect = dialect("missing.db");
        for (AccessMode mode : AccessMode.values()) {
            DialectException e = refused(dialect, "CREATE TABLE x (y)", mode);
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(e.getMessage()).contains("does not exist");
        }
        assertThat(home.resolve("missing.db")).doesNotExist();
    }

    @Test
    void theUrlCannotCarryDriverOptionsOrNameAMemoryDatabase() {
        for (String url : List.of("secure.db?mode=rwc", "jdbc:sqlite:secure.db?open_mode=6", "file:secure.db",
                "jdbc:sqlite:file:secure.db?mode=rw", ":memory:", "jdbc:sqlite::memory:", "jdbc:sqlite:", " ")) {
            assertThatThrownBy(() -> dialect(url)).as(url).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("url: ");
        }
    }

    @Test
    void aRelativePathResolvesInTheHomeAndAJdbcUrlIsAccepted() {
        assertThat(((SqliteDialect) dialect("./other/../secure.db")).databaseFile()).isEqualTo(home.resolve("secure.db"));
        assertThat(value(dialect("jdbc:sqlite:" + secret), "SELECT v FROM s")).isEqualTo("s3cr3t");
    }

    @Test
    void writesAreCommittedInWalModeAndReadersSeeThem() {
        Dialect dialect = dialect("secure.db");
        QueryRequest insert = QueryRequest.read("INSERT INTO t VALUES (3, 'three')", List.of(), Duration.ofSeconds(30), 10)
                .withMode(AccessMode.WRITE);
        assertThat(dialect.execute(insert, new RecordingSink()).updateCount()).isEqualTo(1);
        assertThat(((Number) value(dialect, "SELECT count(*) FROM t")).longValue()).isEqualTo(3);
        assertThat(value(dialect, "PRAGMA journal_mode")).isEqualTo("wal");
    }
}
