package io.queryapigate.dialect.clickhouse;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dialect contract on the real ClickHouse (18.16 on the project's machines), in its own database {@value #DB}
 * (the contract's table names are fixed; the database keeps them apart from everything else on the server).
 *
 * <p>The fixture in ClickHouse types: {@code Nullable(...)} columns (ClickHouse columns are NOT NULL unless
 * declared Nullable), {@code Decimal(12, 2)}, {@code DateTime} (second precision, the server's wall clock), and for
 * the boolean column {@code Enum8('false' = 0, 'true' = 1)}, which the dialect reports as BOOLEAN (18.16 has no
 * {@code Bool} type). Writes are ClickHouse's: {@code ALTER TABLE ... UPDATE/DELETE} (mutations) instead of {@code
 * UPDATE}/{@code DELETE}, plus {@code TRUNCATE}, {@code DROP}, {@code RENAME} and {@code INSERT ... SELECT}.
 *
 * <p>Session state: the HTTP interface keeps none without a {@code session_id}, which the dialect never sends. The
 * probes change settings with a statement's own {@code SETTINGS} clause in WRITE calls (a read's {@code readonly=1}
 * refuses it) and show that the next read still runs with its own {@code readonly}, time limit, row cap and {@code
 * extremes}, and the server's {@code max_threads}.
 *
 * <p>{@link #makeUnavailable}: the dialect reaches ClickHouse through a loopback {@link TcpProxy}, which the test
 * closes.
 */
class ClickHouseDialectContractTest extends AbstractDialectContractTest {
    static final String DB = "qag_ch_contract";
    private TcpProxy proxy;

    @BeforeAll
    static void createDatabase() {
        TestingClickHouse.exec("DROP DATABASE IF EXISTS " + DB);
        TestingClickHouse.exec("CREATE DATABASE " + DB);
    }

    @AfterAll
    static void dropDatabase() {
        TestingClickHouse.exec("DROP DATABASE IF EXISTS " + DB);
    }

    @AfterEach
    void closeProxy() {
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
    }

    @Override
    protected void setUpFixture(List<String> statements) {
        for (String sql : statements) {
            TestingClickHouse.execIn(DB, sql);
        }
    }

    @Override
    protected List<String> fixtureStatements() {
        return List.of(
                "DROP TABLE IF EXISTS qag_contract_evil",
                "DROP TABLE IF EXISTS " + TABLE,
                "CREATE TABLE " + TABLE + " (id Int32, big Nullable(Int64), amount Nullable(Decimal(12, 2)),"
                        + " ratio Nullable(Float64), name Nullable(String),"
                        + " active Nullable(Enum8('false' = 0, 'true' = 1)), created_on Nullable(Date),"
                        + " updated_at Nullable(DateTime)) ENGINE = Memory",
                "INSERT INTO " + TABLE + " VALUES (1, 9007199254740993, 1234.50, 0.5, 'alpha', 'true',"
                        + " '2024-01-15', '2024-01-15 10:30:00')",
                "INSERT INTO " + TABLE + " VALUES (2, -42, -0.01, -1.25, 'beta', 'false',"
                        + " '1999-12-31', '1999-12-31 23:59:59')",
                "INSERT INTO " + TABLE + " VALUES (3, 0, 0.00, 0.0, 'gamma ünïcödé ✓', 'true',"
                        + " '2000-02-29', '2000-02-29 00:00:00')",
                "INSERT INTO " + TABLE + " VALUES (4, 4000000000, 99999.99, 10000000000.0, 'it''s', 'false',"
                        + " '2038-01-19', '2038-01-19 03:14:08')",
                "INSERT INTO " + TABLE + " (id) VALUES (5)");
    }

    /**
     * ClickHouse DDL: no NOT NULL (columns are unless {@code Nullable}), the sorting key {@code (id, code)} as the
     * key, the column comment in CREATE TABLE, the table comment only where the server keeps one (21.6 on).
     */
    @Override
    protected List<String> schemaFixtureStatements() {
        List<String> statements = new java.util.ArrayList<>(List.of(
                "DROP TABLE IF EXISTS " + SCHEMA_VIEW,
                "DROP TABLE IF EXISTS " + SCHEMA_TABLE,
                "CREATE TABLE " + SCHEMA_TABLE + " (id Int32, code String, label Nullable(String) COMMENT '"
                        + COLUMN_COMMENT + "') ENGINE = MergeTree ORDER BY (id, code)",
                "CREATE VIEW " + SCHEMA_VIEW + " AS SELECT id, label FROM " + SCHEMA_TABLE));
        if (keepsTableComments()) {
            statements.add("ALTER TABLE " + SCHEMA_TABLE + " MODIFY COMMENT '" + TABLE_COMMENT + "'");
        }
        return statements;
    }

    @Override
    protected boolean keepsTableComments() {
        return !TestingClickHouse.value("SELECT count() FROM system.columns WHERE database = 'system'"
                + " AND table = 'tables' AND name = 'comment'").equals("0");
    }

    @Override
    protected List<String> writeStatements() {
        return List.of(
                "INSERT INTO " + TABLE + " (id, name) VALUES (99, 'intruder')",
                "INSERT INTO " + TABLE + " (id, name) SELECT 98, 'intruder'",
                "ALTER TABLE " + TABLE + " UPDATE name = 'changed' WHERE id = 1",
                "ALTER TABLE " + TABLE + " DELETE WHERE 1",
                "TRUNCATE TABLE " + TABLE,
                "DROP TABLE " + TABLE,
                "RENAME TABLE " + TABLE + " TO qag_contract_moved",
                "CREATE TABLE qag_contract_evil (x Int32) ENGINE = Memory");
    }

    /** A column is nullable exactly when its type is Nullable(...). */
    @Override
    protected boolean describesNullability() {
        return true;
    }

    /**
     * A division by zero in a column: ClickHouse evaluates scalar subqueries (the contract's default) and constant
     * expressions while it analyses a statement, so the failure must depend on the rows.
     */
    @Override
    protected String failsWhenRun() {
        return "SELECT intDiv(1, id - id) AS boom FROM " + TABLE;
    }

    @Override
    protected Dialect createDialect(int poolSize) throws Exception {
        TestingClickHouse.require();
        if (proxy == null) {
            proxy = new TcpProxy(TestingClickHouse.address());
        }
        return new ClickHouseDialectFactory().create(TestingClickHouse.context("http://" + proxy.hostPort(), poolSize),
                Map.of(ClickHouseDialectConfig.DATABASE, DB, ClickHouseDialectConfig.CONNECT_TIMEOUT, "2s"));
    }

    /** Counts an endless table: runs until killed (interruptible, unlike 18.16's sleep()). */
    @Override
    protected String slowQuery() {
        return "SELECT count() FROM system.numbers";
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        // not numbers(N): readonly=1 forbids table functions on 18.16
        return Optional.of("SELECT sum(number) FROM (SELECT number FROM system.numbers LIMIT 100000000)");
    }

    /**
     * Settings changed by a statement's own {@code SETTINGS} clause in a WRITE call (a plain {@code SET} fails
     * without a session on 18.16: "There is no session", code 113, which {@code ClickHouseDialectTest} shows), each
     * then read back by the next call.
     */
    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        String maxThreads = TestingClickHouse.value("SELECT value FROM system.settings WHERE name = 'max_threads'");
        return List.of(
                probe("readonly", "readonly = 0", "readonly", "1"),
                probe("max_execution_time", "max_execution_time = 0", "max_execution_time", "30"),
                probe("extremes", "extremes = 1", "extremes", "0"),
                probe("max_result_rows", "max_result_rows = 1", "max_result_rows", "10001"),
                probe("max_threads", "max_threads = 1", "max_threads", maxThreads));
    }

    private static SessionStateProbe probe(String description, String settings, String setting, String expected) {
        String read = "SELECT value FROM system.settings WHERE name = '" + setting + "'";
        return new SessionStateProbe(description, read + " SETTINGS " + settings, AccessMode.WRITE, read, expected);
    }

    @Override
    protected void makeUnavailable(Dialect dialect) {
        proxy.close();
    }

    /** Read-only here (and in ClickHouse's and Trino's case, no transaction to roll back): agents cannot write. */
    @Override
    protected java.util.Set<io.queryapigate.dialect.spi.Capability> lackedCapabilities() {
        return java.util.Set.of(io.queryapigate.dialect.spi.Capability.AFFECTED_ROWS_CEILING);
    }
}
