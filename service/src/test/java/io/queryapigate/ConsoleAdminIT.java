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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The Console's administration screens on the quickstart, in headless Chromium: administrators and their personal
 * tokens, a viewer who sees no edit control and whose edits the server refuses anyway, workspaces and members, the
 * audit log with its filters and chain verification, agent writes (empty on the quickstart: it does not allow
 * writes), the MCP server and usage. Each state shot for docs/console.md is checked by axe-core first.
 */
class ConsoleAdminIT {
    @RegisterExtension
    static final ConsoleBrowser browser = ConsoleBrowser.onQuickstart();
    private static final String KEY = TestingQuickstart.README_KEY;

    private static Http http() {
        return browser.quickstart().http();
    }

    /** axe-core at 1280x800 and at a phone's width, then the screenshots at both. */
    private static void checkedShot(String name, boolean phone) {
        browser.assertAccessible(name);
        if (phone) {
            browser.driver().manage().window().setSize(new Dimension(390, 844));
            browser.waitForScreen();
            browser.assertAccessible(name + " at a phone's width");
            browser.driver().manage().window().setSize(new Dimension(1280, 800));
        }
        browser.screenshot(name, phone);
    }

    /** Picks an option of a select by its value, as a person would (the change event fires). */
    private static List<String> menuLabels() {
        List<String> labels = new ArrayList<>();
        for (WebElement a : browser.driver().findElements(By.cssSelector("#menu a"))) {
            labels.add(a.getAttribute("textContent").strip());
        }
        return labels;
    }

    @Test
    void anOwnerCreatesAViewerIssuesItATokenAndTheViewerSeesNoEditControlsAndIsRefused() {
        browser.signIn(KEY).menu("Administrators").waitForScreen("/administrators");
        browser.type("form input[name=name]", "console-viewer-1");
        browser.choose("form select[name=role]", "auditor");
        browser.type("form input[name=email]", "viewer@example.org");
        browser.click("[data-action=create-admin]");
        browser.waitForScreen("/administrators/:name");
        assertThat(browser.waitFor("main h1").getText()).isEqualTo("console-viewer-1");
        Reply created = http().get("/api/v1/administrators/console-viewer-1", KEY);
        assertThat(created.status()).isEqualTo(200);
        assertThat(created.json().get("role").asText()).isEqualTo("auditor");
        assertThat(created.json().get("email").asText()).isEqualTo("viewer@example.org");
        assertThat(browser.waitForText("main", "No tokens").isDisplayed()).isTrue();

        browser.type("form.token-issue input[name=label]", "browser test");
        browser.click("[data-action=issue-token]");
        String secret = browser.waitFor("[data-secret]").getText().strip();
        assertThat(secret).startsWith("qagadm_");
        assertThat(browser.waitForText("main table", "browser test").getText()).contains("tok_");
        JsonNode tokens = http().get("/api/v1/administrators/console-viewer-1/tokens", KEY).json().get("items");
        assertThat(tokens).hasSize(1);
        assertThat(tokens.get(0).get("label").asText()).isEqualTo("browser test");
        assertThat(tokens.toString()).doesNotContain(secret);
        browser.assertAccessible("an administrator with the token just issued");
        browser.screenshot("administrator", false);
        browser.go("/administrators/console-viewer-1");
        assertThat(browser.present("[data-secret]")).as("the secret is shown once").isFalse();

        browser.go("/administrators");
        browser.waitForText("main table", "console-viewer-1");
        checkedShot("administrators", true);

        // the viewer signs in with the token: no edit control on these screens, and the server refuses anyway
        browser.signIn(secret);
        assertThat(browser.waitFor("header.top .who").getText()).contains("console-viewer-1").contains("auditor");
        assertThat(menuLabels()).contains("Audit log", "Workspaces", "Agent writes", "MCP", "Usage", "Your tokens")
                .doesNotContain("Administrators");
        browser.go("/administrators");
        assertThat(browser.waitFor("main .notice").getText()).contains("admins.read");
        assertThat(browser.present("main table, [data-action=create-admin]")).isFalse();
        browser.go("/administrators/console-dev-other");
        assertThat(browser.waitFor("main .notice").getText()).contains("admins.read");
        assertThat(browser.present("[data-action=issue-token], [data-action=save-admin], [data-action=revoke-token]"))
                .isFalse();
        browser.go("/workspaces");
        browser.waitForText("main table", "default");
        assertThat(browser.present("[data-action=create-workspace]")).isFalse();
        browser.go("/workspaces/default");
        browser.waitForText("main", "Members");
        assertThat(browser.present("[data-action=add-member], [data-action=remove-member]")).isFalse();
        browser.go("/approvals");
        assertThat(browser.waitFor("main .notice").getText()).contains("writes.approve");
        assertThat(browser.present("[data-action=approve], [data-action=reject]")).isFalse();
        browser.go("/account");
        assertThat(browser.waitForText("main table", "browser test").isDisplayed()).isTrue();
        browser.assertAccessible("a viewer's own tokens");

        assertThat(browser.fetchStatus("POST", "/api/v1/administrators",
                "{\"name\":\"made-by-viewer\",\"role\":\"owner\"}")).isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/administrators/admin-other/tokens", "{}")).isEqualTo(403);
        assertThat(browser.fetchStatus("POST", "/api/v1/workspaces", "{\"name\":\"viewer-made\"}")).isEqualTo(403);
        assertThat(http().get("/api/v1/administrators/made-by-viewer", KEY).status()).isEqualTo(404);
        assertThat(http().get("/api/v1/workspaces/viewer-made", KEY).status()).isEqualTo(404);
        assertThat(browser.consoleErrors()).allMatch(e -> e.contains("403"));
        browser.signOut();
    }

    @Test
    void anOwnerChangesARoleDeactivatesAndRevokesAToken() {
        TestingAdmins.create(http(), KEY, "console-dev-1", "developer");
        browser.signIn(KEY).go("/administrators/console-dev-1");
        assertThat(browser.waitForText("main table", "tok_").isDisplayed()).isTrue();
        browser.choose("select[name=role]", "admin");
        browser.click("[data-action=save-admin]");
        browser.waitForText("#notices", "Saved console-dev-1");
        assertThat(http().get("/api/v1/administrators/console-dev-1", KEY).json().get("role").asText())
                .isEqualTo("admin");

        browser.go("/administrators/console-dev-1");
        browser.click("input[name=active]");
        browser.click("[data-action=save-admin]");
        browser.confirm();
        browser.waitForText("main", "deactivated");
        assertThat(http().get("/api/v1/administrators/console-dev-1", KEY).json().get("active").asBoolean())
                .isFalse();

        browser.go("/administrators/console-dev-1");
        browser.click("[data-action=revoke-token]");
        browser.confirm();
        browser.waitForText("main", "No tokens");
        assertThat(http().get("/api/v1/administrators/console-dev-1/tokens", KEY).json().get("items")).isEmpty();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void theAuditLogShowsAnAdministratorsCreationByActionAndTheChainVerifies() {
        TestingAdmins.create(http(), KEY, "console-audited", "auditor");
        browser.signIn(KEY).menu("Audit log").waitForScreen("/audit");
        browser.type("input[name=action]", "create_admin");
        browser.type("input[name=target]", "console-audited");
        browser.click("form.audit-filters button[type=submit]");
        WebElement table = browser.waitForText("main table", "console-audited");
        List<WebElement> rows = table.findElements(By.cssSelector("tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getText()).contains("create_admin").contains("admin");
        assertThat(browser.driver().getCurrentUrl()).contains("action=create_admin");

        browser.go("/audit?action=no_such_action");
        assertThat(browser.waitFor("main .empty").getText()).contains("No entries match");

        browser.go("/audit");
        browser.click("[data-action=verify]");
        assertThat(browser.waitForText(".verify-result", "intact").getText()).contains("ok")
                .contains("The chain is intact");
        JsonNode verified = http().get("/api/v1/audit/verify", KEY).json();
        assertThat(verified.get("intact").asBoolean()).isTrue();
        assertThat(browser.waitFor("main table").getText()).contains("create_admin");
        checkedShot("audit", true);

        // 50 a page: more entries than that page on with the API's cursor
        for (int i = 0; i < 26; i++) {
            assertThat(http().post("/api/v1/administrators", KEY,
                    Http.json(Map.of("name", "paged-" + i, "role", "auditor"))).status()).isEqualTo(201);
            assertThat(http().delete("/api/v1/administrators/paged-" + i, KEY).status()).isEqualTo(204);
        }
        browser.go("/audit");
        assertThat(browser.waitFor("main table").findElements(By.cssSelector("tbody tr"))).hasSize(50);
        browser.clickText("Older entries");
        browser.until("the next page", () -> browser.driver().getCurrentUrl().contains("cursor="));
        browser.waitForScreen("/audit");
        assertThat(browser.waitFor("main table").getText()).doesNotContain("paged-25");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void anOwnerCreatesAWorkspaceAndAddsAndRemovesAMember() {
        TestingAdmins.create(http(), KEY, "console-member", "developer");
        browser.signIn(KEY).menu("Workspaces").waitForScreen("/workspaces");
        browser.type("form input[name=name]", "console-team");
        browser.type("form input[name=description]", "Made from the Console");
        browser.click("[data-action=create-workspace]");
        browser.waitForScreen("/workspaces/:name");
        assertThat(http().get("/api/v1/workspaces/console-team", KEY).json().get("description").asText())
                .isEqualTo("Made from the Console");

        browser.choose("select[name=admin]", "console-member");
        browser.choose("select[name=role]", "auditor");
        browser.click("[data-action=add-member]");
        assertThat(browser.waitForText("main table", "console-member").getText()).contains("auditor");
        JsonNode members = http().get("/api/v1/workspaces/console-team/members", KEY).json().get("items");
        assertThat(members).hasSize(1);
        assertThat(members.get(0).get("admin").asText()).isEqualTo("console-member");
        assertThat(members.get(0).get("role").asText()).isEqualTo("auditor");
        browser.go("/workspaces/console-team");
        browser.waitForText("main table", "console-member");
        assertThat(browser.driver().findElement(By.xpath("//dt[.='Members']/following-sibling::dd[1]")).getText())
                .isEqualTo("1");
        checkedShot("workspace", false);

        browser.go("/workspaces");
        browser.waitForText("main table", "console-team");
        checkedShot("workspaces", false);

        browser.go("/workspaces/console-team");
        browser.click("[data-action=remove-member]");
        browser.confirm();
        browser.waitForText("main", "No members yet");
        assertThat(http().get("/api/v1/workspaces/console-team/members", KEY).json().get("items")).isEmpty();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void approvalsMcpAndUsageShowWhatTheGatewayKnows() {
        // a key with a quota, that has called once, for the usage screen
        Reply key = http().post("/api/v1/api-keys", KEY, Http.json(Map.of("name", "console-quota-key",
                "queries", List.of("film"), "quota", Map.of("calls", 1000, "per", "day"))));
        assertThat(key.status()).isEqualTo(201);
        String secret = key.json().get("secret").asText();
        assertThat(http().get("/q/film?film_id=1", secret).status()).isEqualTo(200);
        // and an MCP call, so an agent shows in the usage
        Reply called = http().request("POST", "/mcp", secret, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\":"
                + " \"tools/call\", \"params\": {\"name\": \"film\", \"arguments\": {\"film_id\": 1}}}",
                "Accept", "application/json, text/event-stream");
        assertThat(called.status()).as(called.body()).isEqualTo(200);
        browser.until("the MCP call in the agents' usage", () -> http().get("/api/v1/usage/agents", KEY).body()
                .contains("console-quota-key"));

        browser.signIn(KEY).menu("Agent writes").waitForScreen("/approvals");
        assertThat(browser.waitFor("main .empty").getText()).contains("No write is waiting");
        assertThat(http().get("/api/v1/write-requests", KEY).json().get("items")).isEmpty();
        browser.assertAccessible("agent writes, none waiting"); // the screenshot with requests: ConsoleApprovalsIT
        browser.go("/approvals/wr_000000000000");
        assertThat(browser.waitFor("main .error").getText()).contains("write_request_not_found");
        assertThat(browser.consoleErrors()).singleElement().asString().contains("404");

        browser.menu("MCP").waitForScreen("/mcp");
        JsonNode status = http().get("/api/v1/mcp/status", KEY).json();
        String stats = browser.waitFor("main .grid").getText();
        assertThat(stats).contains(status.get("enabled").asBoolean() ? "enabled" : "disabled")
                .contains(status.get("tools").get("total").asText());
        JsonNode tools = http().get("/api/v1/mcp/tools", KEY).json().get("items");
        if (!tools.isEmpty()) {
            assertThat(browser.waitFor("main table").getText()).contains(tools.get(0).get("name").asText());
        }
        checkedShot("mcp", false);

        browser.menu("Usage").waitForScreen("/usage");
        assertThat(browser.waitForText("main table", "film ×1").getText()).contains("console-quota-key");
        JsonNode quota = http().get("/api/v1/usage/quotas?key=console-quota-key", KEY).json().get("items").get(0);
        assertThat(browser.waitForText(".quota-usage table", "console-quota-key").getText())
                .contains(quota.get("calls").asText() + " of 1,000");
        browser.choose("select[name=hours]", "168");
        browser.until("the week's window", () -> browser.driver().getCurrentUrl().contains("hours=168"));
        browser.waitForScreen("/usage");
        checkedShot("usage", false);
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
