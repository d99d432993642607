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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The Console's API keys and roles screens (/keys, /keys/:name, /roles, /roles/:name) on the quickstart, in headless
 * Chromium: a key made in the page works over HTTP for what it was granted and nothing else, its grants edited in the
 * page change what it may do, rotation and revocation take effect, its activity shows its calls; a role made in the
 * page gives a key its grants; a viewer sees no edit control and the server refuses the viewer's write anyway.
 */
class ConsoleKeysIT {
    private static final String ADMIN = TestingQuickstart.README_KEY;
    private static final String FILM = "/q/film?film_id=1";
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();

    @BeforeEach
    void signInAsTheAdministrator() {
        browser.signIn(ADMIN);
        browser.consoleErrors(); // what earlier tests left in the log
    }

    private static Http http() {
        return browser.quickstart().http();
    }

    private static JsonNode key(String name) {
        Reply r = http().get("/api/v1/api-keys/" + name, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    /** Opens the "New key" form on /keys, names the key, ticks the saved query film, creates it: its secret. */
    private static String createKeyForFilm(String name) {
        browser.go("/keys").waitForScreen("/keys");
        if (!browser.waitFor("[data-action=new-key]").getAttribute("aria-expanded").equals("true")) {
            browser.click("[data-action=new-key]");
        }
        browser.type("form.new-key input[name=name]", name);
        WebElement film = browser.waitFor("form.new-key input[name=queries][value=film]");
        if (!film.isSelected()) {
            browser.js("arguments[0].scrollIntoView({block: 'center'})", film);
            film.click();
        }
        browser.press("[data-action=create-key]");
        return secretShown();
    }

    private static String secretShown() {
        String secret = browser.waitFor(".secret-once [data-secret]").getText().strip();
        assertThat(secret).isNotBlank();
        return secret;
    }

    private static void saveGrants() {
        browser.js("document.querySelectorAll('#notices .notice').forEach(n => n.remove())");
        browser.press("[data-action=save-grants]");
        browser.waitForText("#notices .notice", "Saved");
        browser.waitForScreen();
    }

    @Test
    void aKeyMadeInThePageWorksForWhatItWasGrantedAndChangesTakeEffect() {
        String secret = createKeyForFilm("console-film");
        assertThat(browser.waitFor(".secret-once").getText()).contains("shown once");
        assertThat(http().get(FILM, secret).status()).as("the granted saved query").isEqualTo(200);
        assertThat(http().sql(secret, "demo", "SELECT 1").status()).as("ad-hoc SQL was not granted").isEqualTo(403);
        JsonNode created = key("console-film");
        assertThat(created.get("queries").toString()).isEqualTo("[\"film\"]");
        assertThat(created.get("adhoc_sql").asBoolean()).isFalse();

        // the list finds it by search, with its state and grants
        browser.type("input[name=search]", "console-film");
        WebElement row = browser.waitForText("main table tbody tr", "console-film");
        assertThat(row.getText()).contains("active").contains("film");
        assertThat(browser.driver().findElements(By.cssSelector("main table tbody tr"))).hasSize(1);

        // edit: an IP range the test's calls are not from, and a row limit
        browser.js("arguments[0].click()", browser.waitFor("main table tbody a[href$='/keys/console-film']"));
        browser.waitForScreen("/keys/:name");
        browser.type("textarea[name=allowed_ips]", "10.0.0.0/8");
        browser.type("input[name=max_rows]", "3");
        saveGrants();
        JsonNode edited = key("console-film");
        assertThat(edited.get("allowed_ips").toString()).isEqualTo("[\"10.0.0.0/8\"]");
        assertThat(edited.get("max_rows").asInt()).isEqualTo(3);
        assertThat(edited.get("effective_limits").get("max_rows").get("page").asInt()).isEqualTo(3);
        assertThat(edited.get("queries").toString()).as("fields not changed are kept").isEqualTo("[\"film\"]");
        assertThat(http().get(FILM, secret).status()).as("called from outside its IP range: refused as an unknown key")
                .isEqualTo(401);

        // the range taken off again: the key works, under its row limit
        browser.type("textarea[name=allowed_ips]", "");
        saveGrants();
        assertThat(key("console-film").get("allowed_ips").isNull()).isTrue();
        Reply page = http().get(FILM, secret);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.json().get(0).get("film_id").asInt()).isEqualTo(1);

        // rotate with no grace: the new secret works, the old one no longer
        browser.type("input[name=grace_minutes]", "0");
        browser.press("[data-action=rotate]");
        String rotated = browser.until("a new secret", () -> {
            String s = browser.waitFor(".secret-once [data-secret]").getText().strip();
            return s.equals(secret) ? null : s;
        });
        assertThat(browser.waitFor(".secret-once").getText()).contains("new secret");
        assertThat(http().get(FILM, rotated).status()).isEqualTo(200);
        assertThat(http().get(FILM, secret).status()).isEqualTo(401);

        // its activity shows the calls made with it
        browser.go("/keys/console-film").waitForScreen("/keys/:name");
        browser.waitForText("main section", "Recent activity");
        List<WebElement> calls = browser.until("the activity table", () -> {
            List<WebElement> rows = browser.driver().findElements(By.xpath(
                    "//section[h2='Recent activity']//tbody/tr"));
            return rows.size() >= 3 ? rows : null;
        });
        String activity = String.join("\n", calls.stream().map(WebElement::getText).toList());
        assertThat(activity).contains("film").contains("200").contains("403");
        browser.assertAccessible("a key's page");
        browser.js("document.evaluate(\"//section[h2='Secret and state']\", document, null, 9, null)"
                + ".singleNodeValue.scrollIntoView(); window.scrollBy(0, -70);");
        browser.screenshot("key", false);

        // revoke, confirmed: the secret is refused
        browser.press("[data-action=revoke]");
        browser.confirm();
        browser.waitForText(".key-head", "revoked");
        assertThat(key("console-film").get("active").asBoolean()).isFalse();
        assertThat(http().get(FILM, rotated).status()).isEqualTo(401);
        assertThat(browser.present("[data-action=restore]")).isTrue();

        // the list at both widths, with two more keys made over the API
        assertThat(http().post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "analytics-notebook",
                "connections", "*", "adhoc_sql", true, "rate_limit", "60/minute", "expires_at", "2030-12-31"))).status())
                .isEqualTo(201);
        assertThat(http().post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "partner-portal",
                "queries", List.of("film", "film_sqlite"), "allowed_ips", List.of("192.0.2.0/24"),
                "quota", Map.of("calls", 10000, "per", "month")))).status()).isEqualTo(201);
        browser.go("/keys").waitForScreen("/keys");
        browser.waitForText("main table tbody", "console-film");
        browser.assertAccessible("the keys list");
        browser.driver().manage().window().setSize(new Dimension(390, 844));
        browser.assertAccessible("the keys list at a phone's width");
        browser.screenshot("keys", true);
        assertThat(browser.consoleErrors()).isEmpty();
        browser.signOut();
    }

    @Test
    void theSecretIsShownOnceWithACopyButton() {
        String secret = createKeyForFilm("throwaway-demo");
        assertThat(browser.waitFor(".secret-once button").getText()).isEqualTo("Copy");
        assertThat(http().get(FILM, secret).status()).isEqualTo(200);
        browser.assertAccessible("the secret shown once");
        browser.js("document.querySelector('.secret-once').scrollIntoView({block: 'center'})");
        browser.screenshot("key-created", false);
        // the page shows it no more once left
        browser.go("/keys").waitForScreen("/keys");
        assertThat(browser.present(".secret-once")).isFalse();
        assertThat(http().delete("/api/v1/api-keys/throwaway-demo", ADMIN).status()).isEqualTo(204);
        assertThat(http().get(FILM, secret).status()).isEqualTo(401);
        browser.signOut();
    }

    @Test
    void aRoleMadeInThePageGivesAKeyItsGrants() {
        browser.go("/roles").waitForScreen("/roles");
        browser.click("[data-action=new-role]");
        browser.type("form.new-role input[name=name]", "console-reporting");
        browser.type("form.new-role textarea[name=description]", "Reads the film catalogue");
        browser.press("form.new-role input[name=queries][value=film]");
        browser.press("[data-action=create-role]");
        browser.waitForScreen("/roles/:name");
        JsonNode role = http().get("/api/v1/roles/console-reporting", ADMIN).json();
        assertThat(role.get("queries").toString()).isEqualTo("[\"film\"]");
        assertThat(role.get("description").asText()).isEqualTo("Reads the film catalogue");

        // a key from it: the form opens with the role chosen
        browser.press("[data-action=new-key-from-role]");
        browser.waitForScreen("/keys");
        assertThat(browser.waitFor("form.new-key select[name=role]").getAttribute("value"))
                .isEqualTo("console-reporting");
        browser.type("form.new-key input[name=name]", "from-role");
        assertThat(browser.waitFor("form.new-key input[name=queries][value='*']").isSelected()).isTrue();
        browser.press("[data-action=create-key]");
        String secret = secretShown();
        JsonNode key = key("from-role");
        assertThat(key.get("role").asText()).isEqualTo("console-reporting");
        assertThat(key.get("effective_grants").get("queries").toString()).isEqualTo("[\"film\"]");
        assertThat(http().get(FILM, secret).status()).isEqualTo(200);
        assertThat(http().sql(secret, "demo", "SELECT 1").status()).isEqualTo(403);

        // the role's grants edited in the page reach its key
        browser.go("/roles/console-reporting").waitForScreen("/roles/:name");
        browser.waitForText("main", "from-role");
        browser.type("input[name=rate_limit]", "100/minute");
        saveGrants();
        assertThat(key("from-role").get("effective_grants").get("rate_limit").asText()).isEqualTo("100/minute");

        // in use, it cannot be deleted: the refusal is shown
        browser.press("[data-action=delete-role]");
        browser.confirm();
        assertThat(browser.waitFor(".error").getText()).contains("role_in_use");
        assertThat(browser.consoleErrors()).as("the refusal, and only it").singleElement().asString().contains("409");

        assertThat(http().post("/api/v1/roles", ADMIN, Http.json(Map.of("name", "analysts", "description",
                "Ad-hoc SQL on every connection", "connections", "*", "adhoc_sql", true, "max_rows", 1000))).status())
                .isEqualTo(201);
        browser.go("/roles").waitForScreen("/roles");
        browser.waitForText("main table tbody", "console-reporting");
        browser.waitForText("main table tbody", "analysts");
        browser.assertAccessible("the roles list");
        browser.screenshot("roles", false);
        assertThat(browser.consoleErrors()).isEmpty();
        browser.signOut();
    }

    @Test
    void aViewerSeesNoEditControlAndTheServerRefusesTheWriteAnyway() {
        Reply made = http().post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "viewer-target",
                "queries", List.of("film"))));
        assertThat(made.status()).isEqualTo(201);
        String token = TestingAdmins.create(http(), ADMIN, "keys-viewer", "viewer");
        browser.signIn(token);
        browser.menu("API keys").waitForScreen("/keys");
        browser.waitForText("main table tbody", "viewer-target");
        assertThat(browser.present("[data-action=new-key]")).isFalse();
        assertThat(browser.present("[data-action=create-key]")).isFalse();
        browser.assertAccessible("the keys list for a viewer");

        browser.go("/keys/viewer-target").waitForScreen("/keys/:name");
        browser.waitForText("main", "Grants (read only)");
        for (String action : List.of("save-grants", "rotate", "revoke", "delete")) {
            assertThat(browser.present("[data-action=" + action + "]")).as(action).isFalse();
        }
        browser.go("/roles").waitForScreen("/roles");
        assertThat(browser.present("[data-action=new-role]")).isFalse();

        assertThat(browser.fetchStatus("POST", "/api/v1/api-keys", "{\"name\":\"viewer-made\",\"queries\":[\"film\"]}"))
                .isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/api-keys/viewer-target/rotate", "{}")).isEqualTo(403);
        assertThat(browser.fetchStatus("PATCH", "/api/v1/api-keys/viewer-target", "{\"active\":false}"))
                .isEqualTo(403);
        assertThat(http().get("/api/v1/api-keys/viewer-made", ADMIN).status()).isEqualTo(404);
        assertThat(key("viewer-target").get("active").asBoolean()).isTrue();
        browser.signOut();
    }
}
