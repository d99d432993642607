package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A SQLite server without {@code auth.adminKey}: it does not start until the store has an active owner, the
 * {@code admins} command makes one, and then nothing may leave it without one (409 {@code last_owner}); the key that
 * is not configured opens nothing.
 */
class NoAdminKeyIT {
    @Test
    void theFirstOwnerComesFromTheCommandLineAndStays() throws Exception {
        Path config = TestingAdmins.withoutAdminKey(TestingConfig.demoConnection(), "", "0s");
        assertThatThrownBy(() -> TestingConfig.startAndStop(config)).hasStackTraceContaining("auth.adminKey")
                .hasStackTraceContaining("no active owner");
        TestingAdmins.Run bad = TestingAdmins.cli(config, "create", "admin", "--role", "owner");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.output()).contains("queryapigate admins create:", "reserved");
        TestingAdmins.Run roleless = TestingAdmins.cli(config, "create", "first");
        assertThat(roleless.exit()).isEqualTo(1);
        assertThat(roleless.output()).contains("needs --role");
        TestingAdmins.Run created = TestingAdmins.cli(config, "create", "first", "--role", "owner");
        assertThat(created.exit()).as(created.output()).isZero();
        assertThat(created.output()).contains("expires " + java.time.LocalDate.now(java.time.ZoneOffset.UTC)
                .plusDays(90));
        String token = TestingAdmins.cli(config, "token", "first", "--label", "laptop", "--expires", "2099-01-01")
                .token();

        DropwizardTestSupport<GatewayConfiguration> app = new DropwizardTestSupport<>(GatewayApplication.class,
                config.toString());
        app.before();
        try {
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            assertThat(http.get("/api/v1/me", token).json().get("via").asText()).isEqualTo("token");
            http.get("/api/v1/me", TestingConfig.ADMIN_KEY).assertRefused(401, "unauthorized");
            http.get("/api/v1/me", "").assertRefused(401, "unauthorized");
            http.patch("/api/v1/administrators/first", token, "{\"role\": \"admin\"}").assertRefused(409,
                    "last_owner");
            http.patch("/api/v1/administrators/first", token, "{\"active\": false}").assertRefused(409,
                    "last_owner");
            http.delete("/api/v1/administrators/first", token).assertRefused(409, "last_owner");
            assertThat(http.get("/api/v1/me", token).json().get("role").asText()).isEqualTo("owner");
            String settings = http.get("/api/v1/settings", token).body();
            assertThat(settings).contains("not set - named owners only");
        } finally {
            app.after();
        }
    }
}
