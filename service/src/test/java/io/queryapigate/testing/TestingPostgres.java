package io.queryapigate.testing;

import io.queryapigate.dialect.testkit.TestServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Databases on the real PostgreSQL for the service tests. The server is found by the testkit's {@link
 * TestServers#postgres()} (environment variable, local port, then Testcontainers where Docker exists; never
 * skipped); this fixture adds a fresh database per test class, since the service's store migrates its own.
 */
public final class TestingPostgres {
    private TestingPostgres() {}

    /** A database on the server: JDBC URL, user, password. */
    public record Database(String url, String user, String password) {

        /** Drops this database (a fresh one), closing whatever is still connected to it. */
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

    /** The server's own test database (shared: do not migrate a store into it). */
    public static Database server() {
        TestServers.Server s = TestServers.postgres();
        return new Database(s.url(), s.user(), s.password());
    }

    /**
     * A new empty database on the server, for one test class.
     *
     * @param prefix the name's start; a random suffix follows
     * @return the database
     */
    public static Database freshDatabase(String prefix) {
        Database server = server();
        String url = server.url();
        String name = prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(url, server.user(), server.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new AssertionError("cannot create a test database on " + url, e);
        }
        int slash = url.lastIndexOf('/');
        int query = url.indexOf('?', slash);
        return new Database(url.substring(0, slash + 1) + name + (query < 0 ? "" : url.substring(query)),
                server.user(), server.password());
    }
}
