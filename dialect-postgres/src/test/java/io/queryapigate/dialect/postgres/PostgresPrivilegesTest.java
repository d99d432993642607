package io.queryapigate.dialect.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.DialectContext;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code privilegeWarnings} against the real server: the test user (a superuser), roles created here with
 * dangerous attributes and memberships (one inherited through an intermediate role), a least-privileged role, and
 * an unreachable server.
 */
class PostgresPrivilegesTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final String SCHEMA = TestingPostgresServer.schemaName("privileges");
    private static final String READER = "qag_pg_reader_" + PID;
    private static final String POWERFUL = "qag_pg_powerful_" + PID;
    private static final String GROUP = "qag_pg_group_" + PID;
    private static final String PASSWORD = "qag-privileges-test-pw";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static TestingPostgresServer server;

    @BeforeAll
    static void roles() throws Exception {
        server = TestingPostgresServer.get();
        dropRoles();
        server.createSchema(SCHEMA);
        String database = server.databasePath().substring(1).replaceAll("\\?.*", "");
        server.run("CREATE TABLE " + SCHEMA + ".t (id int)",
                "CREATE ROLE " + READER + " LOGIN PASSWORD '" + PASSWORD + "'",
                "GRANT CONNECT ON DATABASE " + database + " TO " + READER,
                "GRANT USAGE ON SCHEMA " + SCHEMA + " TO " + READER,
                "GRANT SELECT ON " + SCHEMA + ".t TO " + READER,
                "CREATE ROLE " + GROUP + " NOLOGIN",
                "GRANT pg_read_server_files TO " + GROUP,
                "CREATE ROLE " + POWERFUL + " LOGIN BYPASSRLS CREATEROLE PASSWORD '" + PASSWORD + "'",
                "GRANT pg_signal_backend, pg_monitor TO " + POWERFUL,
                "GRANT " + GROUP + " TO " + POWERFUL,
                "GRANT CONNECT ON DATABASE " + database + " TO " + POWERFUL);
    }

    @AfterAll
    static void dropRoles() throws Exception {
        server.dropSchema(SCHEMA);
        for (String role : List.of(POWERFUL, GROUP, READER)) {
            // DROP OWNED also revokes the role's privileges in this database, which DROP ROLE needs
            server.run("DO $$BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + role + "') THEN"
                    + " EXECUTE 'DROP OWNED BY " + role + "'; EXECUTE 'DROP ROLE " + role + "'; END IF; END$$");
        }
    }

    private static PostgresDialect dialect(String url, String user) {
        DialectContext context = new DialectContext("pg-privileges", url, Optional.of(user),
                Optional.of(user.equals(server.user()) ? server.password() : PASSWORD), Duration.ofSeconds(30),
                1000, 1, Path.of("."));
        return (PostgresDialect) new PostgresDialectFactory().create(context, Map.of());
    }

    @Test
    void theSuperuserGetsOneLineSayingSo() {
        try (PostgresDialect d = dialect(server.url(), server.user())) {
            List<String> warnings = d.privilegeWarnings(TIMEOUT);
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("\"" + server.user() + "\" is a superuser")
                    .contains("read and write files").contains("terminate other sessions")
                    .contains("row-level security").contains("docs/security.md");
        }
    }

    @Test
    void aLeastPrivilegedRoleGetsNone() {
        try (PostgresDialect d = dialect(server.url(), READER)) {
            assertThat(d.privilegeWarnings(TIMEOUT)).isEmpty();
        }
    }

    @Test
    void eachDangerousAttributeAndMembershipGetsItsLine() {
        try (PostgresDialect d = dialect(server.url(), POWERFUL)) {
            List<String> warnings = d.privilegeWarnings(TIMEOUT);
            assertThat(warnings).hasSize(5);
            assertThat(warnings.get(0)).contains("BYPASSRLS").contains("NOBYPASSRLS");
            assertThat(warnings.get(1)).contains("CREATEROLE").contains("NOCREATEROLE");
            // inherited through the intermediate role
            assertThat(warnings.get(2)).contains("member of pg_read_server_files").contains("read any file");
            assertThat(warnings.get(3)).contains("member of pg_signal_backend").contains("terminate other sessions");
            // pg_monitor includes pg_read_all_stats
            assertThat(warnings.get(4)).contains("member of pg_read_all_stats").contains("SQL text of every session");
            assertThat(String.join("\n", warnings)).doesNotContain(PASSWORD);
        }
    }

    @Test
    void anUnreachableServerGivesOneLineAndNoException() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (PostgresDialect d = dialect("jdbc:postgresql://127.0.0.1:" + closedPort + "/test", READER)) {
            long start = System.nanoTime();
            List<String> warnings = d.privilegeWarnings(Duration.ofMillis(800));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(warnings).singleElement().asString().startsWith("could not check the database user's privileges")
                    .doesNotContain(PASSWORD);
        }
    }

    @Test
    void theLinesFollowTheRoleAttributes() {
        assertThat(PostgresPrivileges.warnings("app", false, false, false, false, "")).isEmpty();
        assertThat(PostgresPrivileges.warnings("app", false, false, false, true, "")).singleElement().asString()
                .contains("REPLICATION").contains("ALTER ROLE \"app\" NOREPLICATION");
        assertThat(PostgresPrivileges.warnings("a\"b", false, false, false, false,
                "pg_execute_server_program,pg_write_server_files,pg_read_all_data,pg_write_all_data"))
                .hasSize(4).allSatisfy(line -> assertThat(line).contains("\"a\"\"b\""));
        // a superuser is reported once, whatever else it has
        assertThat(PostgresPrivileges.warnings("root", true, true, true, true, "pg_signal_backend")).hasSize(1);
    }
}
