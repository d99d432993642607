package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.ConsoleBrowser;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingQuickstart;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The Console's connections and schema browser on the quickstart, in headless Chromium: the YAML's {@code demo} and
 * {@code demo_sqlite} listed read-only with their status; an API-managed connection created (its field errors shown
 * first), tested, edited and deleted from the screens, each checked over HTTP; {@code demo}'s schema browsed down to
 * {@code film}'s columns and a column's description written in place; a viewer seeing no edit control and refused a
 * create sent with its session; axe-core on every state screenshotted.
 */
class ConsoleConnectionsIT {
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();
    private static final String KEY = TestingQuickstart.README_KEY;

    private static Http http() {
        return browser.quickstart().http();
    }

    private static String statusOf(String connection) {
        return browser.until(connection + "'s status", () -> {
            String s = (String) browser.js("const c = document.querySelector('tr[data-connection=\"' + arguments[0]"
                    + " + '\"] .conn-status'); return c ? c.dataset.status : null;", connection);
            return s == null || s.equals("testing") ? null : s;
        });
    }

    /** Signs in with the README's key, follows the menu's {@code label}, and forgets what earlier tests logged. */
    private static void openAsAdmin(String label, String screen) {
        browser.signIn(KEY).menu(label).waitForScreen(screen);
        browser.consoleErrors();
    }

    /** Checks the page with axe-core at 1280x800 and at a phone's width, and takes its two screenshots. */
    private static void shotAtBothWidths(String name, String where) {
        browser.assertAccessible(where);
        browser.screenshot(name, true);
        browser.driver().manage().window().setSize(new Dimension(390, 844));
        browser.assertAccessible(where + " at a phone's width");
        browser.driver().manage().window().setSize(new Dimension(1280, 800));
    }

    /** Clicks a button after scrolling it to the middle of the window, clear of the sticky header. */
    @Test
    void theYamlConnectionsAreListedReadOnlyWithTheirStatus() {
        openAsAdmin("Connections", "/connections");
        assertThat(statusOf("demo")).isEqualTo("ok");
        assertThat(statusOf("demo_sqlite")).isEqualTo("ok");
        for (String name : List.of("demo", "demo_sqlite")) {
            WebElement row = browser.waitFor("tr[data-connection=" + name + "]");
            assertThat(row.getText()).contains("YAML (read-only)").contains(" ms");
        }
        assertThat(browser.waitFor("tr[data-connection=demo]").getText()).contains("duckdb").contains("read-only");
        assertThat(browser.waitFor("tr[data-connection=demo_sqlite]").getText()).contains("sqlite")
                .contains("as keys allow");
        shotAtBothWidths("connections", "the connections list");

        browser.clickText("demo").waitForScreen("/connections/:name");
        assertThat(browser.waitFor(".read-only-note").getText()).contains("YAML").contains("read-only");
        assertThat(browser.waitFor(".conn-test-result[data-status=ok]").getText()).contains("ms");
        assertThat(browser.present("[data-action=save]")).isFalse();
        assertThat(browser.present("[data-action=delete]")).isFalse();
        assertThat(browser.present("form input[name=url]")).isFalse();
        assertThat(browser.waitFor("dl.facts").getText()).contains("demo.duckdb").contains("duckdb.read_only");
        browser.assertAccessible("a YAML connection");
        browser.screenshot("connection", false);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void anApiManagedConnectionIsCreatedTestedEditedAndDeletedFromTheScreens() {
        openAsAdmin("Connections", "/connections");
        browser.clickText("New connection").waitForScreen("/connections/new");
        browser.type("input[name=name]", "console_extra");
        browser.type("input[name=dialect]", "sqlite");
        browser.type("input[name=url]", "console-extra.sqlite");
        browser.type("input[name=pool_size]", "0");
        browser.type("textarea[name=description]", "Made in the Console");
        browser.press("[data-action=create-connection]");
        WebElement error = browser.waitFor("input[name=pool_size] ~ .conn-field-error");
        assertThat(error.getText()).contains("greater than or equal to 1");
        assertThat(browser.waitFor("input[name=pool_size]").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(browser.waitFor(".form-errors .error").getText()).contains("invalid_body");
        assertThat(http().get("/api/v1/connections/console_extra", KEY).status()).isEqualTo(404);
        browser.assertAccessible("the new-connection form with a field error");
        browser.js("document.querySelector('[data-action=create-connection]').scrollIntoView({block: 'end'});");
        browser.screenshot("connection-new", false);

        browser.type("input[name=pool_size]", "2");
        browser.press("[data-action=test]");
        assertThat(browser.waitFor(".conn-test-out .conn-test-result[data-status=failed]").getText())
                .isEqualTo("database unavailable");
        assertThat(browser.waitFor(".conn-test-out .error").getText()).contains("does not exist")
                .contains("connection_failed");
        browser.type("input[name=url]", "demo.sqlite");
        browser.press("[data-action=test]");
        assertThat(browser.waitFor(".conn-test-out .conn-test-result[data-status=ok]").getText()).contains("ms");
        assertThat(http().get("/api/v1/connections/console_extra", KEY).status())
                .as("a test saves nothing").isEqualTo(404);
        browser.press("[data-action=create-connection]");
        browser.waitForScreen("/connections/:name");
        Reply created = http().get("/api/v1/connections/console_extra", KEY);
        assertThat(created.status()).isEqualTo(200);
        assertThat(created.json().get("managed_by").asText()).isEqualTo("api");
        assertThat(created.json().get("pool_size").asInt()).isEqualTo(2);
        assertThat(created.json().get("description").asText()).isEqualTo("Made in the Console");

        assertThat(browser.waitFor(".conn-test-result[data-status=ok] .latency").getText()).endsWith("ms");
        browser.press("[data-action=test]");
        assertThat(browser.waitFor(".conn-test-result[data-status=ok]").getText()).contains("health check");

        browser.type("form.conn-form input[name=pool_size]", "3");
        browser.type("form.conn-form textarea[name=description]", "Changed in the Console");
        browser.press("[data-action=save]");
        browser.until("the change to be saved", () -> http().get("/api/v1/connections/console_extra", KEY).json()
                .get("pool_size").asInt() == 3);
        JsonNode changed = http().get("/api/v1/connections/console_extra", KEY).json();
        assertThat(changed.get("description").asText()).isEqualTo("Changed in the Console");
        assertThat(changed.get("updated_by").asText()).isEqualTo("admin");
        browser.waitFor("form.conn-form input[name=pool_size]");
        assertThat(browser.waitFor("form.conn-form input[name=pool_size]").getAttribute("value")).isEqualTo("3");

        browser.go("/connections");
        assertThat(statusOf("console_extra")).isEqualTo("ok");
        assertThat(browser.waitFor("tr[data-connection=console_extra]").getText()).contains("API-managed");
        browser.go("/connections/console_extra");
        browser.type("input[name=reason]", "made by the browser test");
        browser.press("[data-action=delete]");
        browser.confirm();
        browser.waitForScreen("/connections");
        assertThat(http().get("/api/v1/connections/console_extra", KEY).status()).isEqualTo(404);
        Reply deleted = http().get("/api/v1/connections/deleted", KEY);
        assertThat(deleted.body()).contains("console_extra").contains("made by the browser test");
        assertThat(browser.present("tr[data-connection=console_extra]")).isFalse();
        assertThat(browser.waitFor("#conn-deleted-title + p + div + .table-wrap").getText())
                .contains("console_extra").contains("made by the browser test");
        browser.press("[data-action=restore][data-connection=console_extra]");
        browser.waitFor("tr[data-connection=console_extra]");
        assertThat(http().get("/api/v1/connections/console_extra", KEY).status()).isEqualTo(200);
        assertThat(http().request("DELETE", "/api/v1/connections/console_extra", KEY,
                "{\"reason\": \"the browser test is done\"}").status()).isEqualTo(204);
        assertThat(browser.consoleErrors()).allMatch(e -> e.contains("400") || e.contains("502"),
                "only the refused create's 400 and the failed test's 502");
    }

    @Test
    void demosSchemaIsBrowsedDownToFilmsColumnsAndADescriptionIsWrittenInPlace() {
        openAsAdmin("Schema", "/schema");
        browser.clickText("demo").waitForScreen("/connections/:name/schema");
        browser.type("input[name=table-filter]", "fil");
        browser.click("a[data-table='main.film']");
        WebElement columns = browser.waitFor("table.schema-columns");
        assertThat(browser.waitFor("#schema-table-title").getText()).contains("main.film");
        List<String> names = new ArrayList<>();
        for (WebElement row : columns.findElements(By.cssSelector("tbody tr"))) {
            names.add(row.getAttribute("data-column"));
        }
        assertThat(names).contains("film_id", "title", "rental_rate");
        assertThat(browser.waitFor("tr[data-column=title]").getText()).containsIgnoringCase("varchar");

        browser.click("tr[data-column=title] button[data-edit]");
        browser.type("tr[data-column=title] textarea[name=description]", "The film's title, as on the box");
        browser.click("tr[data-column=title] [data-action=save-description]");
        browser.waitForText("tr[data-column=title] .schema-desc-text", "as on the box");
        JsonNode items = http().get("/api/v1/connections/demo/descriptions", KEY).json().get("items");
        boolean found = false;
        for (JsonNode item : items) {
            if ("film".equals(item.path("table").asText()) && "title".equals(item.path("column").asText())) {
                assertThat(item.get("description").asText()).isEqualTo("The film's title, as on the box");
                assertThat(item.get("source").asText()).isEqualTo("written");
                found = true;
            }
        }
        assertThat(found).as("the description read back over HTTP: " + items).isTrue();

        browser.go("/connections/demo/schema?table=main.film");
        assertThat(browser.waitFor("tr[data-column=title] .schema-desc-text").getText())
                .isEqualTo("The film's title, as on the box");
        shotAtBothWidths("schema", "the schema browser");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void aViewerSeesNoEditControlsAndTheServerRefusesItsCreate() {
        String token = TestingAdmins.create(http(), KEY, "console-conn-viewer", "viewer");
        browser.signIn(token).menu("Connections").waitForScreen("/connections");
        assertThat(statusOf("demo")).as("from the background check (alerts)").isEqualTo("ok");
        assertThat(browser.present("a[href='/console/connections/new']")).isFalse();
        browser.go("/connections/demo");
        assertThat(browser.waitFor(".read-only-note").getText()).contains("read-only");
        assertThat(browser.present("[data-action]:not([data-action=sign-out])")).isFalse();
        browser.go("/connections/demo/schema?table=main.film");
        browser.waitFor("tr[data-column=title]");
        assertThat(browser.present("button[data-edit]")).isFalse();
        assertThat(browser.present("[data-action=save-description]")).isFalse();
        browser.assertAccessible("the schema browser for a viewer");

        long create = browser.fetchStatus("POST", "/api/v1/connections",
                "{\"name\":\"viewer_made\",\"dialect\":\"sqlite\",\"url\":\"viewer.sqlite\"}");
        assertThat(create).isEqualTo(403);
        long describe = browser.fetchStatus("PATCH", "/api/v1/connections/demo/descriptions",
                "{\"items\":[{\"table\":\"film\",\"column\":\"title\",\"description\":\"by a viewer\"}]}");
        assertThat(describe).isEqualTo(403);
        assertThat(http().get("/api/v1/connections/viewer_made", KEY).status()).isEqualTo(404);
        assertThat(http().get("/api/v1/connections/demo/descriptions", KEY).body()).doesNotContain("by a viewer");
        browser.consoleErrors(); // the two refusals above
        browser.signOut();
    }
}
