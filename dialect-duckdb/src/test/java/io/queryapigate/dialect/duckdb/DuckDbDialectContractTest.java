package io.queryapigate.dialect.duckdb;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dialect contract on an embedded DuckDB file, opened with the default properties (read-only).
 *
 * <p>{@link #makeUnavailable} deletes the database file. The dialect's open DuckDB instance keeps reading the
 * deleted file (the operating system keeps it until the last handle closes), so calls would still answer; what an
 * operator needs is a health check that says the file is gone, and that is what the contract checks. Closing the
 * dialect instead would only test {@link Dialect#close()}, which the contract checks separately.
 */
class DuckDbDialectContractTest extends AbstractDialectContractTest {

    @TempDir
    Path home;

    private Path database() {
        return home.resolve("contract.duckdb");
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + database());
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Override
    protected Dialect createDialect(int poolSize) {
        DialectContext context = new DialectContext("contract", "contract.duckdb", Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 10_000, poolSize, home);
        return new DuckDbDialectFactory().create(context, Map.of());
    }

    @Override
    protected String slowQuery() {
        // 10^12 pairs: hours of work, one row of output, no memory
        return "SELECT count(*) FROM range(1000000) a, range(1000000) b WHERE a.range + b.range = -1";
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        // a recursive CTE runs one iteration at a time whatever the core count: about 0.6 s on 2 cores
        return Optional.of("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 60000)"
                + " SELECT count(*) FROM r");
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("SET VARIABLE", "SET VARIABLE qag_probe = 'leaked'",
                        "SELECT getvariable('qag_probe')", null),
                SessionStateProbe.of("search_path", "SET search_path = 'temp.main'",
                        "SELECT current_setting('search_path')", ""),
                SessionStateProbe.of("temporary table", "CREATE TEMP TABLE qag_leak AS SELECT 1 AS x",
                        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'qag_leak'", "0"),
                SessionStateProbe.of("temporary macro", "CREATE TEMP MACRO qag_macro() AS 42",
                        "SELECT count(*) FROM duckdb_functions() WHERE function_name = 'qag_macro'", "0"),
                SessionStateProbe.of("prepared statement", "PREPARE qag_prepared AS SELECT 1",
                        "SELECT count(*) FROM duckdb_prepared_statements() WHERE name = 'qag_prepared'", "0"),
                SessionStateProbe.of("open transaction", "BEGIN TRANSACTION",
                        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'qag_contract'", "1"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) throws Exception {
        Files.delete(database());
        Files.deleteIfExists(Path.of(database() + ".wal"));
    }

    /** Read-only here (and in ClickHouse's and Trino's case, no transaction to roll back): agents cannot write. */
    @Override
    protected java.util.Set<io.queryapigate.dialect.spi.Capability> lackedCapabilities() {
        return java.util.Set.of(io.queryapigate.dialect.spi.Capability.AFFECTED_ROWS_CEILING);
    }
}
