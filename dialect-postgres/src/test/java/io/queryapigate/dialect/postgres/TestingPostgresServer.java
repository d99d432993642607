package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The real PostgreSQL server the tests run against, found by the testkit's {@link TestServers#postgres()}: the
 * {@code QAG_PG_URL}, {@code QAG_PG_USER} and {@code QAG_PG_PASSWORD} environment variables, else a server answering
 * on {@code 127.0.0.1:5432} (database, user and password {@code test}, as {@code scripts/test-services.sh} creates
 * them), else a container where Docker runs (never under {@code CI=true}).
 *
 * <p>No server means the tests fail with a message saying how to start one: they are never skipped, in CI or
 * elsewhere.
 *
 * <p>Each test class works in a schema of its own, {@code qag_pg_<name>_<pid>}, which it creates and drops, because
 * other test classes and other builds share the server.
 */
final class TestingPostgresServer {

    private final TestServers.Server server;

    private TestingPostgresServer(TestServers.Server server) {
        this.server = server;
    }

    /**
     * The server; fails the calling test when there is none.
     *
     * @return the server
     */
    static TestingPostgresServer get() {
        return new TestingPostgresServer(TestServers.postgres());
    }

    String url() {
        return server.url();
    }

    String user() {
        return server.user();
    }

    String password() {
        return server.password();
    }

    /** Host and port of the URL. */
    InetSocketAddress address() {
        return server.address();
    }

    /** The URL's database path and query, e.g. {@code /test}. */
    String databasePath() {
        String rest = url().substring("jdbc:postgresql://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? "/" : rest.substring(slash);
    }

    /**
     * The URL with extra pgjdbc parameters appended.
     *
     * @param parameters {@code key=value} pairs
     * @return the URL
     */
    String url(String... parameters) {
        return withParameters(url(), parameters);
    }

    static String withParameters(String base, String... parameters) {
        if (parameters.length == 0) {
            return base;
        }
        return base + (base.contains("?") ? "&" : "?") + String.join("&", parameters);
    }

    /**
     * A plain pgjdbc connection (not through the dialect), autocommit on.
     *
     * @return the connection
     * @throws SQLException when the server refuses it
     */
    Connection connect() throws SQLException {
        return connect(url());
    }

    Connection connect(String jdbcUrl) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        properties.setProperty("password", password());
        return DriverManager.getConnection(jdbcUrl, properties);
    }

    /**
     * Runs statements on a plain connection.
     *
     * @param statements the SQL
     * @throws SQLException when one fails
     */
    void run(String... statements) throws SQLException {
        run(List.of(statements));
    }

    void run(List<String> statements) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * A schema name for a test class, unique per JVM.
     *
     * @param name a short lowercase name
     * @return {@code qag_pg_<name>_<pid>}
     */
    static String schemaName(String name) {
        return "qag_pg_" + name + "_" + ProcessHandle.current().pid();
    }

    void createSchema(String schema) throws SQLException {
        run("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema);
    }

    void dropSchema(String schema) throws SQLException {
        run("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    /**
     * A dialect context for {@code jdbcUrl}.
     *
     * @param jdbcUrl the URL
     * @param poolSize the pool size
     * @return the context
     */
    DialectContext context(String jdbcUrl, int poolSize) {
        return new DialectContext("pg-test", jdbcUrl, Optional.of(user()), Optional.of(password()), Duration.ofSeconds(30),
                100_000, poolSize, Path.of("."));
    }

    /**
     * A dialect on this server, its connections' search_path set to {@code schema} at startup (so that RESET ALL
     * returns to it).
     *
     * @param schema the schema, or null for the server's default
     * @param poolSize the pool size
     * @param properties the dialect properties
     * @param urlParameters extra URL parameters
     * @return the dialect
     */
    PostgresDialect dialect(String schema, int poolSize, Map<String, String> properties, String... urlParameters) {
        String[] all = urlParameters;
        if (schema != null) {
            all = new String[urlParameters.length + 1];
            all[0] = "currentSchema=" + schema;
            System.arraycopy(urlParameters, 0, all, 1, urlParameters.length);
        }
        return (PostgresDialect) new PostgresDialectFactory().create(context(url(all), poolSize), properties);
    }
}
