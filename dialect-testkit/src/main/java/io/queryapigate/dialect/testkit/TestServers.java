package io.queryapigate.dialect.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.MariaDBContainer;
import org.testcontainers.containers.PostgreSQLContainer;

/**
 * Finds the real database servers integration tests run against, in this order: an environment variable
 * ({@code QAG_PG_URL}, {@code QAG_MARIADB_URL}, with {@code _USER} and {@code _PASSWORD}; {@code scripts/test.sh}
 * exports them), then the standard local port (as {@code scripts/test-services.sh} starts the servers), then a
 * Testcontainers container where a Docker engine is reachable. Nothing is skipped: when none of the three is there
 * the test fails, with a message saying how to start the servers. Under {@code CI=true} the container fallback is
 * not used either, since CI starts the servers itself.
 */
public final class TestServers {
    /** A server's JDBC coordinates. */
    public record Server(String url, String user, String password, String source) {}

    private static final ConcurrentMap<String, Server> FOUND = new ConcurrentHashMap<>();

    private TestServers() {}

    /** PostgreSQL: database {@code test}, user {@code test}, a superuser. */
    public static Server postgres() {
        return FOUND.computeIfAbsent("postgres", k -> find("QAG_PG", "jdbc:postgresql://127.0.0.1:5432/test",
                () -> start(new PostgreSQLContainer<>("postgres:15").withDatabaseName("test").withUsername("test")
                        .withPassword("test"))));
    }

    /** MariaDB (or MySQL): database {@code test}, user {@code test} with all privileges. */
    public static Server mariadb() {
        return FOUND.computeIfAbsent("mariadb", k -> find("QAG_MARIADB", "jdbc:mysql://127.0.0.1:3306/test",
                () -> start(new MariaDBContainer<>("mariadb:10.11").withDatabaseName("test").withUsername("test")
                        .withPassword("test").withUrlParam("allowPublicKeyRetrieval", "true"))));
    }

    private static Server find(String prefix, String localUrl, java.util.function.Supplier<Server> container) {
        String url = System.getenv(prefix + "_URL");
        if (url != null && !url.isBlank()) {
            return new Server(url, env(prefix + "_USER", "test"), env(prefix + "_PASSWORD", "test"),
                    prefix + "_URL");
        }
        URI uri = URI.create(localUrl.substring("jdbc:".length()));
        if (listening(uri.getHost(), uri.getPort())) {
            return new Server(localUrl, "test", "test", "local port " + uri.getPort());
        }
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        if (!ci && dockerAvailable()) {
            return container.get();
        }
        throw new AssertionError("No server for " + prefix + ": set " + prefix + "_URL, or start the test servers"
                + " with scripts/test-services.sh start (scripts/test.sh does it)"
                + (ci ? "; CI=true: the servers must be started by the CI script" : ", or run Docker"));
    }

    private static Server start(JdbcDatabaseContainer<?> container) {
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "Testcontainers " + container.getDockerImageName());
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

    private static boolean listening(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
