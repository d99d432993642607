package io.queryapigate.dialect.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.MariaDBContainer;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;

/**
 * Finds the real servers the tests run against: PostgreSQL, MariaDB, Redis, ClickHouse, Trino and a MongoDB-protocol
 * server (FerretDB), all by one policy,
 * in this order:
 *
 * <ol>
 *   <li>the environment variable ({@code QAG_PG_URL}, {@code QAG_MARIADB_URL}, {@code QAG_REDIS_URL}, {@code
 *       QAG_CLICKHOUSE_URL}, {@code QAG_TRINO_URL}, {@code QAG_MONGO_URL}, with {@code _USER} and {@code _PASSWORD} where the server has
 *       them; {@code scripts/test.sh} exports them from the file {@code scripts/test-services.sh} writes);
 *   <li>the local standard port (5432, 3306, 6379, 8123, 18080, 27017: where {@code scripts/test-services.sh start} runs
 *       them), with the test credentials;
 *   <li>a Testcontainers container where a Docker engine is reachable, except under {@code CI=true} (CI starts the
 *       servers itself).
 * </ol>
 *
 * <p>Nothing is skipped: without a server the call fails, with a message naming the variable and {@code
 * scripts/test-services.sh start}; a server named by a variable that does not answer fails the same way. A server
 * is looked for once per JVM (the failure too). Module fixtures ({@code TestingMariaDb}, {@code TestingTrino}, ...)
 * get their coordinates here and add what their tests need (fresh databases, schemas, plain connections).
 */
public final class TestServers {

    /**
     * A server's coordinates.
     *
     * @param url its URL as clients take it: {@code jdbc:postgresql://...}, {@code jdbc:mysql://...}, {@code
     *     redis://...}, {@code http://...} (ClickHouse), {@code jdbc:trino://...}
     * @param user the user ({@code ""} for Redis)
     * @param password the password ({@code ""} for none)
     * @param source where it was found, for messages: the variable, the local port or the container image
     */
    public record Server(String url, String user, String password, String source) {
        private static final Map<String, Integer> DEFAULT_PORTS = Map.of("postgresql", 5432, "mysql", 3306,
                "mariadb", 3306, "redis", 6379, "http", 80, "https", 443, "trino", 8080, "mongodb", 27017);

        private URI uri() {
            return URI.create(url.startsWith("jdbc:") ? url.substring("jdbc:".length()) : url);
        }

        /**
         * Runs {@code statements} on the server as its user, through plain JDBC (the driver on the caller's class
         * path), to prepare a test's tables.
         *
         * @throws AssertionError naming the server when one fails
         */
        public void execute(String... statements) {
            try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, user, password);
                    java.sql.Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement);
                }
            } catch (java.sql.SQLException e) {
                throw new AssertionError("cannot prepare " + url, e);
            }
        }

        /** The URL's host. */
        public String host() {
            String host = uri().getHost();
            return host == null || host.isEmpty() ? "127.0.0.1" : host;
        }

        /** The URL's port, or the scheme's default. */
        public int port() {
            URI uri = uri();
            return uri.getPort() >= 0 ? uri.getPort() : DEFAULT_PORTS.getOrDefault(uri.getScheme(), -1);
        }

        /** {@code host:port}, e.g. to build a URL of another driver or through a {@link TcpProxy}. */
        public String hostPort() {
            return host() + ":" + port();
        }

        /** Host and port, e.g. for a {@link TcpProxy}. */
        public InetSocketAddress address() {
            return new InetSocketAddress(host(), port());
        }
    }

    private static final ConcurrentMap<String, Object> FOUND = new ConcurrentHashMap<>();

    private TestServers() {}

    /** PostgreSQL 15: database {@code test}, user {@code test}, a superuser. */
    public static Server postgres() {
        return find("PostgreSQL", "QAG_PG", "jdbc:postgresql://127.0.0.1:5432/test", "test", "test",
                () -> jdbc(new PostgreSQLContainer<>("postgres:15").withDatabaseName("test").withUsername("test")
                        .withPassword("test")));
    }

    /** MariaDB 10.11 (spoken to as MySQL): database {@code test}, user {@code test} with all privileges. */
    public static Server mariadb() {
        return find("MariaDB", "QAG_MARIADB", "jdbc:mysql://127.0.0.1:3306/test", "test", "test",
                () -> jdbc(new MariaDBContainer<>("mariadb:10.11").withDatabaseName("test").withUsername("test")
                        .withPassword("test").withUrlParam("allowPublicKeyRetrieval", "true")));
    }

    /** Redis 7: no password; the URL is {@code redis://host:port}. */
    public static Server redis() {
        return find("Redis", "QAG_REDIS", "redis://127.0.0.1:6379", "", "", () -> {
            GenericContainer<?> c = started(new GenericContainer<>("redis:7.0").withExposedPorts(6379));
            return new Server("redis://" + c.getHost() + ":" + c.getMappedPort(6379), "", "",
                    "Testcontainers redis:7.0");
        });
    }

    /** ClickHouse over HTTP (the tests' server is 18.16): user {@code default}, no password; no trailing slash. */
    public static Server clickhouse() {
        return find("ClickHouse", "QAG_CLICKHOUSE", "http://127.0.0.1:8123", "default", "", () -> {
            GenericContainer<?> c = started(new GenericContainer<>("yandex/clickhouse-server:18.16")
                    .withExposedPorts(8123).waitingFor(Wait.forHttp("/ping").forPort(8123)));
            return new Server("http://" + c.getHost() + ":" + c.getMappedPort(8123), "default", "",
                    "Testcontainers yandex/clickhouse-server:18.16");
        });
    }

    /** Trino 476 with the catalogs {@code memory}, {@code tpch} and {@code blackhole}: user {@code test}, no password. */
    public static Server trino() {
        return find("Trino", "QAG_TRINO", "jdbc:trino://127.0.0.1:18080", "test", "", () -> {
            GenericContainer<?> c = started(new GenericContainer<>("trinodb/trino:476").withExposedPorts(8080)
                    .withCopyToContainer(Transferable.of("connector.name=blackhole\n"),
                            "/etc/trino/catalog/blackhole.properties")
                    .waitingFor(Wait.forLogMessage(".*SERVER STARTED.*", 1).withStartupTimeout(Duration.ofMinutes(3))));
            return new Server("jdbc:trino://" + c.getHost() + ":" + c.getMappedPort(8080), "test", "",
                    "Testcontainers trinodb/trino:476");
        });
    }

    /**
     * A MongoDB-protocol server without authentication: FerretDB 1.24 (SQLite backend) as {@code
     * scripts/test-services.sh} runs it, else MongoDB 7 in a container; the URL is {@code mongodb://host:port}.
     */
    public static Server mongo() {
        return find("MongoDB (FerretDB)", "QAG_MONGO", "mongodb://127.0.0.1:27017", "", "", () -> {
            GenericContainer<?> c = started(new GenericContainer<>("mongo:7.0").withExposedPorts(27017));
            return new Server("mongodb://" + c.getHost() + ":" + c.getMappedPort(27017), "", "",
                    "Testcontainers mongo:7.0");
        });
    }

    private static Server find(String name, String prefix, String localUrl, String localUser, String localPassword,
            Supplier<Server> container) {
        Object found = FOUND.computeIfAbsent(prefix, k -> locate(name, prefix, localUrl, localUser, localPassword,
                container));
        if (found instanceof Server server) {
            return server;
        }
        throw new AssertionError((String) found);
    }

    /** The server, or the message to fail with. */
    private static Object locate(String name, String prefix, String localUrl, String localUser, String localPassword,
            Supplier<Server> container) {
        String variable = prefix + "_URL";
        String how = "start the test servers with scripts/test-services.sh start (scripts/test.sh does it)";
        String url = env(variable, null);
        if (url != null) {
            Server server = new Server(url.strip().replaceAll("/+$", ""), env(prefix + "_USER", localUser),
                    env(prefix + "_PASSWORD", localPassword), variable);
            if (!listening(server.address())) {
                return name + " at " + server.url() + " (" + variable + ") does not answer: " + how
                        + ", or correct " + variable + ". These tests never skip.";
            }
            return server;
        }
        int localPort = new Server(localUrl, localUser, localPassword, "").port();
        Server local = new Server(localUrl, localUser, localPassword, "local port " + localPort);
        if (listening(local.address())) {
            return local;
        }
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci && dockerAvailable()) {
            try {
                return container.get();
            } catch (RuntimeException e) {
                return "No " + name + " for the tests: " + variable + " is not set, nothing answers on "
                        + local.hostPort() + " and its Testcontainers container did not start (" + e + "): " + how
                        + ", or set " + variable + ". These tests never skip.";
            }
        }
        return "No " + name + " for the tests: " + variable + " is not set and nothing answers on " + local.hostPort()
                + (ci ? " (CI=true: no container fallback, the CI script must start the servers)"
                        : " (and no Docker engine for a container)")
                + ": " + how + ", or set " + variable + ". These tests never skip.";
    }

    private static Server jdbc(JdbcDatabaseContainer<?> container) {
        started(container);
        return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "Testcontainers " + container.getDockerImageName());
    }

    private static <C extends GenericContainer<?>> C started(C container) {
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        return container;
    }

    private static boolean dockerAvailable() {
        if (!Files.exists(Path.of("/var/run/docker.sock")) && System.getenv("DOCKER_HOST") == null) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    private static boolean listening(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, 1000);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
