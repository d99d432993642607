package io.queryapigate.dialect.trino;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dialect contract on the real Trino 476, with the fixture in {@code memory.}{@value #SCHEMA} (the dialect's
 * session catalog and schema, so the contract's bare table names resolve there).
 *
 * <p>{@link #makeUnavailable}: the dialect reaches Trino through a loopback {@link TcpProxy} that the test closes;
 * trino-jdbc then sees a refused connection, as with a dead coordinator, while the shared Trino keeps running.
 *
 * <p>Session state: Trino keeps none on the server, but trino-jdbc keeps what statements change in its {@code
 * Connection} ({@code USE}, {@code SET SESSION}, {@code SET TIME ZONE}, {@code SET PATH}); the probes run each of
 * them through one call, read and write, and show that the next call starts from the configured defaults.
 */
class TrinoDialectContractTest extends AbstractDialectContractTest {
    static final String SCHEMA = "qag_trino_contract";

    /** A query whose result shows max_recursion_depth: 5 by default; with a depth of 2 Trino refuses it. */
    private static final String RECURSION = "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5)"
            + " SELECT max(n) FROM t";

    /** Closed only after the class: JUnit runs this class's {@code @AfterEach} before the one closing dialects. */
    private static final List<TcpProxy> PROXIES = new CopyOnWriteArrayList<>();

    private TcpProxy proxy;

    @BeforeAll
    static void createSchema() throws Exception {
        TestingTrino.schema(SCHEMA);
    }

    @AfterEach
    void forgetProxy() {
        proxy = null;
    }

    @AfterAll
    static void closeProxies() {
        PROXIES.forEach(TcpProxy::close);
        PROXIES.clear();
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        TestingTrino.require();
        try (var c = TestingTrino.admin(); var st = c.createStatement()) {
            st.execute("USE memory." + SCHEMA);
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    /**
     * The contract's rows in Trino DDL: no PRIMARY KEY, {@code DOUBLE}, one multi-row INSERT (every statement costs
     * a query of 100-300 ms on this machine).
     */
    @Override
    protected List<String> fixtureStatements() {
        return List.of(
                "DROP TABLE IF EXISTS qag_contract_evil",
                "DROP TABLE IF EXISTS " + TABLE,
                "CREATE TABLE " + TABLE + " (id INTEGER NOT NULL, big BIGINT, amount DECIMAL(12,2), ratio DOUBLE,"
                        + " name VARCHAR(100), active BOOLEAN, created_on DATE, updated_at TIMESTAMP(0))",
                "INSERT INTO " + TABLE + " VALUES"
                        + " (1, 9007199254740993, 1234.50, 0.5, 'alpha', TRUE, DATE '2024-01-15',"
                        + " TIMESTAMP '2024-01-15 10:30:00'),"
                        + " (2, -42, -0.01, -1.25, 'beta', FALSE, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59'),"
                        + " (3, 0, 0.00, 0.0, 'gamma ünïcödé ✓', TRUE, DATE '2000-02-29', TIMESTAMP '2000-02-29 00:00:00'),"
                        + " (4, 4000000000, 99999.99, 10000000000.0, 'it''s', FALSE, DATE '2038-01-19',"
                        + " TIMESTAMP '2038-01-19 03:14:08'),"
                        + " (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
    }

    /** Trino DDL: comments as clauses, no primary key (Trino has none). */
    @Override
    protected List<String> schemaFixtureStatements() {
        return List.of(
                "DROP VIEW IF EXISTS " + SCHEMA_VIEW,
                "DROP TABLE IF EXISTS " + SCHEMA_TABLE,
                "CREATE TABLE " + SCHEMA_TABLE + " (id INTEGER NOT NULL, code VARCHAR(20) NOT NULL,"
                        + " label VARCHAR(40) COMMENT '" + COLUMN_COMMENT + "') COMMENT '" + TABLE_COMMENT + "'",
                "CREATE VIEW " + SCHEMA_VIEW + " AS SELECT id, label FROM " + SCHEMA_TABLE);
    }

    @Override
    protected boolean hasPrimaryKeys() {
        return false;
    }

    @Override
    protected Dialect createDialect(int poolSize) throws Exception {
        TestingTrino.require();
        if (proxy == null) {
            proxy = new TcpProxy(TestingTrino.address());
            PROXIES.add(proxy);
        }
        return new TrinoDialectFactory().create(
                TestingTrino.context("jdbc:trino://" + proxy.hostPort() + "/memory/" + SCHEMA, poolSize), Map.of());
    }

    /** CPU-bound, constant memory: 6 M x 1.5 M rows, hours on two cores. */
    @Override
    protected String slowQuery() {
        return "SELECT count(*) FROM tpch.sf1.lineitem l CROSS JOIN tpch.sf1.orders o WHERE l.orderkey + o.orderkey < 0";
    }

    /** 60 175 rows generated and counted: 0.3-1 s here. */
    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of("SELECT count(*) FROM tpch.tiny.lineitem");
    }

    /**
     * The memory connector refuses UPDATE and DELETE for every transaction ({@code NOT_SUPPORTED}, error 13), so the
     * contract's UPDATE/DELETE would not show the read-only transaction; these are writes it supports, and each is
     * refused with {@code READ_ONLY_VIOLATION} (23) in a read.
     */
    @Override
    protected List<String> writeStatements() {
        return List.of(
                "INSERT INTO " + TABLE + " (id, name) VALUES (99, 'intruder')",
                "TRUNCATE TABLE " + TABLE,
                "CREATE TABLE qag_contract_evil (x INTEGER)",
                "CREATE TABLE qag_contract_evil AS SELECT * FROM " + TABLE,
                "ALTER TABLE " + TABLE + " RENAME TO qag_contract_evil",
                "DROP TABLE " + TABLE);
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        String where = "SELECT current_catalog || '.' || current_schema";
        return List.of(
                SessionStateProbe.of("catalog and schema (USE)", "USE tpch.tiny", where, "memory." + SCHEMA),
                new SessionStateProbe("catalog and schema (USE, write call)", "USE tpch.tiny", AccessMode.WRITE, where,
                        "memory." + SCHEMA),
                SessionStateProbe.of("time zone (SET TIME ZONE)", "SET TIME ZONE 'Asia/Tokyo'",
                        "SELECT current_timezone()", "UTC"),
                SessionStateProbe.of("path (SET PATH)", "SET PATH tpch.tiny", "SELECT current_path", ""),
                SessionStateProbe.of("session property (SET SESSION)", "SET SESSION max_recursion_depth = 2",
                        RECURSION, "5"),
                new SessionStateProbe("session property (SET SESSION, write call)",
                        "SET SESSION max_recursion_depth = 2", AccessMode.WRITE, RECURSION, "5"),
                new SessionStateProbe("an open transaction (START TRANSACTION, write call)", "START TRANSACTION",
                        AccessMode.WRITE, "SELECT count(*) FROM " + TABLE, "5"));
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
