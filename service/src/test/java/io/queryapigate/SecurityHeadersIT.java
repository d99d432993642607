package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every answer carries the security headers, whoever wrote it: each management route the OpenAPI document lists (with
 * and without a key), a saved query, the docs page and its files, a CORS preflight (answered by Jetty), a body refused
 * by a servlet filter, a request Jetty refuses itself, and the admin port. HSTS only when the request came over
 * HTTPS: here, {@code X-Forwarded-Proto: https} from a trusted proxy; the same header from an address that is not a
 * trusted proxy, or saying anything but https, gets none.
 */
class SecurityHeadersIT {
    private static final String ORIGIN = "https://app.example.com";
    private static final String HSTS = "max-age=31536000";
    private static DropwizardTestSupport<GatewayConfiguration> trusting;
    private static DropwizardTestSupport<GatewayConfiguration> distrusting;
    private static Http http;
    private static Http admin;
    private static Http untrusted;

    @BeforeAll
    static void start() throws Exception {
        trusting = started("  trustedProxies: [\"127.0.0.1/32\"]\n");
        distrusting = started("  trustedProxies: [\"10.0.0.0/8\"]\n");
        http = new Http("http://127.0.0.1:" + trusting.getLocalPort());
        admin = new Http("http://127.0.0.1:" + trusting.getAdminPort());
        untrusted = new Http("http://127.0.0.1:" + distrusting.getLocalPort());
    }

    private static DropwizardTestSupport<GatewayConfiguration> started(String proxies) throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + "security:\n  hstsMaxAge: 31536000\n  corsOrigins: [\"" + ORIGIN + "\"]\n" + proxies);
        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        return app;
    }

    @AfterAll
    static void stop() {
        trusting.after();
        distrusting.after();
    }

    private static Reply viaHttpsProxy(Http on, String path, String key) {
        HttpRequest request = on.builder(path, key).header("X-Forwarded-Proto", "https").GET().build();
        return "/events".equals(path) ? on.headersOnly(request) : on.send(request); // a stream that does not end
    }

    private static void secured(String what, Reply r, boolean hsts) {
        assertThat(r.header("X-Content-Type-Options")).as(what + " " + r.status()).isEqualTo("nosniff");
        assertThat(r.header("Content-Security-Policy")).as(what).isNotBlank().contains("frame-ancestors");
        assertThat(r.header("Referrer-Policy")).as(what).isEqualTo("no-referrer");
        assertThat(r.header("Cache-Control")).as(what).isNotBlank();
        if (hsts) {
            assertThat(r.header("Strict-Transport-Security")).as(what).isEqualTo(HSTS);
        } else {
            assertThat(r.header("Strict-Transport-Security")).as(what).isNull();
        }
    }

    @Test
    void everyManagementRouteAnswersWithTheHeaders() {
        JsonNode paths = http.get("/openapi.json", TestingConfig.ADMIN_KEY).json().get("paths");
        List<String> walked = new ArrayList<>();
        for (Iterator<String> it = paths.fieldNames(); it.hasNext(); ) {
            String path = it.next().replaceAll("\\{[^}]+}", "x");
            for (String key : new String[] {TestingConfig.ADMIN_KEY, null}) {
                secured("GET " + path, viaHttpsProxy(http, path, key), true);
            }
            walked.add(path);
        }
        assertThat(walked).contains("/api/v1/queries", "/q/x", "/health", "/events").hasSizeGreaterThan(40);
    }

    @Test
    void answersWrittenOutsideJerseyHaveThemToo() throws IOException {
        secured("saved query", viaHttpsProxy(http, "/q/film?film_id=1", TestingConfig.ADMIN_KEY), true);
        Reply page = viaHttpsProxy(http, "/docs", null);
        secured("docs page", page, true);
        assertThat(page.header("Content-Security-Policy")).isNotEqualTo(
                "default-src 'none'; frame-ancestors 'none'").as("the page keeps its own policy");
        Matcher asset = Pattern.compile("(?:src|href)=\"(/docs/[^\"]+)\"").matcher(page.body());
        assertThat(asset.find()).as(page.body()).isTrue();
        Reply file = viaHttpsProxy(http, asset.group(1), null);
        assertThat(file.status()).isEqualTo(200);
        secured("docs file", file, true);
        assertThat(file.raw().headers().allValues("Cache-Control")).as("the route's own, alone")
                .hasSize(1).doesNotContain("no-store");
        assertThat(page.raw().headers().allValues("Content-Security-Policy")).hasSize(1);

        Reply preflight = http.send(http.builder("/q/film", null)
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", ORIGIN)
                .header("Access-Control-Request-Method", "GET").header("X-Forwarded-Proto", "https").build());
        assertThat(preflight.status()).isEqualTo(204);
        secured("preflight", preflight, true);

        Reply tooLarge = http.send(http.builder("/execute_sql", TestingConfig.ADMIN_KEY)
                .header("X-Forwarded-Proto", "https").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"" + "x".repeat(2_000_000) + "\"}")).build());
        assertThat(tooLarge.status()).isEqualTo(413);
        secured("body refused by a servlet filter", tooLarge, true);

        for (String path : new String[] {"/metrics", "/healthcheck", "/ping", "/threads", "/nope"}) {
            secured("admin " + path, viaHttpsProxy(admin, path, null), true);
        }

        Map<String, String> refused = raw(trusting.getLocalPort(), "GET /q/a\u0001b HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(refused.get(":status")).startsWith("400");
        assertThat(refused.get("x-content-type-options")).isEqualTo("nosniff");
        assertThat(refused.get("content-security-policy")).isEqualTo("default-src 'none'; frame-ancestors 'none'");
        assertThat(refused.get("referrer-policy")).isEqualTo("no-referrer");
        assertThat(refused.get("cache-control")).isEqualTo("no-store");
    }

    @Test
    void hstsOnlyWhenHttpsIsSaidByATrustedProxy() {
        secured("plain HTTP", http.get("/q/film?film_id=1", TestingConfig.ADMIN_KEY), false);
        secured("not https", http.send(http.builder("/health", null).header("X-Forwarded-Proto", "http")
                .GET().build()), false);
        secured("https then http", http.send(http.builder("/health", null)
                .header("X-Forwarded-Proto", "https, http").GET().build()), false);
        secured("an untrusted peer", viaHttpsProxy(untrusted, "/q/film?film_id=1", TestingConfig.ADMIN_KEY), false);
        secured("an untrusted peer's preflight", untrusted.send(untrusted.builder("/q/film", null)
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", ORIGIN)
                .header("Access-Control-Request-Method", "GET").header("X-Forwarded-Proto", "https").build()), false);
        secured("trusted", viaHttpsProxy(http, "/health", null), true);
    }

    /** Sends {@code request} as it is and reads the answer's status line and headers (names in lower case). */
    private static Map<String, String> raw(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(4096), StandardCharsets.ISO_8859_1);
            Map<String, String> headers = new java.util.HashMap<>();
            String[] lines = head.split("\r\n");
            headers.put(":status", lines[0].substring(lines[0].indexOf(' ') + 1));
            for (int i = 1; i < lines.length && !lines[i].isEmpty(); i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
                            lines[i].substring(colon + 1).strip());
                }
            }
            return headers;
        }
    }
}
