package io.queryapigate.dialect.trino;

import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import io.trino.jdbc.TrinoDriver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The real Trino the tests run against, found by the testkit's {@link TestServers#trino()}: {@code QAG_TRINO_URL}
 * (and {@code QAG_TRINO_USER}, default {@code test}; {@code scripts/test.sh} exports them from {@code
 * /tmp/qag-test-services.env}), else {@code jdbc:trino://127.0.0.1:18080} when that port answers (as {@code
 * scripts/test-services.sh} starts it), else a container where Docker runs (never under {@code CI=true}). There is
 * no skip: a missing server fails the tests, with the command that starts one. The server needs the {@code memory},
 * {@code tpch} and {@code blackhole} catalogs.
 *
 * <p>Tests create only schemas named {@code memory.qag_trino_*}; other test classes (and other modules' tests)
 * share the server, so every check of {@code system.runtime.queries} selects the test's own queries by a marker
 * comment or a unique {@code source}.
 */
final class TestingTrino {
    private static final TrinoDriver DRIVER = new TrinoDriver();

    private TestingTrino() {}

    /** Fails (never skips) when there is no server. */
    static void require() {
        TestServers.trino();
    }

    /** {@code jdbc:trino://host:port}, without catalog or schema. */
    static String url() {
        return "jdbc:trino://" + hostPort();
    }

    /** The server's {@code host:port}. */
    static String hostPort() {
        return TestServers.trino().hostPort();
    }

    /** The server's address, for a proxy in front of it. */
    static InetSocketAddress address() {
        return TestServers.trino().address();
    }

    static String user() {
        return TestServers.trino().user();
    }

    /** A plain trino-jdbc connection (auto-commit) for fixtures and checks, tagged with its own source. */
    static Connection admin() throws SQLException {
        require();
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("source", "qag-trino-test-admin");
        return DRIVER.connect(url(), p);
    }

    static void exec(String... statements) throws SQLException {
        try (Connection c = admin(); Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    static String query(String sql) throws SQLException {
        try (Connection c = admin(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static List<List<String>> rows(String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = admin(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** A schema of the memory catalog, created when missing. */
    static void schema(String name) throws SQLException {
        exec("CREATE SCHEMA IF NOT EXISTS memory." + name);
    }

    /**
     * The queries whose text contains {@code marker} (and are not this lookup itself), as {@code [query_id, state,
     * error_code]}, oldest first.
     */
    static List<List<String>> queriesMarked(String marker) throws SQLException {
        return rows("SELECT query_id, state, coalesce(error_code, '') FROM system.runtime.queries"
                + " WHERE strpos(query, '" + marker + "') > 0 AND strpos(query, 'system.runtime.queries') = 0"
                + " ORDER BY created");
    }

    /** The queries of one {@code source}, as {@code [query, state, error_code]}, oldest first. */
    static List<List<String>> queriesFrom(String source) throws SQLException {
        return rows("SELECT query, state, coalesce(error_code, '') FROM system.runtime.queries"
                + " WHERE source = '" + source + "' ORDER BY created");
    }

    /** Polls until no query containing {@code marker} is still queued or running; returns the last listing. */
    static List<List<String>> awaitNoneActive(String marker, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            List<List<String>> queries = queriesMarked(marker);
            boolean active = queries.stream().anyMatch(q -> !q.get(1).equals("FINISHED") && !q.get(1).equals("FAILED"));
            if (!active || System.nanoTime() > deadline) {
                return queries;
            }
            Thread.sleep(100);
        }
    }

    static DialectContext context(String url, int poolSize) {
        return new DialectContext("trino-test", url, Optional.of(user()), Optional.empty(), Duration.ofSeconds(30),
                10_000, poolSize, Path.of("/tmp"));
    }

    static TrinoDialect dialect(String catalogSchemaPath, Map<String, String> properties, int poolSize) {
        require();
        return (TrinoDialect) new TrinoDialectFactory().create(context(url() + catalogSchemaPath, poolSize), properties);
    }
}
