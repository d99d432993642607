package io.queryapigate.dialect.mysql;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dialect contract on the real MariaDB, in its own database {@value #DB}.
 *
 * <p>{@link #makeUnavailable}: the dialect reaches MariaDB through a loopback {@link TcpProxy}, which the test
 * closes: listening stops and every forwarded connection is cut. To the driver that is exactly a dead server (new
 * connections refused, pooled ones at end-of-stream), without stopping the MariaDB other test classes share. Killing
 * the pooled connection's thread with KILL would not do: the pool would simply reconnect.
 */
class MySqlDialectContractTest extends AbstractDialectContractTest {
    static final String DB = "qag_my_contract";
    private TcpProxy proxy;

    @BeforeAll
    static void createDatabase() throws Exception {
        TestingMariaDb.recreateDatabase(DB);
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        TestingMariaDb.dropDatabase(DB);
    }

    @AfterEach
    void closeProxy() {
        if (proxy != null) {
            proxy.close();
            proxy = null;
        }
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, statements.toArray(String[]::new));
        }
    }

    /**
     * The portable fixture with one change: {@code updated_at} is a {@code DATETIME}. MySQL's {@code TIMESTAMP} is
     * an epoch type converted through the session time zone, and ends at 2038-01-19 03:14:07 UTC, one second before
     * the fixture's last value; {@code DATETIME} is the wall-clock type the contract means (JDBC TIMESTAMP).
     */
    @Override
    protected List<String> fixtureStatements() {
        return FIXTURE_SQL.stream().map(s -> s.replace("updated_at TIMESTAMP)", "updated_at DATETIME)")).toList();
    }

    /** MySQL's comments are part of CREATE TABLE; a view has none. */
    @Override
    protected List<String> schemaFixtureStatements() {
        return List.of(
                "DROP VIEW IF EXISTS " + SCHEMA_VIEW,
                "DROP TABLE IF EXISTS " + SCHEMA_TABLE,
                "CREATE TABLE " + SCHEMA_TABLE + " (id INTEGER NOT NULL, code VARCHAR(20) NOT NULL,"
                        + " label VARCHAR(40) COMMENT '" + COLUMN_COMMENT + "', PRIMARY KEY (id, code))"
                        + " COMMENT = '" + TABLE_COMMENT + "'",
                "CREATE VIEW " + SCHEMA_VIEW + " AS SELECT id, label FROM " + SCHEMA_TABLE);
    }

    @Override
    protected Dialect createDialect(int poolSize) throws Exception {
        TestingMariaDb.require();
        if (proxy == null) {
            proxy = new TcpProxy(TestingMariaDb.address());
        }
        String url = "jdbc:mysql://" + proxy.hostPort() + "/" + DB + "?sslMode=DISABLED";
        return new MySqlDialectFactory().create(
                TestingMariaDb.context(url, TestingMariaDb.user(), TestingMariaDb.password(), poolSize),
                Map.of("mysql.connect_timeout", "2s"));
    }

    /** The server's column definitions carry a NOT NULL flag. */
    @Override
    protected boolean describesNullability() {
        return true;
    }

    @Override
    protected String slowQuery() {
        return "SELECT SLEEP(600)";
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of("SELECT SLEEP(1)");
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        return List.of(
                SessionStateProbe.of("time_zone", "SET time_zone = '+09:00'", "SELECT @@session.time_zone", "SYSTEM"),
                SessionStateProbe.of("sql_select_limit", "SET sql_select_limit = 1",
                        "SELECT COUNT(*) FROM (SELECT id FROM qag_contract LIMIT 3) x", "3"),
                SessionStateProbe.of("read-only default", "SET SESSION TRANSACTION READ WRITE",
                        "SELECT @@session.tx_read_only", "1"),
                SessionStateProbe.of("sql_mode", "SET sql_mode = 'ANSI_QUOTES'",
                        "SELECT INSTR(@@session.sql_mode, 'ANSI_QUOTES')", "0"),
                SessionStateProbe.of("open transaction", "START TRANSACTION",
                        "SELECT COUNT(*) FROM qag_contract", "5"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) {
        proxy.close();
    }
}
