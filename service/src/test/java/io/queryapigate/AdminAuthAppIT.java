package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin port with and without {@code adminAuth}: tasks, threads and metrics need HTTP Basic credentials once it
 * is configured, health and ping stay open by default (or not, with {@code openPaths: []}), and without the block
 * nothing changes.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdminAuthAppIT {
    private static final String USER = "ops";
    private static final String PASSWORD = "admin-port-password-0123";

    private static final DropwizardAppExtension<GatewayConfiguration> PROTECTED = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "adminAuth:\n  username: " + USER + "\n  password: " + PASSWORD + "\n").toString());

    private static final DropwizardAppExtension<GatewayConfiguration> ALL_PROTECTED = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "adminAuth:\n  username: " + USER + "\n  passwordSha256: "
                            + KeyHasher.hashHex(PASSWORD).toUpperCase() + "\n  openPaths: []\n").toString());

    private static final DropwizardAppExtension<GatewayConfiguration> UNPROTECTED = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());

    private static Http admin(DropwizardAppExtension<GatewayConfiguration> app) {
        return new Http("http://127.0.0.1:" + app.getAdminPort());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static Reply get(Http http, String path, String authorization) {
        HttpRequest.Builder b = http.builder(path, null);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.GET().build());
    }

    private static Reply post(Http http, String path, String authorization) {
        HttpRequest.Builder b = http.builder(path, null);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    private static void assertRefused(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(401);
        assertThat(r.header("WWW-Authenticate")).startsWith("Basic realm=\"queryapigate-admin\"");
        assertThat(r.json().get("code").asText()).isEqualTo("unauthorized");
        assertThat(r.json().get("request_id").asText()).isEqualTo(r.header("X-Request-Id")).isNotEmpty();
        assertThat(r.json().get("error").asText()).contains("admin port");
    }

    @Test
    void tasksThreadsAndMetricsNeedCredentials() {
        Http http = admin(PROTECTED);
        for (String path : List.of("/threads", "/metrics", "/metrics/json", "/", "/pprof", "/healthcheck/x")) {
            assertRefused(get(http, path, null));
        }
        assertRefused(post(http, "/tasks/gc", null));
        assertRefused(post(http, "/tasks/log-level?logger=io.queryapigate&level=DEBUG", null));
        // wrong password, wrong user, another scheme, garbage, no colon, a dot-segment path around an open one
        assertRefused(get(http, "/threads", basic(USER, PASSWORD + "x")));
        assertRefused(get(http, "/threads", basic("opsx", PASSWORD)));
        assertRefused(get(http, "/threads", "Bearer " + PASSWORD));
        assertRefused(get(http, "/threads", "Basic %%%"));
        assertRefused(get(http, "/threads", "Basic " + Base64.getEncoder().encodeToString(USER.getBytes())));
        assertRefused(get(http, "/ping/../threads", null));
    }

    @Test
    void credentialsOpenEveryAdminPath() {
        Http http = admin(PROTECTED);
        String auth = basic(USER, PASSWORD);
        Reply threads = get(http, "/threads", auth);
        assertThat(threads.status()).isEqualTo(200);
        assertThat(threads.body()).contains("Thread");
        assertThat(get(http, "/metrics", auth).body()).contains("qag_");
        assertThat(get(http, "/metrics/json", auth).json().has("gauges")).isTrue();
        assertThat(post(http, "/tasks/gc", auth).status()).isEqualTo(200);
        Reply level = post(http, "/tasks/log-level?logger=io.queryapigate.AdminAuthAppIT&level=INFO", auth);
        assertThat(level.status()).as(level.body()).isEqualTo(200);
        assertThat(get(http, "/threads", "basic " + auth.substring(6)).status()).isEqualTo(200);
    }

    @Test
    void healthAndPingStayOpenByDefault() {
        Http http = admin(PROTECTED);
        Reply health = get(http, "/healthcheck", null);
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("connection.demo").get("healthy").asBoolean()).isTrue();
        assertThat(get(http, "/ping", null).body()).contains("pong");
        // the application port is untouched: no Basic challenge there
        Reply app = new Http("http://127.0.0.1:" + PROTECTED.getLocalPort()).get("/health", null);
        assertThat(app.status()).isEqualTo(200);
    }

    @Test
    void withoutOpenPathsHealthAndPingNeedCredentialsToo() {
        Http http = admin(ALL_PROTECTED);
        assertRefused(get(http, "/healthcheck", null));
        assertRefused(get(http, "/ping", null));
        assertRefused(get(http, "/threads", null));
        String auth = basic(USER, PASSWORD);
        assertThat(get(http, "/healthcheck", auth).status()).isEqualTo(200);
        assertThat(get(http, "/ping", auth).body()).contains("pong");
        assertThat(post(http, "/tasks/gc", auth).status()).isEqualTo(200);
    }

    @Test
    void withoutTheBlockTheAdminPortIsUnchanged() {
        Http http = admin(UNPROTECTED);
        assertThat(get(http, "/threads", null).status()).isEqualTo(200);
        assertThat(get(http, "/metrics", null).body()).contains("qag_");
        assertThat(get(http, "/healthcheck", null).status()).isEqualTo(200);
        assertThat(get(http, "/ping", null).status()).isEqualTo(200);
        Reply gc = post(http, "/tasks/gc", null);
        assertThat(gc.status()).isEqualTo(200);
        assertThat(gc.header("WWW-Authenticate")).isNull();
    }
}
