package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingBrowser;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.net.URI;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Console sessions on a PostgreSQL store shared by two instances: a sign-in through Keycloak on one is a session on
 * both, and a sign-out or a deactivation on one ends it on the other at the next request.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SsoSessionsPostgresIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_sso");
    private static final String STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\n";

    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    SsoSignInIT.ssoYaml(STORE)).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    SsoSignInIT.ssoYaml(STORE)).toString());

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static String base(DropwizardAppExtension<GatewayConfiguration> app) {
        return "http://127.0.0.1:" + app.getLocalPort();
    }

    /** The browser's cookies for A, sent to B (both on 127.0.0.1, as one site behind a load balancer would be). */
    private static TestingBrowser onB(TestingBrowser browser) {
        TestingBrowser b = new TestingBrowser();
        URI a = URI.create(base(A));
        URI other = URI.create(base(B));
        b.setCookie(other, TestingBrowser.SESSION, browser.cookie(a, TestingBrowser.SESSION));
        b.setCookie(other, TestingBrowser.CSRF, browser.cookie(a, TestingBrowser.CSRF));
        return b;
    }

    private static void sql(String statement) {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            s.executeUpdate(statement);
        } catch (SQLException e) {
            throw new AssertionError(statement, e);
        }
    }

    @Test
    void aSignOutOnOneInstanceEndsTheSessionOnTheOther() {
        TestingBrowser alice = new TestingBrowser().signIn(base(A), "alice");
        TestingBrowser sameOnB = onB(alice);
        HttpResponse<String> me = sameOnB.withSession("GET", URI.create(base(B) + "/api/v1/me"));
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(me.body()).contains("\"name\":\"alice\"");
        assertThat(sameOnB.withSession("GET", URI.create(base(B) + "/api/v1/api-keys")).statusCode())
                .as("owner on B too").isEqualTo(200);

        HttpResponse<String> out = alice.withSession("POST", URI.create(base(A) + "/auth/logout"));
        assertThat(out.statusCode()).as(out.body()).isEqualTo(200);
        assertThat(sameOnB.withSession("GET", URI.create(base(B) + "/api/v1/me")).statusCode()).isEqualTo(401);
    }

    @Test
    void aDeactivationEndsTheSessionOnBothInstancesAndTheRoleFollowsTheGroups() {
        TestingBrowser bob = new TestingBrowser().signIn(base(A), "bob");
        TestingBrowser sameOnB = onB(bob);
        assertThat(sameOnB.withSession("GET", URI.create(base(B) + "/api/v1/api-keys")).statusCode())
                .as("developer: no access.read").isEqualTo(403);
        sql("UPDATE administrators SET active = FALSE WHERE name = 'bob'");
        assertThat(bob.withSession("GET", URI.create(base(A) + "/api/v1/me")).statusCode()).isEqualTo(401);
        assertThat(sameOnB.withSession("GET", URI.create(base(B) + "/api/v1/me")).statusCode()).isEqualTo(401);
        sql("UPDATE administrators SET active = TRUE, role = 'owner' WHERE name = 'bob'");
        TestingBrowser again = new TestingBrowser().signIn(base(B), "bob");
        assertThat(again.withSession("GET", URI.create(base(B) + "/api/v1/api-keys")).statusCode())
                .as("signing in again sets the role from the groups: developer").isEqualTo(403);
    }
}
