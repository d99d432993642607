package io.queryapigate.testing;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Finds the real servers the tests need: an environment variable first (scripts/test.sh exports them), then the
 * standard local port. There is no skipping: a missing server fails the test with a message saying how to start it.
 */
public final class TestServers {
    private TestServers() {}

    /** A PostgreSQL server: JDBC URL of its admin database, user, password. */
    public record Pg(String url, String user, String password) {
        /** A new empty database on the server, for one test class. */
        public Pg freshDatabase(String prefix) {
            String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            try (Connection c = DriverManager.getConnection(url, user, password);
                    Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + name);
            } catch (SQLException e) {
                throw new AssertionError("cannot create a test database on " + url, e);
            }
            int slash = url.lastIndexOf('/');
            int query = url.indexOf('?', slash);
            return new Pg(url.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query)), user,
                    password);
        }

        public void dropDatabase() {
            int slash = url.lastIndexOf('/');
            int query = url.indexOf('?', slash);
            String name = url.substring(slash + 1, query < 0 ? url.length() : query);
            String admin = url.substring(0, slash + 1) + "postgres";
            try (Connection c = DriverManager.getConnection(admin, user, password);
                    Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (SQLException e) {
                throw new AssertionError("cannot drop " + name, e);
            }
        }
    }

    public static Pg postgres() {
        String url = env("QAG_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = env("QAG_PG_USER", "test");
        String password = env("QAG_PG_PASSWORD", "test");
        URI uri = URI.create(url.substring("jdbc:".length()));
        int port = uri.getPort() < 0 ? 5432 : uri.getPort();
        if (!listening(uri.getHost(), port)) {
            throw new AssertionError("No PostgreSQL at " + url + ". Start the test servers with"
                    + " scripts/test-services.sh start (scripts/test.sh does it), or set QAG_PG_URL.");
        }
        return new Pg(url, user, password);
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    static boolean listening(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
