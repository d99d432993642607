package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code privilegeWarnings} against the real MariaDB: the test user (ALL PRIVILEGES ON *.*), accounts created here
 * (a reader with SELECT on one database; an account with SUPER, PROCESS and global writes of its own and FILE through
 * its default role), an unreachable server; and the parsing of MySQL 8's SHOW GRANTS forms.
 */
class MySqlPrivilegesTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final String DATABASE = "qag_my_priv_" + PID;
    private static final String READER = "qag_my_reader_" + PID;
    private static final String POWERFUL = "qag_my_powerful_" + PID;
    private static final String ROLE = "qag_my_role_" + PID;
    private static final String PASSWORD = "qag-privileges-test-pw";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @BeforeAll
    static void accounts() throws Exception {
        dropAccounts();
        TestingMariaDb.recreateDatabase(DATABASE);
        try (Connection c = TestingMariaDb.admin("test")) {
            TestingMariaDb.exec(c,
                    "CREATE TABLE " + DATABASE + ".t (id INT)",
                    "CREATE USER '" + READER + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                    "GRANT SELECT ON " + DATABASE + ".* TO '" + READER + "'@'%'",
                    "CREATE ROLE " + ROLE,
                    "GRANT FILE ON *.* TO " + ROLE,
                    "CREATE USER '" + POWERFUL + "'@'%' IDENTIFIED BY '" + PASSWORD + "'",
                    "GRANT SUPER, PROCESS, INSERT, DELETE ON *.* TO '" + POWERFUL + "'@'%'",
                    "GRANT SELECT ON " + DATABASE + ".* TO '" + POWERFUL + "'@'%'",
                    "GRANT " + ROLE + " TO '" + POWERFUL + "'@'%'",
                    "SET DEFAULT ROLE " + ROLE + " FOR '" + POWERFUL + "'@'%'");
        }
    }

    @AfterAll
    static void dropAccounts() throws Exception {
        try (Connection c = TestingMariaDb.admin("test")) {
            TestingMariaDb.exec(c, "DROP USER IF EXISTS '" + READER + "'@'%'", "DROP USER IF EXISTS '" + POWERFUL + "'@'%'",
                    "DROP ROLE IF EXISTS " + ROLE);
        }
        TestingMariaDb.dropDatabase(DATABASE);
    }

    private static MySqlDialect dialect(String url, String user, String password) {
        return (MySqlDialect) new MySqlDialectFactory().create(TestingMariaDb.context(url, user, password, 1), Map.of());
    }

    @Test
    void theTestUserHasAllPrivilegesInOneLine() {
        try (MySqlDialect d = dialect(TestingMariaDb.url("test", ""), TestingMariaDb.user(), TestingMariaDb.password())) {
            List<String> warnings = d.privilegeWarnings(TIMEOUT);
            assertThat(warnings).singleElement().asString().contains("has ALL PRIVILEGES ON *.*")
                    .contains("read and write files").contains("GRANT SELECT ON db.*")
                    .doesNotContain("PASSWORD").doesNotContain("*"  + "94");
        }
    }

    @Test
    void aReaderOfOneDatabaseGetsNone() {
        try (MySqlDialect d = dialect(TestingMariaDb.url(DATABASE, ""), READER, PASSWORD)) {
            assertThat(d.privilegeWarnings(TIMEOUT)).isEmpty();
        }
    }

    @Test
    void globalPowersGetALineEachAlsoThroughTheDefaultRole() {
        try (MySqlDialect d = dialect(TestingMariaDb.url(DATABASE, ""), POWERFUL, PASSWORD)) {
            List<String> warnings = d.privilegeWarnings(TIMEOUT);
            assertThat(warnings).hasSize(4);
            assertThat(warnings.get(0)).startsWith("MySQL/MariaDB account '" + POWERFUL + "'@'%' has SUPER ON *.*")
                    .contains("kill other sessions").contains("REVOKE SUPER ON *.* FROM `" + POWERFUL + "`@`%`");
            assertThat(warnings.get(1)).contains("has FILE ON *.* (granted to `" + ROLE + "`)")
                    .contains("REVOKE FILE ON *.* FROM `" + ROLE + "`");
            assertThat(warnings.get(2)).contains("has PROCESS").contains("SQL text of every session");
            assertThat(warnings.get(3)).contains("has INSERT, DELETE ON *.*").contains("change every database");
            assertThat(String.join("\n", warnings)).doesNotContain("IDENTIFIED");
        }
    }

    @Test
    void anUnreachableServerGivesOneLineAndNoException() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (MySqlDialect d = dialect("jdbc:mysql://127.0.0.1:" + closedPort + "/test?sslMode=DISABLED", READER,
                PASSWORD)) {
            long start = System.nanoTime();
            List<String> warnings = d.privilegeWarnings(Duration.ofMillis(800));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(warnings).singleElement().asString()
                    .startsWith("could not check the database user's privileges").doesNotContain(PASSWORD);
        }
    }

    @Test
    void mysql8FormsAreRead() {
        List<String> grants = List.of(
                "GRANT USAGE ON *.* TO `app`@`%`",
                "GRANT SELECT ON `shop`.* TO `app`@`%`",
                "GRANT CONNECTION_ADMIN,SYSTEM_VARIABLES_ADMIN ON *.* TO `app`@`%`",
                "GRANT RELOAD ON *.* TO `app`@`%` WITH GRANT OPTION",
                "GRANT `reporting`@`%` TO `app`@`%`",
                "GRANT PROXY ON ``@`` TO `app`@`%`");
        List<String> warnings = MySqlPrivileges.warnings("app@%", grants);
        assertThat(warnings).hasSize(3);
        assertThat(warnings.get(0)).contains("CONNECTION ADMIN").contains("kill other accounts' sessions");
        assertThat(warnings.get(1)).contains("SYSTEM VARIABLES ADMIN");
        assertThat(warnings.get(2)).contains("GRANT OPTION").contains("give its privileges to other accounts");
        assertThat(MySqlPrivileges.warnings("app@%", List.of("GRANT SELECT ON *.* TO 'app'@'%'")))
                .singleElement().asString().contains("read every database").contains("mysql system schema");
        assertThat(MySqlPrivileges.warnings(null, List.of("GRANT ALL ON *.* TO 'root'@'localhost'")))
                .singleElement().asString().contains("of this connection has ALL PRIVILEGES");
        assertThat(MySqlPrivileges.warnings("app@%", List.of("GRANT ALL PRIVILEGES ON `shop`.* TO `app`@`%`")))
                .isEmpty();
    }
}
