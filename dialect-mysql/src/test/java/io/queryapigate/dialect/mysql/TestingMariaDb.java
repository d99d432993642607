package io.queryapigate.dialect.mysql;

import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
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
 * The real MariaDB the tests run against, found by the testkit's {@link TestServers#mariadb()}: {@code
 * QAG_MARIADB_URL}/{@code _USER}/{@code _PASSWORD} when set, else 127.0.0.1:3306 with test/test when that port
 * answers, else a Testcontainers MariaDB 10.11 where Docker runs (never under CI=true). There is no skip: a missing
 * server fails the tests, with the command that starts one. The tests build their own {@code jdbc:mysql://} URLs
 * from the server's host and port (the dialect speaks Connector/J).
 *
 * <p>Tests create only databases, users and routines named {@code qag_my_*} and drop them afterwards; other test
 * classes share the server.
 */
final class TestMariaDb {
    static final String HOST_PORT;
    static final String USER;
    static final String PASSWORD;
    private static final AssertionError MISSING;

    static {
        String hostPort = "127.0.0.1:3306";
        String user = "test";
        String password = "test";
        AssertionError missing = null;
        try {
            TestServers.Server server = TestServers.mariadb();
            String url = server.url();
            String rest = url.substring(url.indexOf("://") + 3);
            int end = rest.indexOf('/');
            hostPort = end < 0 ? rest : rest.substring(0, end);
            user = server.user();
            password = server.password();
        } catch (AssertionError e) {
            missing = e;
        }
        HOST_PORT = hostPort;
        USER = user;
        PASSWORD = password;
        MISSING = missing;
    }

    private TestMariaDb() {}

    /** Fails (never skips) when the server does not answer. */
    static void require() {
        if (MISSING != null) {
            throw new AssertionError(MISSING.getMessage() + ". These tests never skip.", MISSING);
        }
        String[] hp = HOST_PORT.split(":");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hp[0], hp.length > 1 ? Integer.parseInt(hp[1]) : 3306), 2000);
        } catch (IOException e) {
            throw new AssertionError("MariaDB is not reachable at " + HOST_PORT + " (QAG_MARIADB_URL"
                    + (System.getenv("CI") != null ? ", CI=" + System.getenv("CI") : "") + "): start it with"
                    + " 'SERVICES=mariadb scripts/test-services.sh start'. These tests never skip.", e);
        }
    }

    static String url(String database, String extra) {
        return "jdbc:mysql://" + HOST_PORT + "/" + database + "?sslMode=DISABLED" + (extra.isEmpty() ? "" : "&" + extra);
    }

    /** A plain Connector/J connection as the admin test user (autocommit). */
    static Connection admin(String database) throws SQLException {
        require();
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", PASSWORD);
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
                .create(context(url(database, urlExtra), USER, PASSWORD, poolSize), properties);
    }
}
