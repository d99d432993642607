package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The Console's saved-query screens on the quickstart, in headless Chromium: the list and its search and tag filter,
 * a query's versions and the diff between two of them, publish / roll back / unpublish / delete and the cache TTL
 * from the screen (checked by calling /q and the API over HTTP), a call made over HTTP in the run history, and a
 * viewer who sees no edit control and whose publish sent from the page is refused. axe-core on every state shot.
 */
class ConsoleQueriesIT {
    private static final String KEY = TestingQuickstart.README_KEY;
    private static final String FILM_SQL = "SELECT film_id, title\nFROM film\nWHERE film_id = :film_id";
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();

    private static Http http() {
        return browser.quickstart().http();
    }

    /** A query on {@code demo} with the film_id parameter, published or a draft, with tags. */
    private static void save(String name, String sql, boolean publish, String description, List<String> tags) {
        http().saveQuery(KEY, name, sql, Map.of("film_id", Map.of("type", "int", "min", 1)), publish, description,
                Map.of("tags", tags));
    }

    /** Adds a version over HTTP; it stays a draft. */
    private static void addVersion(String name, String sql, Map<String, Object> parameters, String description) {
        Reply added = http().post("/api/v1/queries/" + name + "/versions", KEY, Http.json(Map.of("sql", sql,
                "parameters", parameters, "description", description)));
        assertThat(added.status()).as(added.body()).isEqualTo(201);
    }

    /** Waits until {@code /q/NAME?film_id=1} answers {@code status} and, for 200, a body containing {@code text}. */
    private static void awaitServed(String name, int status, String text) {
        browser.until("/q/" + name + " to answer " + status + " " + text, () -> {
            Reply r = http().get("/q/" + name + "?film_id=1", KEY);
            return r.status() == status && (text == null || r.body().contains(text));
        });
    }

    private static void phoneWidth(boolean phone) {
        browser.driver().manage().window().setSize(phone ? new Dimension(390, 844) : new Dimension(1280, 800));
    }

    private static void scrollTo(String css) {
        browser.js("document.querySelector(arguments[0]).scrollIntoView({block: 'start'});"
                + " window.scrollBy(0, -60);", css);
    }

    @Test
    void theListShowsFilmAndItsSearchAndTagFilterFindIt() {
        save("console-rentals", "SELECT film_id, count(*) AS rentals FROM rental WHERE film_id = :film_id"
                + " GROUP BY film_id", true, "Rentals of one film, for the shop's weekly report", List.of("reports",
                "shop"));
        save("console-ratings", "SELECT film_id, rating FROM film WHERE film_id = :film_id", false,
                "A film's rating (a draft)", List.of("catalog"));

        browser.signIn(KEY).menu("Queries").waitForScreen("/queries");
        browser.waitForText("main td.q-name a", "film");
        WebElement rentals = browser.waitForText("main tbody tr", "console-rentals");
        assertThat(rentals.getText()).contains("demo").contains("published").contains("reports")
                .contains("Rentals of one film");
        assertThat(browser.waitForText("main tbody tr", "console-ratings").getText()).contains("unpublished")
                .contains("draft v1");
        assertThat(browser.present("[data-action=new]")).as("an owner may create a query").isTrue();

        browser.type("input[name=search]", "weekly");
        browser.click("form[role=search] button[type=submit]");
        browser.until("the search to find the description", () -> rowNames().equals(List.of("console-rentals")));
        browser.type("input[name=search]", "no-such-query-anywhere");
        browser.click("form[role=search] button[type=submit]");
        browser.waitForText("main .empty", "Nothing matches");
        assertThat(browser.driver().getCurrentUrl()).contains("search=no-such-query-anywhere");

        browser.type("input[name=search]", "fil");
        browser.click("form[role=search] button[type=submit]");
        browser.until("film to be found by 'fil'", () -> rowNames().contains("film"));

        browser.type("input[name=search]", "");
        browser.click("form[role=search] button[type=submit]");
        browser.until("every query again", () -> rowNames().containsAll(List.of("film", "console-rentals",
                "console-ratings")));
        browser.js("const s = document.querySelector('select[name=tag]'); s.value = 'reports';"
                + " s.dispatchEvent(new Event('change'));");
        browser.until("the tag filter", () -> rowNames().equals(List.of("console-rentals")));
        assertThat(browser.driver().getCurrentUrl()).contains("tag=reports");
        browser.js("const s = document.querySelector('select[name=tag]'); s.value = '';"
                + " s.dispatchEvent(new Event('change'));");
        browser.until("every query again", () -> rowNames().size() >= 3);

        browser.assertAccessible("the queries list");
        phoneWidth(true);
        browser.assertAccessible("the queries list at a phone's width");
        phoneWidth(false);
        browser.screenshot("queries", true);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private static List<String> rowNames() {
        return browser.driver().findElements(By.cssSelector("main td.q-name a")).stream().map(WebElement::getText)
                .toList();
    }

    @Test
    void twoVersionsAreListedAndTheirDiffShowsTheChangedLine() {
        save("console-diff", FILM_SQL, true, "One film by its id", List.of("catalog"));
        addVersion("console-diff", "SELECT film_id, title, rating\nFROM film\nWHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1, "description", "The film to look up")),
                "One film with its rating");

        browser.signIn(KEY).go("/queries/console-diff").waitForScreen("/queries/:name");
        assertThat(browser.waitFor("main h1").getText()).isEqualTo("Query console-diff");
        assertThat(browser.waitFor("tr[data-version='1']").getText()).contains("published");
        assertThat(browser.waitFor("tr[data-version='2']").getText()).contains("draft")
                .contains("One film with its rating");
        assertThat(browser.waitFor("pre.q-sql").getText()).as("the published version's SQL").isEqualTo(FILM_SQL);
        assertThat(browser.waitFor("pre.q-curl").getText()).contains("/q/console-diff?film_id=1");
        assertThat(browser.waitFor("main section .facts").getText()).contains("/q/console-diff").contains("demo");
        browser.assertAccessible("a query's page");
        phoneWidth(true);
        browser.assertAccessible("a query's page at a phone's width");
        phoneWidth(false);
        browser.screenshot("query", true);

        // the diff of v1 -> v2, shown when the page opens, and again when chosen
        WebElement diff = browser.waitFor(".q-compare[data-from='1'][data-to='2']");
        List<String> removed = texts(".q-compare del");
        List<String> added = texts(".q-compare ins");
        assertThat(removed).contains("- SELECT film_id, title");
        assertThat(added).contains("+ SELECT film_id, title, rating").anyMatch(l -> l.contains("The film to look up"));
        assertThat(diff.getText()).contains("  FROM film");
        assertThat(removed).noneMatch(l -> l.contains("FROM film"));

        browser.js("document.querySelector('select[name=from]').value = '2';"
                + " document.querySelector('select[name=to]').value = '1';");
        browser.click("[data-compare=versions]");
        browser.waitFor(".q-compare[data-from='2'][data-to='1']");
        assertThat(texts(".q-compare ins")).contains("+ SELECT film_id, title");
        assertThat(browser.driver().getCurrentUrl()).contains("from=2").contains("to=1");
        browser.js("document.querySelector('select[name=from]').value = '1';"
                + " document.querySelector('select[name=to]').value = '2';");
        browser.click("[data-compare=versions]");
        browser.waitFor(".q-compare[data-from='1'][data-to='2']");
        scrollTo("#diff");
        browser.assertAccessible("the diff of two versions");
        browser.screenshot("query-diff", false);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private static List<String> texts(String css) {
        return browser.driver().findElements(By.cssSelector(css)).stream().map(e -> e.getText().strip()).toList();
    }

    @Test
    void publishRollBackUnpublishCacheAndDeleteFromTheScreenChangeWhatTheGatewayServes() {
        save("console-pub", "SELECT 'first' AS edition, title FROM film WHERE film_id = :film_id", true,
                "Editions", List.of());
        addVersion("console-pub", "SELECT 'second' AS edition, title FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1)), "The second edition");
        awaitServed("console-pub", 200, "first");

        browser.signIn(KEY).go("/queries/console-pub").waitForScreen("/queries/:name");
        browser.click("tr[data-version='2'] [data-action=publish]");
        browser.waitForText("#notices", "Version 2 is published");
        awaitServed("console-pub", 200, "second");
        assertThat(http().get("/api/v1/queries/console-pub", KEY).json().get("published_version").asInt())
                .isEqualTo(2);

        browser.waitForScreen("/queries/:name").click("tr[data-version='1'] [data-action=rollback]").confirm();
        browser.waitForText("#notices", "Rolled back");
        awaitServed("console-pub", 200, "first");

        browser.waitForScreen("/queries/:name").type("input[name=cache_ttl]", "120")
                .click("[data-action=save-cache]");
        browser.waitForText("#notices", "cached for 120 s");
        assertThat(http().get("/api/v1/queries/console-pub/versions/1", KEY).json().get("cache_ttl").asInt())
                .isEqualTo(120);

        browser.waitForScreen("/queries/:name").click("[data-action=unpublish]").confirm();
        browser.waitForText("#notices", "console-pub is unpublished");
        awaitServed("console-pub", 404, null);
        browser.waitForText("main .q-head", "unpublished");
        assertThat(browser.present("[data-action=unpublish]")).isFalse();

        // a change made elsewhere since the page was loaded is not overwritten: 412, shown
        http().request("POST", "/api/v1/queries/console-pub/publish", KEY, "{\"version\": 2}");
        browser.click("tr[data-version='1'] [data-action=publish]");
        assertThat(browser.waitFor("main .error").getText()).contains("precondition_failed");
        awaitServed("console-pub", 200, "second");

        browser.go("/queries/console-pub").waitForScreen("/queries/:name").click("[data-action=delete]").confirm();
        browser.waitForScreen("/queries");
        browser.waitForText("#notices", "console-pub was deleted");
        assertThat(http().get("/api/v1/queries/console-pub", KEY).status()).isEqualTo(404);
        assertThat(browser.consoleErrors()).as("the 412 is the only failure the page logged")
                .allMatch(e -> e.contains("412"));
    }

    @Test
    void aCallMadeOverHttpIsInTheRunHistory() {
        for (int id = 1; id <= 3; id++) {
            assertThat(http().get("/q/film?film_id=" + id, KEY).status()).isEqualTo(200);
        }
        Reply refused = http().get("/q/film?film_id=not-a-number", KEY);
        assertThat(refused.status()).isEqualTo(400);
        Reply call = http().get("/q/film?film_id=7", KEY);
        assertThat(call.status()).isEqualTo(200);
        String requestId = call.header("X-Request-Id");
        assertThat(requestId).isNotBlank();

        browser.signIn(KEY).go("/queries/film").waitForScreen("/queries/:name");
        WebElement row = browser.waitForText(".q-history tbody tr", requestId);
        assertThat(row.getText()).contains("ok").contains("200").contains("admin").contains("ms");
        assertThat(browser.waitForText(".q-history tbody tr", "param_invalid").getText()).contains("error")
                .contains("400");

        browser.js("const s = document.querySelector('#history select[name=status]');"
                + " s.value = 'error'; s.dispatchEvent(new Event('change'));");
        browser.until("only failed runs", () -> {
            List<String> rows = texts(".q-history tbody tr");
            return !rows.isEmpty() && rows.stream().allMatch(r -> r.contains("error"));
        });
        browser.js("const s = document.querySelector('#history select[name=status]'); s.value = '';"
                + " s.dispatchEvent(new Event('change'));");
        browser.waitForText(".q-history tbody tr", requestId);
        scrollTo("#history");
        browser.assertAccessible("a query's run history");
        browser.screenshot("query-history", false);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void aViewerSeesNoEditControlAndItsPublishIsRefused() {
        save("console-view", "SELECT film_id, title FROM film WHERE film_id = :film_id", true, "Viewed",
                List.of("catalog"));
        addVersion("console-view", "SELECT film_id, title, length FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1)), "With the length");
        String token = TestingAdmins.create(http(), KEY, "queries-viewer", "viewer");

        browser.signIn(token).menu("Queries").waitForScreen("/queries");
        browser.waitForText("main td.q-name a", "console-view");
        assertThat(browser.present("[data-action=new]")).isFalse();
        browser.go("/queries/console-view").waitForScreen("/queries/:name");
        browser.waitFor("tr[data-version='2']");
        browser.waitFor(".q-history table, .q-history .empty");
        for (String action : List.of("publish", "unpublish", "rollback", "edit", "delete", "save-cache", "evict")) {
            assertThat(browser.present("[data-action=" + action + "]")).as(action).isFalse();
        }
        assertThat(browser.present("input[name=cache_ttl]")).isFalse();
        assertThat(browser.waitFor("#cache").getText()).contains("not cached");

        long status = browser.fetchStatus("POST", "/api/v1/queries/console-view/publish", "{\"version\": 2}");
        assertThat(status).isEqualTo(403);
        assertThat(http().get("/api/v1/queries/console-view", KEY).json().get("published_version").asInt())
                .as("still the first version").isEqualTo(1);
        browser.assertAccessible("a query's page for a viewer");

        browser.go("/queries/no-such-query").waitForScreen("/queries/:name");
        assertThat(browser.waitFor("main h1").getText()).isEqualTo("Query no-such-query");
        assertThat(browser.waitFor("main .error").getText()).contains("query_not_found");
        browser.signOut();
    }
}
