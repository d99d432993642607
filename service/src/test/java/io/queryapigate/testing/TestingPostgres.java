package io.queryapigate.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The real servers the service tests need, found by the testkit's {@code TestServers} (environment variable, local
 * port, then Testcontainers where Docker exists; never skipped).
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
        io.queryapigate.dialect.testkit.TestServers.Server s = io.queryapigate.dialect.testkit.TestServers.postgres();
        return new Pg(s.url(), s.user(), s.password());
    }
}
