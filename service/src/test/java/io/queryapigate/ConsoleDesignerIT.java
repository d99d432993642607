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
 * The Console's query designer on the quickstart, in headless Chromium: a query with a parameter rule written,
 * previewed with a value (its rows, the guard's verdict, paging), a DELETE previewed and refused without running,
 * saved as a draft and published, then called over HTTP; the API's field error for a bad rule shown at its row; an
 * existing query opened for a new version; a viewer without the designer whose save is refused by the server; axe-core
 * at both widths.
 */
class ConsoleDesignerIT {
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();
    private static final String SQL = "SELECT film_id, title FROM film WHERE film_id <= :n ORDER BY film_id";

    private static Http http() {
        return browser.quickstart().http();
    }

    @Test
    void aQueryIsWrittenPreviewedRefusedSavedAsADraftAndPublished() {
        browser.signIn(TestingQuickstart.README_KEY).menu("New query").waitForScreen("/designer");
        assertThat(browser.waitFor("main h1").getText()).isEqualTo("New query");
        browser.type("form.designer-form input[name=name]", "designer_films");
        assertThat(browser.waitFor("select[name=connection_name]").getDomProperty("value")).isEqualTo("demo");
        browser.typeSql("form.designer-form", SQL);
        browser.click("[data-action=detect-parameters]");
        browser.choose("fieldset.param-rule[data-param=n] select[name=type]", "int");
        browser.type("fieldset.param-rule[data-param=n] input[name=min]", "1");
        browser.type("fieldset.param-rule[data-param=n] input[name=max]", "1000");
        browser.type("fieldset.param-rule[data-param=n] input[name=description]", "The last film id");
        browser.type(".param-values input[name=n]", "3");
        browser.assertAccessible("the designer");
        phoneAccessible("the designer at a phone's width");
        show("main h1");
        browser.screenshot("designer", true);

        browser.click("[data-action=preview]");
        browser.waitFor(".verdict[data-verdict=allowed]");
        assertThat(browser.waitFor(".verdict [data-kind]").getText()).isEqualTo("read");
        assertThat(rows()).isEqualTo(3);
        assertThat(browser.waitFor(".row-count").getText()).isEqualTo("3");
        assertThat(browser.waitFor(".preview-result tbody").getText()).contains("FROSTY ARMAGEDDON");
        browser.assertAccessible("the designer's preview");
        show(".preview-out");
        browser.screenshot("designer-preview", false);

        browser.type(".param-values input[name=n]", "15");
        browser.click("[data-action=preview]");
        browser.until("a full first page", () -> rows() == 10);
        browser.click("[data-action=next-page]");
        browser.until("the second page's 5 rows", () -> rows() == 5);
        assertThat(browser.present("[data-action=next-page]")).isFalse();

        browser.type(".param-values input[name=n]", "5000");
        browser.click("[data-action=preview]");
        assertThat(browser.waitFor(".verdict[data-verdict=refused] .refusal-code").getText())
                .as("the rule's maximum refuses the value, as a call's").isEqualTo("param_invalid");

        long films = filmCount();
        browser.typeSql("form.designer-form", "DELETE FROM film WHERE film_id <= :n");
        browser.type(".param-values input[name=n]", "3");
        browser.click("[data-action=preview]");
        assertThat(browser.waitFor(".verdict[data-verdict=refused] .refusal-code").getText())
                .as("the quickstart allows no writes: the guard refuses a DELETE as any call of it").isEqualTo("read_only");
        assertThat(browser.waitFor(".preview-out .error").getText()).contains("read_only").contains("DELETE");
        assertThat(http().sql(TestingQuickstart.README_KEY, "demo", "DELETE FROM film WHERE film_id <= 3").json()
                .get("code").asText()).as("the same refusal as ad-hoc SQL's").isEqualTo("read_only");
        assertThat(filmCount()).as("a refused preview ran nothing").isEqualTo(films);
        browser.assertAccessible("the designer's refusal");
        show(".preview-out");
        browser.screenshot("designer-refused", false);

        browser.typeSql("form.designer-form", SQL);
        browser.click("[data-action=save]");
        browser.waitForText(".save-out .notice", "Saved version 1");
        JsonNode draft = http().get("/api/v1/queries/designer_films", TestingQuickstart.README_KEY).json();
        assertThat(draft.get("published_version").isNull()).isTrue();
        assertThat(draft.get("latest_version").asInt()).isEqualTo(1);
        JsonNode version = http().get("/api/v1/queries/designer_films/versions/1", TestingQuickstart.README_KEY)
                .json();
        assertThat(version.get("sql").asText()).isEqualTo(SQL);
        assertThat(version.at("/parameters/n/type").asText()).isEqualTo("integer");
        assertThat(version.at("/parameters/n/max").asInt()).isEqualTo(1000);
        assertThat(http().get("/q/designer_films?n=2", TestingQuickstart.README_KEY).status())
                .as("a draft is not served").isEqualTo(404);

        browser.click("[data-action=publish]");
        browser.waitForText(".save-out .notice", "Published version 1");
        Reply called = http().get("/q/designer_films?n=2", TestingQuickstart.README_KEY);
        assertThat(called.status()).isEqualTo(200);
        assertThat(called.json().size()).isEqualTo(2);
        assertThat(http().get("/q/designer_films?n=0", TestingQuickstart.README_KEY).status()).isEqualTo(400);
        assertThat(browser.consoleErrors()).as("only the refused previews' answers, no script error or CSP violation")
                .allMatch(e -> e.contains("/api/v1/queries/preview - Failed to load resource"));
    }

    @Test
    void aBadParameterRuleShowsTheApiFieldErrorAtItsRowAndAnExistingQueryOpensForANewVersion() {
        browser.signIn(TestingQuickstart.README_KEY).go("/designer");
        browser.type("form.designer-form input[name=name]", "designer_bad_rule");
        browser.typeSql("form.designer-form", "SELECT title FROM film WHERE film_id = :id");
        browser.click("[data-action=add-parameter]");
        browser.type("fieldset.param-rule input[name=parameter]", "id");
        browser.choose("fieldset.param-rule select[name=type]", "int");
        browser.type("fieldset.param-rule input[name=min]", "10");
        browser.type("fieldset.param-rule input[name=max]", "1");
        browser.click("[data-action=save]");
        assertThat(browser.waitFor("fieldset.param-rule[data-param=id] .field-error").getText())
                .contains("min is greater than max");
        assertThat(browser.waitFor(".save-out .error").getText()).contains("invalid_body");
        assertThat(browser.waitFor("fieldset.param-rule[data-param=id] input[name=parameter]")
                .getAttribute("aria-invalid")).isEqualTo("true");
        browser.assertAccessible("the designer with a field error");
        assertThat(http().get("/api/v1/queries/designer_bad_rule", TestingQuickstart.README_KEY).status())
                .isEqualTo(404);

        browser.go("/designer/film").waitForScreen("/designer/:name");
        assertThat(browser.waitFor("main h1").getText()).isEqualTo("Edit query film");
        assertThat(browser.waitFor("form.designer-form input[name=name]").getAttribute("readonly")).isNotNull();
        String sql = (String) browser.js("return document.querySelector('form.designer-form .CodeMirror')"
                + ".CodeMirror.getValue();");
        String saved = http().get("/api/v1/queries/film/versions/"
                + http().get("/api/v1/queries/film", TestingQuickstart.README_KEY).json().get("latest_version")
                        .asInt(), TestingQuickstart.README_KEY).json().get("sql").asText();
        assertThat(sql).isEqualTo(saved);

        Reply unknown = http().post("/api/v1/queries/preview", TestingQuickstart.README_KEY,
                Http.json(Map.of("connection_name", "demo", "sql", "SELECT 1", "mask", List.of())));
        unknown.assertRefused(400, "unknown_field");
        Reply undeclared = http().post("/api/v1/queries/preview", TestingQuickstart.README_KEY,
                Http.json(Map.of("connection_name", "demo", "sql", "SELECT :x AS x")));
        undeclared.assertRefused(400, "invalid_parameters");
        Reply asAKeyWould = http().post("/api/v1/queries/preview", TestingQuickstart.README_KEY,
                Http.json(Map.of("connection_name", "demo", "sql", "SELECT :x AS x", "parameters",
                        Map.of("x", Map.of("type", "int", "default", 7)))));
        assertThat(asAKeyWould.status()).isEqualTo(200);
        assertThat(asAKeyWould.json().at("/rows/0/x").asInt()).as("the rule's default is bound").isEqualTo(7);
        assertThat(asAKeyWould.json().at("/verdict/kind").asText()).isEqualTo("read");
    }

    @Test
    void aViewerHasNoDesignerAndTheServerRefusesItsSaveAndPreview() {
        String token = TestingAdmins.create(http(), TestingQuickstart.README_KEY, "designer-viewer", "viewer");
        browser.signIn(token);
        List<String> menu = browser.driver().findElements(By.cssSelector("#menu a")).stream()
                .map(WebElement::getText).map(String::strip).toList();
        assertThat(menu).isNotEmpty().doesNotContain("New query");
        browser.go("/designer");
        assertThat(browser.present("[data-action=save]")).isFalse();
        assertThat(browser.present("[data-action=preview]")).isFalse();
        String body = Http.json(Map.of("name", "viewer_query", "connection_name", "demo", "sql", "SELECT 1"));
        assertThat(browser.fetchStatus("POST", "/api/v1/queries", body)).isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/queries/preview",
                Http.json(Map.of("connection_name", "demo", "sql", "SELECT 1")))).isEqualTo(403);
        assertThat(http().get("/api/v1/queries/viewer_query", TestingQuickstart.README_KEY).status()).isEqualTo(404);
        browser.signOut();
    }

    /** Chooses an option of a select by its value, as a person would (the change event follows). */
    /** Scrolls so the element matching {@code css} is just below the sticky header, nothing focused (screenshots). */
    private static void show(String css) {
        browser.js("document.activeElement.blur(); const e = document.querySelector(arguments[0]);"
                + " window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 180);", css);
    }

    private static long rows() {
        return browser.driver().findElements(By.cssSelector(".preview-result tbody tr")).size();
    }

    private static long filmCount() {
        Reply r = http().sql(TestingQuickstart.README_KEY, "demo", "SELECT count(*) AS n FROM film");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get(0).get("n").asLong();
    }

    private static void phoneAccessible(String where) {
        browser.driver().manage().window().setSize(new Dimension(390, 844));
        browser.assertAccessible(where);
        browser.driver().manage().window().setSize(new Dimension(1280, 800));
    }
}
