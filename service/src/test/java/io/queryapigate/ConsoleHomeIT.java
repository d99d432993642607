package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.ConsoleBrowser;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingQuickstart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The Console's home, live events and settings on the quickstart, in headless Chromium: the home's figures of the last
 * hour count calls made over HTTP (a refusal and a cache hit among them) as {@code GET /api/v1/history/summary} does;
 * live events show a call of a scoped key while the screen is open, and after a pause the calls made meanwhile;
 * settings never show the administrator key; a viewer has no re-encrypt controls and the server refuses it the
 * write, a developer has no settings at all.
 */
class ConsoleHomeIT {
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();
    private static final String KEY = TestingQuickstart.README_KEY;

    private static Http http() {
        return browser.quickstart().http();
    }

    private static JsonNode summary(String hours) {
        Reply r = http().get("/api/v1/history/summary?hours=" + hours, KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private static String stat(String window, String name) {
        return browser.waitFor("[data-window=" + window + "] [data-stat=" + name + "] .value").getText();
    }

    @Test
    void homeCountsTheCallsOfTheLastHour() {
        http().saveQuery(KEY, "home_cached", "SELECT film_id, title FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1)), true, "A cached lookup",
                Map.of("cache_ttl", 300));
        JsonNode before = summary("1");
        for (int id = 1; id <= 3; id++) {
            assertThat(http().get("/q/film?film_id=" + id, KEY).status()).isEqualTo(200);
        }
        assertThat(http().get("/q/film?film_id=0", KEY).status()).isEqualTo(400);
        assertThat(http().get("/q/home_cached?film_id=7", KEY).header("X-Cache")).isEqualTo("MISS");
        assertThat(http().get("/q/home_cached?film_id=7", KEY).header("X-Cache")).isEqualTo("HIT");

        JsonNode after = summary("1");
        assertThat(after.get("calls").asLong()).isEqualTo(before.get("calls").asLong() + 6);
        assertThat(after.get("errors").asLong()).isEqualTo(before.get("errors").asLong() + 1);
        assertThat(after.get("cache_hits").asLong()).isEqualTo(before.get("cache_hits").asLong() + 1);
        assertThat(after.get("by_status").get("4xx").asLong())
                .isEqualTo(before.get("by_status").get("4xx").asLong() + 1);
        assertThat(after.get("p50_ms").asDouble()).isPositive();
        assertThat(after.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(after.get("p50_ms").asDouble());
        assertThat(after.get("top_queries").findValuesAsText("query")).contains("film", "home_cached");
        JsonNode day = summary("24");
        assertThat(day.get("calls").asLong()).isGreaterThanOrEqualTo(after.get("calls").asLong());
        http().get("/api/v1/history/summary?hours=0", KEY).assertRefused(400, "invalid_filter");
        http().get("/api/v1/history/summary?hours=1&since=2026-01-01", KEY).assertRefused(400, "invalid_filter");

        browser.signIn(KEY);
        browser.go("/").waitForScreen("/");
        assertThat(stat("hour", "calls")).isEqualTo(after.get("calls").asText());
        assertThat(stat("hour", "errors")).startsWith(after.get("errors").asText() + " (");
        assertThat(stat("hour", "cache_hits")).startsWith(after.get("cache_hits").asText() + " (");
        assertThat(stat("hour", "p50")).endsWith(" ms");
        assertThat(stat("day", "calls")).isEqualTo(day.get("calls").asText());
        assertThat(browser.waitFor("[data-window=hour] [data-status='4xx'] strong").getText())
                .isEqualTo(after.get("by_status").get("4xx").asText());
        assertThat(browser.waitForText("main table td", "home_cached").getText()).isEqualTo("home_cached");
        WebElement instance = browser.waitFor("#home-instances tbody tr");
        assertThat(instance.getText()).contains("alive").contains("this one").contains("sqlite");
        assertThat(browser.waitFor("#home-alerts").getText()).contains("Alerts");
        assertThat(browser.consoleErrors()).isEmpty();
        browser.assertAccessible("home");
        browser.screenshot("home", true);
        browser.driver().manage().window().setSize(new Dimension(390, 844));
        browser.assertAccessible("home at a phone's width");
        browser.driver().manage().window().setSize(new Dimension(1280, 800));
        assertThat(browser.present("main a[href='/console/queries/home_cached']")).isTrue();
    }

    @Test
    void liveEventsShowACallMadeWhileTheScreenIsOpen() {
        Reply created = http().post("/api/v1/api-keys", KEY,
                Http.json(Map.of("name", "home-live", "queries", List.of("film"))));
        assertThat(created.status()).isEqualTo(201);
        String scoped = created.json().get("secret").asText();

        browser.signIn(KEY);
        browser.menu("Live events").waitForScreen("/live");
        assertThat(browser.waitFor("main p.empty").getText()).contains("Waiting for calls");
        // the stream opens a moment after the screen: call until the first call shows up
        browser.until("a call of home-live in the live events", () -> {
            http().get("/q/film?film_id=2", scoped);
            return browser.present("main tbody tr") && browser.driver().findElement(By.cssSelector("main tbody tr"))
                    .getText().contains("home-live");
        });
        WebElement first = browser.waitFor("main tbody tr");
        assertThat(first.getText()).contains("film").contains("home-live").contains("200").contains("demo");

        Reply bad = http().get("/q/film?film_id=0", scoped);
        assertThat(bad.status()).isEqualTo(400);
        WebElement refused = browser.waitForText("main tbody tr", bad.json().get("code").asText());
        assertThat(refused.getText()).contains("film").contains("400").contains("home-live");

        browser.click("[data-action=pause]");
        browser.waitFor("[data-action=resume]");
        int shown = browser.driver().findElements(By.cssSelector("main tbody tr")).size();
        Reply meanwhile = http().get("/q/film?film_id=3", scoped);
        assertThat(meanwhile.status()).isEqualTo(200);
        String requestId = meanwhile.header("X-Request-Id");
        assertThat(browser.driver().findElements(By.cssSelector("main tbody tr"))).hasSize(shown);
        browser.click("[data-action=resume]");
        browser.waitFor("main tbody tr[data-request-id='" + requestId + "']");
        assertThat(browser.consoleErrors()).isEmpty();
        browser.assertAccessible("live events");
        browser.screenshot("live", false);

        browser.js("document.querySelector('select[name=status]').value = 'error';");
        browser.click("[data-action=filter]");
        browser.waitFor("main p.empty");
        browser.until("the error call under the filter", () -> {
            http().get("/q/film?film_id=0", scoped);
            return browser.present("main tbody tr");
        });
        assertThat(browser.driver().findElements(By.cssSelector("main tbody tr")))
                .allSatisfy(r -> assertThat(r.getText()).contains("400"));
        browser.go("/");
    }

    @Test
    void settingsNeverShowTheAdministratorKey() {
        Reply api = http().get("/api/v1/settings", KEY);
        assertThat(api.status()).isEqualTo(200);
        assertThat(api.body()).doesNotContain(KEY).contains("limits.maxWaitingCalls")
                .contains("limits.maxConnectionsPerAddress");

        browser.signIn(KEY);
        browser.menu("Settings").waitForScreen("/settings");
        String text = browser.waitFor("[data-section=security]").getText();
        assertThat(text).contains("auth.adminKey");
        WebElement adminKeyRow = browser.waitForText("[data-section=security] tbody tr", "auth.adminKey");
        assertThat(adminKeyRow.findElement(By.cssSelector(".settings-value")).getText()).isEqualTo("configured");
        assertThat(browser.waitFor("main").getText()).doesNotContain(KEY);
        assertThat((String) browser.js("return document.documentElement.outerHTML")).doesNotContain(KEY);
        assertThat(browser.waitFor("[data-section=shedding]").getText()).contains("limits.maxWaitingCalls")
                .contains("limits.maxWait").contains("limits.headerTimeout").contains("limits.minRequestBodyRate")
                .contains("limits.maxConnectionsPerAddress");
        browser.assertAccessible("settings");
        browser.screenshot("settings", false);

        browser.type("input[name=q]", "timeout");
        assertThat(browser.present("[data-section=security]")).isFalse();
        assertThat(browser.waitFor("[data-section=execution]").getText()).contains("limits.queryTimeout");

        browser.click("[data-action=rekey-check]");
        assertThat(browser.waitFor(".settings-rekey-out > *").getText()).isNotBlank();
        assertThat(browser.fetchStatus("POST", "/api/v1/settings/rekey", "{\"check\":true}"))
                .as("the owner's session may check; the quickstart has no secret key or has one").isIn(200L, 409L);
        assertThat(browser.consoleErrors()).as("only the refusals of the checks, shown in the page")
                .allMatch(e -> e.contains("/api/v1/settings/rekey"));
        browser.signOut();
    }

    @Test
    void aViewerSeesNoReencryptControlsAndTheServerRefusesItAnyway() {
        String viewer = TestingAdmins.create(http(), KEY, "home-viewer", "viewer");
        browser.signIn(viewer);
        browser.menu("Settings").waitForScreen("/settings");
        browser.waitFor("[data-section=security]");
        assertThat(browser.present("[data-action=rekey]")).isFalse();
        assertThat(browser.present("[data-action=rekey-check]")).isFalse();
        assertThat(browser.fetchStatus("POST", "/api/v1/settings/rekey", "{\"check\":true}")).isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/settings/rekey", "{}")).isEqualTo(403);
        browser.go("/").waitFor("[data-window=hour] [data-stat=calls]");
        browser.signOut();

        String developer = TestingAdmins.create(http(), KEY, "home-developer", "developer");
        browser.signIn(developer);
        assertThat(browser.driver().findElements(By.cssSelector("#menu a")))
                .extracting(WebElement::getText).contains("Home", "Live events").doesNotContain("Settings");
        assertThat(browser.fetchStatus("GET", "/api/v1/settings", null)).isEqualTo(403);
        browser.go("/settings");
        assertThat(browser.waitFor("main .error").getText()).isNotBlank();
        assertThat(browser.consoleErrors()).as("only the refusals the test asked for")
                .allMatch(e -> e.contains("/api/v1/settings") && e.contains("403"));
        browser.signOut();
    }
}
