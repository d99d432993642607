package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.queryapigate.console.ConsoleResource;
import io.queryapigate.testing.ConsoleBrowser;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingQuickstart;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * The Console's frame on the quickstart, in headless Chromium: the page and its bundles (CSP, no inline script, hashed
 * names kept a year), sign-in with the README's key and with a personal admin token, a scoped key turned away,
 * sign-out ending the session on the server, CSRF from another origin, and axe-core on the sign-in page and home.
 */
class ConsoleIT {
    private static final Pattern LINKS = Pattern.compile("(?:src|href)=\"([^\"]*)\"");
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();

    @AfterAll
    static void reportTheBrowsersCost() {
        System.out.println("ConsoleIT: Chromium " + browser.cost());
    }

    private static Http http() {
        return browser.quickstart().http();
    }

    @Test
    void thePageLoadsOnlyItsOwnHashedBundlesUnderAStrictPolicy() {
        for (String path : List.of("/console", "/console/", "/console/queries/film", "/console/keys")) {
            Reply page = http().get(path, null);
            assertThat(page.status()).as(path).isEqualTo(200);
            assertThat(page.header("Content-Security-Policy")).as(path).isEqualTo(ConsoleResource.CSP)
                    .contains("script-src 'self';").contains("style-src 'self';").doesNotContain("unsafe");
            assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
            assertThat(page.body()).doesNotContain("<style").doesNotContain(" style=")
                    .doesNotContainPattern("\\son[a-z]+=").doesNotContainPattern("<script(?![^>]*\\ssrc=)")
                    .doesNotContain("http:").doesNotContain("https:");
        }
        Matcher m = LINKS.matcher(http().get("/console", null).body());
        List<String> assets = new ArrayList<>();
        while (m.find()) {
            if (m.group(1).startsWith("/console/")) {
                assets.add(m.group(1));
            }
        }
        assertThat(assets).hasSize(4).allMatch(a -> a.matches("/console/assets/(app|editor)\\.[0-9a-f]{12}\\.(js|css)"));
        for (String asset : assets) {
            Reply file = http().get(asset, null);
            assertThat(file.status()).as(asset).isEqualTo(200);
            assertThat(file.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
            assertThat(file.header("Content-Type")).startsWith(asset.endsWith(".js") ? "text/javascript" : "text/css");
        }
        assertThat(http().get("/console/assets/app.000000000000.js", null).status()).isEqualTo(404);
        assertThat(http().get("/console/missing.js", null).status()).isEqualTo(404);
        Reply old = http().get("/ui", null);
        assertThat(old.status()).as("the original's old admin page").isEqualTo(301);
        assertThat(old.header("Location")).endsWith("/console/");
    }

    @Test
    void aNewcomerSignsInWithTheReadmeKeyAndSignsOut() {
        browser.signIn(TestingQuickstart.README_KEY).signOut();
        browser.waitFor("input[name=secret]");
        browser.assertAccessible("the sign-in page");
        browser.screenshot("sign-in", true);

        browser.type("input[name=secret]", "not-the-key");
        browser.click("main.signin button[type=submit]");
        assertThat(browser.waitFor(".error").getText()).contains("unauthorized");
        assertThat(browser.consoleErrors()).singleElement().asString().contains("401");

        browser.signIn(TestingQuickstart.README_KEY);
        assertThat(browser.waitFor("header.top .who").getText()).contains("admin").contains("owner");
        String session = browser.driver().manage().getCookieNamed("__Host-qag_session").getValue();
        assertThat(browser.driver().manage().getCookieNamed("__Host-qag_session").isHttpOnly()).isTrue();
        assertThat(browser.js("return document.cookie")).asString().doesNotContain(session);
        assertThat(browser.consoleErrors()).isEmpty();

        browser.signOut();
        Reply after = http().request("GET", "/auth/session", null, null, "Cookie", "__Host-qag_session=" + session);
        assertThat(after.json().get("signed_in").asBoolean()).as("the session ended on the server").isFalse();
        Reply withOld = http().request("GET", "/api/v1/me", null, null, "Cookie", "__Host-qag_session=" + session,
                "X-CSRF-Token", "anything");
        assertThat(withOld.status()).isEqualTo(401);
    }

    @Test
    void aPersonalAdminTokenSignsInAsItsAdministratorAndAScopedKeyIsTurnedAway() {
        String token = TestingAdmins.create(http(), TestingQuickstart.README_KEY, "console-viewer", "viewer");
        browser.signIn(token);
        assertThat(browser.waitFor("header.top .who").getText()).contains("console-viewer").contains("viewer");
        browser.signOut();

        Reply created = http().post("/api/v1/api-keys", TestingQuickstart.README_KEY,
                Http.json(Map.of("name", "console-scoped", "queries", List.of("film"))));
        assertThat(created.status()).isEqualTo(201);
        String key = created.json().get("secret").asText();
        browser.type("input[name=secret]", key);
        browser.click("main.signin button[type=submit]");
        assertThat(browser.waitFor(".error").getText()).contains("admin_only");
    }

    @Test
    void aPageOfAnotherOriginCannotActWithTheSession() throws IOException {
        browser.signIn(TestingQuickstart.README_KEY);
        String target = browser.quickstart().baseUrl() + "/api/v1/api-keys";
        String attack = "<!doctype html><html><body><form id=f method=post action='" + target + "'"
                + " enctype='text/plain'><input name='{\"name\":\"csrf-victim\",\"x\":\"' value='\"}'></form>"
                + "<script>fetch('" + target + "', {method: 'POST', mode: 'no-cors', credentials: 'include',"
                + " headers: {'Content-Type': 'text/plain'}, body: JSON.stringify({name: 'csrf-victim-fetch'})})"
                + ".finally(() => document.getElementById('f').submit());</script></body></html>";
        HttpServer evil = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        evil.createContext("/", exchange -> {
            byte[] bytes = attack.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        evil.start();
        try {
            // localhost is another site than 127.0.0.1: the session's SameSite=Strict cookie stays home
            browser.driver().get("http://localhost:" + evil.getAddress().getPort() + "/");
            browser.until("the attack page's form to be sent", () -> !browser.driver().getCurrentUrl()
                    .contains("localhost:" + evil.getAddress().getPort()));
        } finally {
            evil.stop(0);
        }
        Reply keys = http().get("/api/v1/api-keys", TestingQuickstart.README_KEY);
        assertThat(keys.status()).isEqualTo(200);
        assertThat(keys.body()).doesNotContain("csrf-victim");

        // the same request from the Console's own origin but without the CSRF token is refused too
        browser.go("/");
        long withoutToken = ((Number) ((org.openqa.selenium.JavascriptExecutor) browser.driver()).executeAsyncScript(
                "const done = arguments[0]; fetch('/api/v1/api-keys', {method: 'POST', credentials: 'same-origin',"
                        + " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'no-token'})})"
                        + ".then(r => done(r.status));")).longValue();
        assertThat(withoutToken).isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/api-keys", "{\"name\":\"csrf-victim-control\"}"))
                .as("the same request with the page's token works: the refusals above are the CSRF defence")
                .isEqualTo(201);
        Reply signInFromElsewhere = http().request("POST", "/auth/console/sign-in", null,
                "{\"secret\":\"" + TestingQuickstart.README_KEY + "\"}", "Origin", "http://localhost:1");
        signInFromElsewhere.assertRefused(403, "csrf_failed");
        browser.signOut();
    }

    @Test
    void homeIsAccessibleAtBothWidths() {
        browser.signIn(TestingQuickstart.README_KEY);
        browser.assertAccessible("home");
        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        assertThat(browser.driver().findElement(By.cssSelector(".menu-toggle")).isDisplayed()).isTrue();
        browser.click(".menu-toggle");
        assertThat(browser.waitFor("#menu").isDisplayed()).isTrue();
        browser.assertAccessible("home at a phone's width");
        browser.signOut();
    }

    @Test
    void theDarkThemeFollowsTheSystemAndIsAccessible() {
        browser.driver().executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
                List.of(Map.of("name", "prefers-color-scheme", "value", "dark"))));
        try {
            browser.signIn(TestingQuickstart.README_KEY);
            String[] rgb = ((String) browser.js("return getComputedStyle(document.body).backgroundColor"))
                    .replaceAll("[^0-9,]", "").split(",");
            assertThat(Integer.parseInt(rgb[0]) + Integer.parseInt(rgb[1]) + Integer.parseInt(rgb[2]))
                    .as("the page is dark").isLessThan(200);
            browser.assertAccessible("home in the dark theme");
            browser.go("/designer").waitForScreen("/designer");
            browser.type("form.designer-form input[name=name]", "films_up_to");
            browser.typeSql("form.designer-form", "SELECT film_id, title\nFROM film\nWHERE film_id <= :n -- the last id");
            browser.assertAccessible("the designer in the dark theme");
            browser.screenshot("designer-dark", false);
            browser.signOut();
        } finally {
            browser.driver().executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features", List.of()));
        }
    }
}
