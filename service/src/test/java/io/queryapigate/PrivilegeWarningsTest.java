package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.cli.GatewayCheckCommand;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.PrivilegeCheck;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The privilege warnings through the service's own path (dialects discovered with ServiceLoader, {@link
 * PrivilegeCheck}, the {@code check --connect} report) against the real PostgreSQL and MariaDB: their test users
 * (a superuser; ALL PRIVILEGES ON *.*) are warned about, least-privileged accounts created here are not.
 */
class PrivilegeWarningsTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final String PG_READER = "qag_svc_reader_" + PID;
    private static final String MY_READER = "qag_svc_reader_" + PID;
    private static final String PASSWORD = "qag-svc-privileges-pw";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final DialectRegistry DIALECTS = DialectRegistry.discover(PrivilegeWarningsTest.class.getClassLoader());
    private static TestingPostgres.Database pg;
    private static TestServers.Server maria;

    @BeforeAll
    static void leastPrivilegedAccounts() throws Exception {
        pg = TestingPostgres.server();
        maria = TestServers.mariadb();
        dropAccounts();
        String pgDatabase = database(pg.url());
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                Statement s = c.createStatement()) {
            // what docs/security.md recommends: CONNECT, USAGE on the schema, SELECT on the tables
            s.execute("CREATE ROLE " + PG_READER + " LOGIN PASSWORD '" + PASSWORD + "'");
            s.execute("GRANT CONNECT ON DATABASE " + pgDatabase + " TO " + PG_READER);
            s.execute("GRANT USAGE ON SCHEMA public TO " + PG_READER);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + PG_READER);
        }
        try (Connection c = DriverManager.getConnection(maria.url(), maria.user(), maria.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE USER '" + MY_READER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
            s.execute("GRANT SELECT ON " + database(maria.url()) + ".* TO '" + MY_READER + "'@'%'");
        }
    }

    @AfterAll
    static void dropAccounts() throws Exception {
        try (Connection c = DriverManager.getConnection(pg.url(), pg.user(), pg.password());
                Statement s = c.createStatement()) {
            s.execute("DO $$BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + PG_READER + "') THEN"
                    + " EXECUTE 'DROP OWNED BY " + PG_READER + "'; EXECUTE 'DROP ROLE " + PG_READER + "'; END IF; END$$");
        }
        try (Connection c = DriverManager.getConnection(maria.url(), maria.user(), maria.password());
                Statement s = c.createStatement()) {
            s.execute("DROP USER IF EXISTS '" + MY_READER + "'@'%'");
        }
    }

    private static String database(String jdbcUrl) {
        String path = jdbcUrl.substring(jdbcUrl.indexOf('/', jdbcUrl.indexOf("//") + 2) + 1);
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    private static List<String> warnings(String dialect, String url, String user, String password) {
        DialectContext context = new DialectContext("privileges", url, Optional.of(user), Optional.of(password),
                Duration.ofSeconds(30), 1000, 1, Path.of(System.getProperty("java.io.tmpdir")));
        try (Dialect d = DIALECTS.require(dialect, "privileges").create(context, Map.of())) {
            return PrivilegeCheck.warnings(d, TIMEOUT);
        }
    }

    @Test
    void thePostgresSuperuserIsWarnedAboutAndALeastPrivilegedRoleIsNot() {
        assertThat(warnings("postgres", pg.url(), pg.user(), pg.password())).singleElement().asString()
                .contains("is a superuser").contains("read and write files on the database server")
                .contains("terminate other sessions").contains("row-level security");
        assertThat(warnings("postgres", pg.url(), PG_READER, PASSWORD)).isEmpty();
    }

    @Test
    void theMariaDbRootLikeUserIsWarnedAboutAndAReaderIsNot() {
        String url = maria.url() + (maria.url().contains("?") ? "&" : "?") + "sslMode=DISABLED";
        assertThat(warnings("mysql", url, maria.user(), maria.password())).singleElement().asString()
                .contains("has ALL PRIVILEGES ON *.*").contains("read and write files");
        assertThat(warnings("mysql", url, MY_READER, PASSWORD)).isEmpty();
    }

    @Test
    void checkConnectReportsEveryConnectionAndClosesThem() throws Exception {
        GatewayConfiguration config = new GatewayConfiguration();
        config.setHome(Files.createTempDirectory("qag-check-connect-").toString());
        config.getConnections().put("sales", connection("postgres", pg.url(), pg.user(), pg.password()));
        config.getConnections().put("reports", connection("postgres", pg.url(), PG_READER, PASSWORD));
        ConnectionConfig demo = connection("duckdb", "demo.duckdb", null, null);
        demo.setProperties(Map.of("duckdb.read_only", "true",
                "duckdb.init_script", TestingConfig.repo().resolve("config/demo/demo-duckdb.sql").toString()));
        config.getConnections().put("demo", demo);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int count;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            count = GatewayCheckCommand.reportPrivileges(config, DIALECTS, out, TIMEOUT);
        }
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(count).isEqualTo(1);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("WARNING connection 'sales' (postgres): PostgreSQL role \""
                + pg.user() + "\" is a superuser");
        assertThat(lines.get(1)).isEqualTo("OK connection 'reports' (postgres): no privilege warnings");
        assertThat(lines.get(2)).isEqualTo("OK connection 'demo' (duckdb): no privilege warnings");
        assertThat(String.join("\n", lines)).doesNotContain(PASSWORD);
    }

    private static ConnectionConfig connection(String dialect, String url, String user, String password) {
        ConnectionConfig c = new ConnectionConfig();
        c.setDialect(dialect);
        c.setUrl(url);
        c.setUser(user);
        c.setPassword(password);
        c.setPoolSize(1);
        return c;
    }
}
