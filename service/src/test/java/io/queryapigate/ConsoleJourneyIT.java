package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.ConsoleBrowser;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingQuickstart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A publisher's whole day in the Console, one browser session on the quickstart: sign in with the README's key, write a
 * query in the designer and preview it, save and publish it, make a key for it alone, call it over HTTP, watch the call
 * arrive in the live events, rotate the key and revoke it, look up a column in the schema browser, find the key's
 * creation and rotation in the audit log, sign out. Each step is checked over the JSON API as well as on the page.
 */
class ConsoleJourneyIT {
    private static final String ADMIN = TestingQuickstart.README_KEY;
    private static final String SQL = "SELECT film_id, title FROM film WHERE film_id <= :n ORDER BY film_id";
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();

    private static Http http() {
        return browser.quickstart().http();
    }

    @Test
    void aQueryIsPublishedAKeyMadeForItCalledRotatedRevokedAndAudited() {
        browser.signIn(ADMIN);

        // the designer: written, previewed, saved, published
        browser.menu("New query").waitForScreen("/designer");
        browser.type("form.designer-form input[name=name]", "journey_films");
        browser.typeSql("form.designer-form", SQL);
        browser.click("[data-action=detect-parameters]");
        browser.choose("fieldset.param-rule[data-param=n] select[name=type]", "int");
        browser.type("fieldset.param-rule[data-param=n] input[name=max]", "100");
        browser.type(".param-values input[name=n]", "2");
        browser.click("[data-action=preview]");
        browser.waitFor(".verdict[data-verdict=allowed]");
        assertThat(browser.waitFor(".preview-result tbody").findElements(By.cssSelector("tr"))).hasSize(2);
        browser.click("[data-action=save]");
        browser.waitForText(".save-out .notice", "Saved version 1");
        browser.click("[data-action=publish]");
        browser.waitForText(".save-out .notice", "Published version 1");
        assertThat(http().get("/api/v1/queries/journey_films", ADMIN).json().get("published_version").asInt())
                .isEqualTo(1);

        // a key for that query alone
        browser.menu("API keys").waitForScreen("/keys");
        if (!"true".equals(browser.waitFor("[data-action=new-key]").getAttribute("aria-expanded"))) {
            browser.click("[data-action=new-key]");
        }
        browser.type("form.new-key input[name=name]", "journey-key");
        WebElement grant = browser.waitFor("form.new-key input[name=queries][value=journey_films]");
        browser.js("arguments[0].scrollIntoView({block: 'center'})", grant);
        grant.click();
        browser.press("[data-action=create-key]");
        String secret = browser.waitFor(".secret-once [data-secret]").getText().strip();
        Reply called = http().get("/q/journey_films?n=2", secret);
        assertThat(called.status()).as(called.body()).isEqualTo(200);
        assertThat(called.json().size()).isEqualTo(2);
        assertThat(http().get("/q/film?film_id=1", secret).status()).as("a query it was not granted").isEqualTo(403);
        assertThat(http().get("/q/journey_films?n=101", secret).status()).as("the rule's maximum").isEqualTo(400);

        // the live events show its calls as they happen
        browser.menu("Live events").waitForScreen("/live");
        browser.until("a call of journey-key in the live events", () -> {
            http().get("/q/journey_films?n=1", secret);
            return browser.driver().findElements(By.cssSelector("main tbody tr[data-request-id]")).stream()
                    .anyMatch(row -> row.getText().contains("journey-key") && row.getText().contains("journey_films"));
        });

        // rotated at once, then revoked
        browser.go("/keys/journey-key").waitForScreen("/keys/:name");
        browser.type("input[name=grace_minutes]", "0");
        browser.press("[data-action=rotate]");
        String rotated = browser.until("a new secret", () -> {
            String shown = browser.waitFor(".secret-once [data-secret]").getText().strip();
            return shown.equals(secret) ? null : shown;
        });
        assertThat(http().get("/q/journey_films?n=1", rotated).status()).isEqualTo(200);
        assertThat(http().get("/q/journey_films?n=1", secret).status()).isEqualTo(401);
        browser.press("[data-action=revoke]");
        browser.confirm();
        browser.waitForText(".key-head", "revoked");
        assertThat(http().get("/q/journey_films?n=1", rotated).status()).isEqualTo(401);

        // the schema browser: the column the query reads
        browser.menu("Schema").waitForScreen();
        browser.go("/connections/demo/schema?table=main.film").waitForScreen("/connections/:name/schema");
        assertThat(browser.waitFor("tr[data-column=title]").getText()).containsIgnoringCase("varchar");

        // the audit log: the key's creation and rotation, by action
        for (String action : new String[] {"create_key", "rotate_api_key"}) {
            browser.menu("Audit log").waitForScreen("/audit");
            browser.type("input[name=action]", action);
            browser.type("input[name=target]", "journey-key");
            browser.click("form.audit-filters button[type=submit]");
            WebElement table = browser.waitForText("main table", "journey-key");
            assertThat(table.findElements(By.cssSelector("tbody tr"))).as(action).hasSize(1);
            assertThat(table.getText()).contains(action);
        }
        JsonNode audit = http().get("/api/v1/audit?target=journey-key", ADMIN).json();
        assertThat(audit.toString()).contains("create_key").contains("rotate_api_key");

        assertThat(browser.consoleErrors()).as("no script error or CSP violation on the way").isEmpty();
        browser.signOut();
        assertThat(browser.fetchStatus("GET", "/api/v1/queries", null)).as("signed out: the session is gone")
                .isEqualTo(401);
    }
}
