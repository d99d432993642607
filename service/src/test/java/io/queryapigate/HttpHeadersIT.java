package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The headers every answer carries (security, caching), CORS for configured origins, and {@code /health}. */
class HttpHeadersIT {
    private static final String ORIGIN = "https://app.example.com";
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static Http http;

    @BeforeAll
    static void start() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + "security:\n  corsOrigins: [\"" + ORIGIN + "/\"]\n");
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        http = new Http("http://127.0.0.1:" + app.getLocalPort());
    }

    @AfterAll
    static void stop() {
        app.after();
    }

    @Test
    void everyAnswerCarriesTheSecurityHeadersAndNoStore() {
        for (Reply r : new Reply[] {http.get("/q/film?film_id=1", TestingConfig.ADMIN_KEY),
                http.get("/q/film?film_id=1", "wrong"), http.get("/nope", TestingConfig.ADMIN_KEY),
                http.get("/api/v1/queries", TestingConfig.ADMIN_KEY), http.get("/health", null)}) {
            assertThat(r.header("X-Content-Type-Options")).as(r.body()).isEqualTo("nosniff");
            assertThat(r.header("Content-Security-Policy")).isEqualTo("default-src 'none'; frame-ancestors 'none'");
            assertThat(r.header("Referrer-Policy")).isEqualTo("no-referrer");
            assertThat(r.header("Cache-Control")).isEqualTo("no-store");
            assertThat(r.header("Strict-Transport-Security")).isNull(); // not configured, and plain HTTP
        }
    }

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredWithoutAKey() {
        Reply pre = http.send(http.builder("/q/film", null).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", ORIGIN).header("Access-Control-Request-Method", "GET")
                .header("Access-Control-Request-Headers", "X-API-Key").build());
        assertThat(pre.status()).isEqualTo(204);
        assertThat(pre.header("Access-Control-Allow-Origin")).isEqualTo(ORIGIN);
        assertThat(pre.header("Access-Control-Allow-Headers")).contains("X-API-Key");
        assertThat(pre.header("Access-Control-Allow-Methods")).contains("GET").contains("PATCH");
        Reply other = http.send(http.builder("/q/film", null).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://evil.example").header("Access-Control-Request-Method", "GET").build());
        assertThat(other.status()).isEqualTo(204);
        assertThat(other.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void answersToAnAllowedOriginNameItAndExposeThePagingHeaders() {
        Reply r = http.send(http.builder("/q/film?film_id=1", TestingConfig.ADMIN_KEY).header("Origin", ORIGIN)
                .GET().build());
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Access-Control-Allow-Origin")).isEqualTo(ORIGIN);
        assertThat(r.header("Access-Control-Expose-Headers")).contains("X-Page").contains("X-Row-Count")
                .contains("X-Has-More").contains("X-Request-Id");
        assertThat(r.header("Vary")).contains("Origin");
        Reply refused = http.send(http.builder("/q/film?film_id=1", "wrong").header("Origin", ORIGIN).GET().build());
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.header("Access-Control-Allow-Origin")).isEqualTo(ORIGIN);
        Reply stranger = http.send(http.builder("/q/film?film_id=1", TestingConfig.ADMIN_KEY)
                .header("Origin", "https://evil.example").GET().build());
        assertThat(stranger.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void healthTellsTheTimeZoneTimestampsAreShownIn() {
        Reply r = http.get("/health", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("status").asText()).isEqualTo("ok");
        assertThat(r.json().get("time_zone").asText()).isEqualTo(java.time.ZoneId.systemDefault().getId());
        assertThat(r.json().get("utc_offset").asText()).matches("[+-]\\d\\d:\\d\\d");
    }

    @Test
    void aPostWhoseBodyIsNotJsonRunsWithTheQueryStringOnly() {
        Reply r = http.send(http.builder("/q/film?film_id=1", TestingConfig.ADMIN_KEY)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("film_id=2")).build());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("film_id").asInt()).isEqualTo(1);
        Reply sql = http.send(http.builder("/execute_sql", TestingConfig.ADMIN_KEY)
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(Http.json(
                        Map.of("sql", "SELECT 1", "connection_name", "demo")))).build());
        sql.assertRefused(400, "invalid_body");
    }
}
