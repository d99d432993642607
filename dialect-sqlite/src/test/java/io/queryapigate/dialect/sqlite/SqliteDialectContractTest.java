package io.queryapigate.dialect.sqlite;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.JDBC;

/**
 * The dialect contract on a SQLite file, opened with the default properties. The fixture is written through a
 * plain driver connection; SQLite has no typed literals ({@code DATE '2024-01-15'}), so the rows are written as
 * the ISO text and 0/1 that SQLite's date functions and booleans use, under the same declared types.
 * {@link #makeUnavailable} deletes the file: every call opens it anew, so calls and the health check fail.
 */
class SqliteDialectContractTest extends AbstractDialectContractTest {

    @TempDir
    Path home;

    static void runSql(Path database, List<String> statements) throws Exception {
        try (Connection connection = new JDBC().connect("jdbc:sqlite:" + database, new Properties());
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        runSql(home.resolve("contract.db"), statements);
    }

    @Override
    protected List<String> fixtureStatements() {
        return FIXTURE_SQL.stream()
                .map(sql -> sql.replace("DATE '", "'").replace("TIMESTAMP '", "'"))
                .toList();
    }

    @Override
    protected List<String> schemaFixtureStatements() {
        return List.of(
                "DROP VIEW IF EXISTS " + SCHEMA_VIEW,
                "DROP TABLE IF EXISTS " + SCHEMA_TABLE,
                "CREATE TABLE " + SCHEMA_TABLE + " ( -- " + TABLE_COMMENT + "\n"
                        + "  id INTEGER NOT NULL,\n"
                        + "  code VARCHAR(20) NOT NULL,\n"
                        + "  label VARCHAR(40), -- " + COLUMN_COMMENT + "\n"
                        + "  PRIMARY KEY (id, code) -- the key\n"
                        + ")",
                "CREATE VIEW " + SCHEMA_VIEW + " AS SELECT id, label FROM " + SCHEMA_TABLE);
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        DialectContext context = new DialectContext("contract", "contract.db", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, poolSize, home);
        return new SqliteDialectFactory().create(context, Map.of());
    }

    @Override
    protected String slowQuery() {
        // counts for ever, one row of output, no memory
        return "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r";
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000)"
                + " SELECT count(*) FROM r");
    }

    /** A scalar subquery of five rows is not an error in SQLite (it takes the first); abs() of the smallest is. */
    @Override
    protected String failsWhenRun() {
        return "SELECT abs(-9223372036854775807 - id) AS one_id FROM " + TABLE;
    }

    @Override
    protected boolean describesNullability() {
        return true;
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("cache_size pragma", "PRAGMA cache_size = 123", "PRAGMA cache_size", "-2000"),
                SessionStateProbe.of("query_only turned off", "PRAGMA query_only = OFF", "PRAGMA query_only", "1"),
                SessionStateProbe.of("foreign_keys pragma", "PRAGMA foreign_keys = ON", "PRAGMA foreign_keys", "0"),
                new SessionStateProbe("temporary table", "CREATE TEMP TABLE qag_leak AS SELECT 1 AS x", AccessMode.WRITE,
                        "SELECT count(*) FROM sqlite_temp_schema", "0"),
                SessionStateProbe.of("open transaction", "BEGIN",
                        "SELECT count(*) FROM sqlite_schema WHERE name = 'qag_contract'", "1"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) throws Exception {
        Path database = home.resolve("contract.db");
        Files.delete(database);
        Files.deleteIfExists(Path.of(database + "-wal"));
        Files.deleteIfExists(Path.of(database + "-shm"));
    }
}
