package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.dialect.testkit.AbstractDialectContractTest;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The dialect contract against the real PostgreSQL server, in pgjdbc's extended protocol (the default). Each
 * dialect reaches the server through a {@link TcpProxy}, which {@link #makeUnavailable} closes: the pooled
 * connection is cut and new ones are refused, as when the server stops. The fixture lives in a schema of this
 * class, set as the connections' startup {@code search_path} (which RESET ALL returns to).
 */
class PostgresDialectContractTest extends AbstractDialectContractTest {

    static final String SCHEMA = TestingPostgresServer.schemaName("contract");

    private final List<TcpProxy> proxies = new ArrayList<>();
    private final Map<Dialect, TcpProxy> proxyOf = new java.util.IdentityHashMap<>();

    @BeforeAll
    static void createSchema() throws Exception {
        TestingPostgresServer.get().createSchema(SCHEMA);
    }

    @AfterAll
    static void dropSchema() throws Exception {
        TestingPostgresServer.get().dropSchema(SCHEMA);
    }

    @AfterEach
    void closeProxies() {
        proxies.forEach(TcpProxy::close);
        proxies.clear();
        proxyOf.clear();
    }

    /** The dialect's properties; the simple-mode subclass changes the query mode. */
    protected Map<String, String> properties() {
        return Map.of();
    }

    @Override
    protected Dialect createDialect(int poolSize) throws Exception {
        TestingPostgresServer server = TestingPostgresServer.get();
        TcpProxy proxy = new TcpProxy(server.address());
        proxies.add(proxy);
        String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + server.databasePath();
        url = TestingPostgresServer.withParameters(url, "currentSchema=" + SCHEMA);
        Dialect dialect = new PostgresDialectFactory().create(server.context(url, poolSize), properties());
        proxyOf.put(dialect, proxy);
        return dialect;
    }

    @Override
    protected void setUpFixture(List<String> statements) throws Exception {
        List<String> all = new ArrayList<>();
        all.add("SET search_path TO " + SCHEMA);
        all.addAll(statements);
        TestingPostgresServer.get().run(all);
    }

    /** The fixture's schema in the server's database (the dialect's default namespace says {@code public}). */
    @Override
    protected TableNamespace fixtureNamespace(Dialect dialect) {
        return new TableNamespace(TestingPostgresServer.get().databasePath().substring(1).split("\\?")[0], SCHEMA);
    }

    /** pgjdbc reads NOT NULL from the catalog for table columns. */
    @Override
    protected boolean describesNullability() {
        return true;
    }

    @Override
    protected String slowQuery() {
        return "SELECT 1 FROM pg_sleep(600)";
    }

    @Override
    protected Optional<String> moderatelySlowQuery() {
        return Optional.of("SELECT 1 FROM pg_sleep(0.5)");
    }

    @Override
    protected List<SessionStateProbe> sessionStateProbes() {
        String timeZone;
        try (Connection connection = TestingPostgresServer.get().connect();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT current_setting('TimeZone')")) {
            result.next();
            // pgjdbc sends the JVM's zone at startup; RESET ALL returns to it
            timeZone = result.getString(1);
        } catch (Exception e) {
            throw new AssertionError("cannot read the default TimeZone", e);
        }
        String user = TestingPostgresServer.get().user();
        return List.of(
                SessionStateProbe.of("search_path", "SELECT set_config('search_path', 'pg_catalog', false)",
                        "SELECT current_setting('search_path')", SCHEMA),
                SessionStateProbe.of("TimeZone", "SELECT set_config('TimeZone', 'Asia/Tokyo', false)",
                        "SELECT current_setting('TimeZone')", timeZone),
                SessionStateProbe.of("statement_timeout", "SELECT set_config('statement_timeout', '1', false)",
                        "SELECT current_setting('statement_timeout')", "30s"),
                SessionStateProbe.of("default_transaction_read_only",
                        "SELECT set_config('default_transaction_read_only', 'on', false)",
                        "SELECT current_setting('default_transaction_read_only')", "off"),
                SessionStateProbe.of("transaction_read_only of the next call",
                        "SELECT set_config('default_transaction_read_only', 'off', false)",
                        "SELECT current_setting('transaction_read_only')", "on"),
                SessionStateProbe.of("application_name", "SELECT set_config('application_name', 'intruder', false)",
                        "SELECT current_setting('application_name')", "queryapigate"),
                SessionStateProbe.of("role", "SELECT set_config('role', 'pg_monitor', false)",
                        "SELECT current_user::text", user),
                SessionStateProbe.of("session advisory lock", "SELECT pg_advisory_lock(4711)",
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()", "0"),
                new SessionStateProbe("temporary table (created by a write)",
                        "CREATE TEMP TABLE " + TABLE + " AS SELECT 42 AS id",
                        AccessMode.WRITE, "SELECT count(*) FROM " + TABLE, "5"));
    }

    @Override
    protected void makeUnavailable(Dialect dialect) {
        proxyOf.get(dialect).close();
    }
}
