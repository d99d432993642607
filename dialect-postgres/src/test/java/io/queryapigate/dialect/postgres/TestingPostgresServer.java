package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.spi.DialectContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The real PostgreSQL server the tests run against, found in this order: the {@code QAG_PG_URL}, {@code
 * QAG_PG_USER} and {@code QAG_PG_PASSWORD} environment variables; the same keys in the file {@code
 * scripts/test-services.sh} writes ({@code QAG_ENV_FILE}, default {@code /tmp/qag-test-services.env}); a server
 * answering on {@code 127.0.0.1:5432} (database, user and password {@code test}, as that script creates them).
 *
 * <p>No server means the tests fail with a message saying how to start one: they are never skipped, in CI or
 * elsewhere. (Testcontainers is not used: the build machines have a Docker client but no engine, and no image
 * registry is reachable.)
 *
 * <p>Each test class works in a schema of its own, {@code qag_pg_<name>_<pid>}, which it creates and drops, because
 * other test classes and other builds share the server.
 */
final class TestingPostgresServer {

    private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    private static final TestingPostgresServer INSTANCE = locate();

    private final String url;
    private final String user;
    private final String password;
    private final String foundBy;

    private TestingPostgresServer(String url, String user, String password, String foundBy) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.foundBy = foundBy;
    }

    /**
     * The server; fails the calling test when there is none.
     *
     * @return the server
     */
    static TestingPostgresServer get() {
        INSTANCE.checkReachable();
        return INSTANCE;
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** Host and port of the URL. */
    InetSocketAddress address() {
        String rest = url.substring("jdbc:postgresql://".length());
        int slash = rest.indexOf('/');
        String hostPort = slash < 0 ? rest : rest.substring(0, slash);
        int colon = hostPort.lastIndexOf(':');
        String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
        int port = colon < 0 ? 5432 : Integer.parseInt(hostPort.substring(colon + 1));
        return new InetSocketAddress(host.isEmpty() ? "127.0.0.1" : host, port);
    }

    /** The URL's database path and query, e.g. {@code /test}. */
    String databasePath() {
        String rest = url.substring("jdbc:postgresql://".length());
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
        return withParameters(url, parameters);
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
        return connect(url);
    }

    Connection connect(String jdbcUrl) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
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
        return new DialectContext("pg-test", jdbcUrl, Optional.of(user), Optional.of(password), Duration.ofSeconds(30),
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

    private void checkReachable() {
        if (url == null) {
            throw new AssertionError("no PostgreSQL server for the tests: set QAG_PG_URL, QAG_PG_USER and"
                    + " QAG_PG_PASSWORD, or start one on 127.0.0.1:5432 with scripts/test-services.sh (SERVICES=postgres)."
                    + " These tests never skip. " + foundBy);
        }
    }

    private static TestingPostgresServer locate() {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (!env.containsKey("QAG_PG_URL")) {
            Path file = Path.of(env.getOrDefault("QAG_ENV_FILE", "/tmp/qag-test-services.env"));
            readEnvFile(file).forEach(env::putIfAbsent);
        }
        String url = env.get("QAG_PG_URL");
        if (url != null && !url.isBlank()) {
            return new TestingPostgresServer(url.strip(), env.getOrDefault("QAG_PG_USER", "test"),
                    env.getOrDefault("QAG_PG_PASSWORD", "test"), "found by QAG_PG_URL");
        }
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress("127.0.0.1", 5432), 2_000);
            return new TestingPostgresServer(DEFAULT_URL, "test", "test", "found on 127.0.0.1:5432");
        } catch (IOException e) {
            return new TestingPostgresServer(null, null, null, "127.0.0.1:5432: " + e.getMessage());
        }
    }

    private static Map<String, String> readEnvFile(Path file) {
        Map<String, String> values = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return values;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (!line.startsWith("#") && eq > 0 && line.startsWith("QAG_PG_")) {
                    values.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
                }
            }
        } catch (IOException ignored) {
            // an unreadable file is the same as none
        }
        return values;
    }
}
