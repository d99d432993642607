package io.queryapigate.dialect.mysql;

import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The real MariaDB the tests run against, found by the testkit's {@link TestServers#mariadb()} (its one policy:
 * {@code QAG_MARIADB_URL}/{@code _USER}/{@code _PASSWORD}, else 127.0.0.1:3306 with test/test, else a Testcontainers
 * MariaDB 10.11 where Docker runs, never under CI=true). There is no skip: a missing server fails the tests, with
 * the command that starts one. The tests build their own {@code jdbc:mysql://} URLs from the server's host and port
 * (the dialect speaks Connector/J).
 *
 * <p>Tests create only databases, users and routines named {@code qag_my_*} and drop them afterwards; other test
 * classes share the server.
 */
final class TestingMariaDb {

    private TestingMariaDb() {}

    /** Fails (never skips) when there is no server. */
    static void require() {
        TestServers.mariadb();
    }

    /** The server's {@code host:port}. */
    static String hostPort() {
        return TestServers.mariadb().hostPort();
    }

    /** The server's address, for a {@link io.queryapigate.dialect.testkit.TcpProxy}. */
    static InetSocketAddress address() {
        return TestServers.mariadb().address();
    }

    static String user() {
        return TestServers.mariadb().user();
    }

    static String password() {
        return TestServers.mariadb().password();
    }

    static String url(String database, String extra) {
        return "jdbc:mysql://" + hostPort() + "/" + database + "?sslMode=DISABLED" + (extra.isEmpty() ? "" : "&" + extra);
    }

    /** A plain Connector/J connection as the admin test user (autocommit). */
    static Connection admin(String database) throws SQLException {
        require();
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        p.setProperty("allowMultiQueries", "false");
        return DriverManager.getConnection(url(database, ""), p);
    }

    static void exec(Connection c, String... statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    static String query(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    /** Creates (again) a scratch database. */
    static void recreateDatabase(String name) throws SQLException {
        try (Connection c = admin("test")) {
            exec(c, "DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
        }
    }

    static void dropDatabase(String name) throws SQLException {
        try (Connection c = admin("test")) {
            exec(c, "DROP DATABASE IF EXISTS " + name);
        }
    }

    static DialectContext context(String url, String user, String password, int poolSize) {
        return new DialectContext("mariadb-test", url, Optional.of(user), Optional.of(password),
                Duration.ofSeconds(30), 10_000, poolSize, Path.of("/tmp"));
    }

    static MySqlDialect dialect(String database, String urlExtra, Map<String, String> properties, int poolSize) {
        require();
        return (MySqlDialect) new MySqlDialectFactory()
                .create(context(url(database, urlExtra), user(), password(), poolSize), properties);
    }
}
