package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Isolating services, the stronger setup of performance-on-mysql-v1: one server, a database per service, one
 * MariaDB user per service granted SELECT on its own database only, one QueryAPIGate connection (dialect) each.
 * The server itself refuses the other service's tables, whatever the SQL guard decides. (The allow-list half of
 * that report's case, crm.customer vs billing.customer under one shared user, is the service's SQL guard.)
 */
class MariaDbServiceIsolationTest {
    static final String CRM = "qag_my_crm";
    static final String BILLING = "qag_my_billing";
    static final String PASSWORD = "qag_my_Secret-1";
    static final List<String> HOSTS = List.of("localhost", "127.0.0.1");

    @BeforeAll
    static void createServices() throws Exception {
        TestingMariaDb.recreateDatabase(CRM);
        TestingMariaDb.recreateDatabase(BILLING);
        try (Connection c = TestingMariaDb.admin("test")) {
            for (String db : List.of(CRM, BILLING)) {
                TestingMariaDb.exec(c,
                        "CREATE TABLE " + db + ".customer (id INT PRIMARY KEY, name VARCHAR(50))",
                        "INSERT INTO " + db + ".customer VALUES (1, '" + db + " customer')",
                        "CREATE TABLE " + db + ".history (id INT PRIMARY KEY, amount DECIMAL(10,2))",
                        "INSERT INTO " + db + ".history VALUES (1, 9.99)");
                for (String host : HOSTS) {
                    String user = "'" + db + "'@'" + host + "'";
                    TestingMariaDb.exec(c, "DROP USER IF EXISTS " + user,
                            "CREATE USER " + user + " IDENTIFIED BY '" + PASSWORD + "'",
                            "GRANT SELECT ON " + db + ".* TO " + user);
                }
            }
        }
    }

    @AfterAll
    static void dropServices() throws Exception {
        try (Connection c = TestingMariaDb.admin("test")) {
            for (String db : List.of(CRM, BILLING)) {
                for (String host : HOSTS) {
                    TestingMariaDb.exec(c, "DROP USER IF EXISTS '" + db + "'@'" + host + "'");
                }
            }
        }
        TestingMariaDb.dropDatabase(CRM);
        TestingMariaDb.dropDatabase(BILLING);
    }

    private static MySqlDialect service(String db) {
        TestingMariaDb.require();
        return (MySqlDialect) new MySqlDialectFactory().create(
                TestingMariaDb.context(TestingMariaDb.url(db, ""), db, PASSWORD, 1), Map.of());
    }

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(10), 100);
    }

    private static DialectException refused(MySqlDialect d, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> d.execute(request, new RecordingSink()));
        assertThat(e).as("expected the server to refuse %s", request.sql()).isNotNull();
        return e;
    }

    @Test
    void eachServiceReadsItsOwnDatabaseAndTheServerRefusesTheOther() throws Exception {
        try (MySqlDialect crm = service(CRM); MySqlDialect billing = service(BILLING)) {
            RecordingSink own = new RecordingSink();
            crm.execute(read("SELECT name FROM customer"), own);
            assertThat(own.singleValue()).isEqualTo(CRM + " customer");
            RecordingSink qualified = new RecordingSink();
            crm.execute(read("SELECT name FROM " + CRM + ".customer"), qualified);
            assertThat(qualified.singleValue()).isEqualTo(CRM + " customer");

            for (String other : List.of("SELECT name FROM " + BILLING + ".customer",
                    "SELECT amount FROM " + BILLING + ".history",
                    "SELECT c.name FROM customer c JOIN " + BILLING + ".history h ON h.id = c.id")) {
                DialectException e = refused(crm, read(other));
                assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
                assertThat(e.getMessage()).contains("denied");
                assertThat(e.getMessage()).doesNotContain(PASSWORD);
            }
            DialectException back = refused(billing, read("SELECT name FROM " + CRM + ".customer"));
            assertThat(back.error()).isEqualTo(DialectError.PERMISSION_DENIED);

            // the grant is SELECT only: even a write call is refused by the server, as a permission
            DialectException write = refused(crm, read("DELETE FROM customer").withMode(AccessMode.WRITE));
            assertThat(write.error()).as(write.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            // and the service's user cannot switch databases either: the dialect refuses USE before sending it (it
            // would outlive the call), and the server refuses it as a permission
            DialectException use = refused(crm, read("USE " + BILLING));
            assertThat(use.error()).as(use.getMessage()).isEqualTo(DialectError.SYNTAX);
            java.util.Properties credentials = new java.util.Properties();
            credentials.setProperty("user", CRM);
            credentials.setProperty("password", PASSWORD);
            try (Connection plain = java.sql.DriverManager.getConnection(TestingMariaDb.url(CRM, ""), credentials)) {
                java.sql.SQLException denied = catchThrowableOfType(java.sql.SQLException.class,
                        () -> TestingMariaDb.exec(plain, "USE " + BILLING));
                assertThat((Throwable) denied).isNotNull();
                assertThat(denied.getErrorCode()).as(denied.getMessage()).isEqualTo(1044);
            }

            RecordingSink still = new RecordingSink();
            crm.execute(read("SELECT COUNT(*) FROM customer"), still);
            assertThat(still.singleValue()).isEqualTo(1L);
        }
    }

    @Test
    void aWrongPasswordIsAPermissionProblemNotAnOutage() {
        TestingMariaDb.require();
        try (MySqlDialect wrong = (MySqlDialect) new MySqlDialectFactory().create(
                TestingMariaDb.context(TestingMariaDb.url(CRM, ""), CRM, "not-the-password", 1),
                Map.of("mysql.connect_timeout", "2s"))) {
            DialectException e = refused(wrong, read("SELECT 1").withTimeout(Duration.ofSeconds(2)));
            assertThat(e.error()).as(e.getMessage()).isIn(DialectError.PERMISSION_DENIED, DialectError.UNAVAILABLE);
            assertThat(e.getMessage()).doesNotContain("not-the-password");
        }
    }
}
