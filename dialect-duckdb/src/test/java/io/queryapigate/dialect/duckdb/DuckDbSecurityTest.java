package io.queryapigate.dialect.duckdb;

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
import java.sql.Connection;
import java.sql.DriverManager;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a caller with arbitrary SQL cannot do through the dialect: read or write files, attach databases, install
 * or load extensions, or unlock any of that. Every attack is sent both as a read and as a write, on a read-only and
 * on a writable database, because the SQL guard in front of the dialect is assumed to be bypassed.
 */
class DuckDbSecurityTest {

    @TempDir
    Path home;

    private final List<Dialect> dialects = new ArrayList<>();
    private Path outside;

    @BeforeEach
    void createDatabaseAndAFileOutsideIt() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("secure.duckdb"))) {
            c.createStatement().execute("CREATE TABLE t AS SELECT range AS id FROM range(3)");
        }
        outside = Files.writeString(home.resolve("secret.csv"), "name,value\nkey,s3cr3t\n");
    }

    @AfterEach
    void close() {
        dialects.forEach(Dialect::close);
    }

    private Dialect dialect(boolean readOnly) {
        DialectContext context = new DialectContext("secure", "secure.duckdb", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, 2, home);
        Dialect dialect = new DuckDbDialectFactory().create(context, Map.of("duckdb.read_only", Boolean.toString(readOnly)));
        dialects.add(dialect);
        return dialect;
    }

    private static DialectException refused(Dialect dialect, String sql, AccessMode mode) {
        QueryRequest request = QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000).withMode(mode);
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as("%s (%s) must fail", sql, mode).isNotNull();
        return e;
    }

    private static Object value(Dialect dialect, String sql) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000), sink);
        return sink.singleValue();
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void filesCannotBeReadOrListed(boolean readOnly) {
        Dialect dialect = dialect(readOnly);
        for (String sql : List.of(
                "SELECT * FROM read_csv('/etc/passwd')",
                "SELECT * FROM read_csv_auto('" + outside + "')",
                "SELECT * FROM '" + outside + "'",
                "SELECT * FROM read_text('/etc/passwd')",
                "SELECT * FROM read_blob('/etc/passwd')",
                "SELECT * FROM read_json('/etc/passwd')",
                "SELECT * FROM read_parquet('/etc/passwd')",
                "SELECT * FROM parquet_metadata('/etc/passwd')",
                "SELECT * FROM glob('/etc/*')",
                "SELECT * FROM query('SELECT * FROM read_csv(''/etc/passwd'')')")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.getMessage()).as(sql).doesNotContain("root:").doesNotContain("s3cr3t");
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isIn(DialectError.PERMISSION_DENIED, DialectError.SYNTAX);
            }
        }
        DialectException passwd = refused(dialect, "SELECT * FROM read_csv('/etc/passwd')", AccessMode.READ);
        assertThat(passwd.error()).isEqualTo(DialectError.PERMISSION_DENIED);
        assertThat(passwd.getMessage()).startsWith("Permission Error").contains("disabled by configuration");
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void filesCannotBeWrittenOrAttached(boolean readOnly) {
        Dialect dialect = dialect(readOnly);
        Path copy = home.resolve("copy.csv");
        Path attached = home.resolve("other.duckdb");
        Path export = home.resolve("export");
        for (String sql : List.of(
                "COPY t TO '" + copy + "'",
                "COPY (SELECT 42 AS answer) TO '" + copy + "' (FORMAT csv)",
                "EXPORT DATABASE '" + export + "'",
                "ATTACH '" + attached + "' AS other")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isIn(DialectError.PERMISSION_DENIED, DialectError.NOT_READ_ONLY);
            }
        }
        assertThat(copy).doesNotExist();
        assertThat(attached).doesNotExist();
        assertThat(export).doesNotExist();
        assertThat(value(dialect, "SELECT count(*) FROM duckdb_databases() WHERE NOT internal")).isEqualTo(1L);
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void extensionsCannotBeInstalledOrLoaded(boolean readOnly) throws Exception {
        Dialect dialect = dialect(readOnly);
        Path fake = Files.writeString(home.resolve("evil.duckdb_extension"), "not really an extension");
        for (String sql : List.of(
                "INSTALL httpfs",
                "FORCE INSTALL httpfs",
                "INSTALL '" + fake + "'",
                "LOAD httpfs",
                "LOAD '" + fake + "'",
                "SELECT * FROM read_csv('https://example.com/data.csv')")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            }
        }
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void theLockedConfigurationCannotBeUnlocked(boolean readOnly) {
        Dialect dialect = dialect(readOnly);
        for (String sql : List.of(
                "SET enable_external_access = true",
                "SET GLOBAL enable_external_access = true",
                "RESET enable_external_access",
                "SET lock_configuration = false",
                "RESET lock_configuration",
                "SET allowed_directories = ['/']",
                "SET allowed_paths = ['/etc/passwd']",
                "SET autoinstall_known_extensions = true",
                "SET autoload_known_extensions = true",
                "SET allow_unsigned_extensions = true",
                "SET allow_community_extensions = true",
                "SET disabled_filesystems = ''",
                "PRAGMA threads = 1",
                "SET memory_limit = '100GB'",
                "SET enable_external_access = true; SELECT * FROM read_csv('/etc/passwd')")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            }
        }
        assertThat(value(dialect, "SELECT current_setting('enable_external_access')")).isEqualTo(false);
        assertThat(value(dialect, "SELECT current_setting('lock_configuration')")).isEqualTo(true);
        assertThat(value(dialect, "SELECT current_setting('autoinstall_known_extensions')")).isEqualTo(false);
        assertThat(value(dialect, "SELECT current_setting('allow_persistent_secrets')")).isEqualTo(false);
    }

    @ParameterizedTest(name = "read_only={0}")
    @ValueSource(booleans = {true, false})
    void statementsThatChangeTheSharedInstanceAreRefusedBeforeDuckDbSeesThem(boolean readOnly) {
        Dialect dialect = dialect(readOnly);
        Path self = home.resolve("secure.duckdb");
        for (String sql : List.of(
                // DuckDB itself allows this one despite enable_external_access=false: the file is already open
                "ATTACH '" + self + "' AS again",
                "ATTACH '" + self + "' AS again; USE again; DETACH secure",
                "attach ':memory:' AS scratch",
                "DETACH secure",
                "SELECT * FROM enable_logging()",
                "CALL \"ENABLE_LOGGING\"()",
                "SELECT * FROM query('SELECT * FROM enable' || '_logging()')",
                "SELECT * FROM \"QUERY\" /* spaced */ ('SELECT 1')",
                "SELECT * FROM system.main.query_table('t')",
                "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT 1'))")) {
            for (AccessMode mode : AccessMode.values()) {
                DialectException e = refused(dialect, sql, mode);
                assertThat(e.error()).as(sql + ": " + e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
                assertThat(e.getMessage()).startsWith("the duckdb dialect refuses");
            }
        }
        assertThat(value(dialect, "SELECT count(*) FROM duckdb_databases() WHERE NOT internal")).isEqualTo(1L);
        // the setting's own name is refused too (the check is on the whole text), hence the concatenation
        assertThat(value(dialect, "SELECT value FROM duckdb_settings() WHERE name = 'enable' || '_logging'")).isIn("0", "false");
        assertThat(value(dialect, "SELECT count(*) FROM t")).isEqualTo(3L);
        assertThat(value(dialect, "SELECT 'a query about attachments' AS query_text")).isEqualTo("a query about attachments");
    }

    @Test
    void attachingAnInMemoryDatabaseIsRefusedByDuckDbWhenReadOnly() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("secure.duckdb"),
                lockedProperties())) {
            java.sql.SQLException e = catchThrowableOfType(java.sql.SQLException.class, () -> c.createStatement().execute("ATTACH ':memory:' AS scratch"));
            assertThat((Throwable) e).isNotNull();
            assertThat(e.getMessage()).contains("read-only mode");
        }
    }

    private static java.util.Properties lockedProperties() {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("duckdb.read_only", "true");
        properties.setProperty("enable_external_access", "false");
        properties.setProperty("lock_configuration", "true");
        return properties;
    }

    @Test
    void aFailedCreateSecretDoesNotBreakTheSecretManagerForLaterCalls() {
        Dialect dialect = dialect(true);
        refused(dialect, "CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')", AccessMode.READ);
        assertThat(value(dialect, "SELECT count(*) FROM duckdb_secrets()")).isEqualTo(0L);
    }

    /**
     * Known gap on a writable database: DuckDB's {@code prepareStatement} runs every statement of a
     * multi-statement string but the last, so {@code COMMIT; INSERT ...} leaves the read-only transaction. The
     * dialect notices (its ROLLBACK finds no transaction) and reports NOT_READ_ONLY, but the insert is committed.
     * That is why SERVER_ENFORCED_READ_ONLY is declared only for read-only databases; the SQL guard's one-statement
     * check is load-bearing there. On a read-only database the same string is refused.
     */
    @Test
    void knownGapAMultiStatementStringEscapesTheReadOnlyTransactionOfAWritableDatabase() {
        Dialect writable = dialect(false);
        DialectException inside = refused(writable, "SELECT 1; INSERT INTO t VALUES (99); SELECT 1", AccessMode.READ);
        assertThat(inside.error()).as(inside.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(value(writable, "SELECT count(*) FROM t")).isEqualTo(3L);
        DialectException escaped = refused(writable, "COMMIT; INSERT INTO t VALUES (100); SELECT 1", AccessMode.READ);
        assertThat(escaped.error()).as("reported, but after the fact").isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(escaped.getMessage()).startsWith("the statement ended the call's read-only transaction");
        assertThat(value(writable, "SELECT count(*) FROM t")).as("the insert was committed").isEqualTo(4L);
        writable.close();

        Dialect readOnly = dialect(true);
        DialectException e = refused(readOnly, "SELECT 1; INSERT INTO t VALUES (101); SELECT 1", AccessMode.READ);
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(value(readOnly, "SELECT count(*) FROM t")).isEqualTo(4L);
    }
}
