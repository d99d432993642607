package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the server answers below the resources, found by schemathesis (scripts/schemathesis.sh): refusals Jetty
 * writes itself are in the error envelope, a method no route has is 405 with {@code Allow}, and JSON the parser once
 * refused is read.
 */
class ServerRefusalsIT {
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static Http http;
    private static Http admin;

    @BeforeAll
    static void start() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        http = new Http("http://127.0.0.1:" + app.getLocalPort());
        admin = new Http("http://127.0.0.1:" + app.getAdminPort());
    }

    @AfterAll
    static void stop() {
        app.after();
    }

    @Test
    void aPathJettyRefusesIsAnsweredInTheEnvelopeForEveryMethod() {
        for (String method : new String[] {"GET", "DELETE", "PATCH", "POST"}) {
            Reply r = http.request(method, "/api/v1/api-keys/a%01b", TestingConfig.ADMIN_KEY, null);
            r.assertRefused(400, "invalid_request");
            assertThat(r.header("Content-Type")).as(method).startsWith("application/json");
            assertThat(r.json().get("error").asText()).isEqualTo("Suspicious Path Character");
            assertThat(r.json().get("request_id").asText()).matches("[0-9a-f]{16}");
            assertThat(r.header("X-Request-Id")).isEqualTo(r.json().get("request_id").asText());
            assertThat(r.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        }
    }

    @Test
    void aMethodNoRouteHasIs405WithTheRoutesAllow() {
        Reply trace = http.request("TRACE", "/q/film", TestingConfig.ADMIN_KEY, null, "X-Request-Id", "trace-1");
        trace.assertRefused(405, "method_not_allowed");
        assertThat(trace.header("Allow")).contains("GET").contains("POST").doesNotContain("TRACE");
        assertThat(trace.json().get("request_id").asText()).isEqualTo("trace-1");
        assertThat(trace.body()).doesNotContain(TestingConfig.ADMIN_KEY); // never echoed
        Reply other = http.request("FROB", "/health", null, null);
        other.assertRefused(405, "method_not_allowed");
        assertThat(other.header("Allow")).contains("GET");
    }

    @Test
    void theAdminPortStillRefusesTraceWithoutEchoingIt() {
        Reply r = admin.send(admin.builder("/healthcheck", null).header("X-Secret", "do-not-echo")
                .method("TRACE", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(r.status()).isEqualTo(405);
        assertThat(r.body()).doesNotContain("do-not-echo");
    }

    @Test
    void aFieldNameWithAnEscapedSurrogatePairIsReadAsJson() {
        // Jackson 2.21.0 refused it as invalid UTF-8 (jackson-core#1541): 400 invalid_body for a valid body
        Reply r = http.post("/q/film", TestingConfig.ADMIN_KEY,
                "{\"params\": {\"film_id\": 1, \"note\\ud83d\\ude00\": 1}, \"\\ud83d\\ude00\": true}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("film_id").asInt()).isEqualTo(1);
    }
}
