package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.auth.Caller;
import io.queryapigate.testing.ConsoleBrowser;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Console's agent writes screen with real write requests (the quickstart does not allow writes): a gateway that
 * does, on a fresh PostgreSQL database, an agent key asking through the Java API the MCP server calls; a person sees
 * the exact SQL and arguments, approves one and rejects another with a reason, and the requests' statuses and the
 * table show it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConsoleApprovalsIT {
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_console_aw");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write("  pg:\n    dialect: postgres\n    url: " + PG.url()
                    + "\n    user: " + PG.user() + "\n    password: " + PG.password() + "\n",
                    "security:\n  allowWrites: true\n").toString());
    private static ConsoleBrowser browser;

    @BeforeAll
    static void tableQueryAndBrowser() throws SQLException {
        sql("CREATE TABLE stock (id INT PRIMARY KEY, qty INT NOT NULL)", "INSERT INTO stock VALUES (1, 10), (2, 20)");
        Http.Reply saved = http().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "restock",
                "connection_name", "pg", "publish", true, "sql", "UPDATE stock SET qty = qty + :n WHERE id = :id",
                "parameters", Map.of("id", Map.of("type", "integer"), "n", Map.of("type", "integer")),
                "agent_writes", "approval", "max_affected_rows", 1)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        browser = ConsoleBrowser.open("http://127.0.0.1:" + APP.getLocalPort());
    }

    @AfterAll
    static void closeAndDrop() {
        if (browser != null) {
            browser.close();
        }
        PG.dropDatabase();
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    private static long qty(int id) throws SQLException {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT qty FROM stock WHERE id = "
                        + id)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** The agent asks for a write, as the MCP server's write tool does: the request's id. */
    private static String ask(String agentSecret, int id, int n) throws Exception {
        GatewayApplication app = (GatewayApplication) APP.getApplication();
        Caller agent = app.credentials().authenticate(agentSecret).orElseThrow();
        ObjectNode args = new ObjectMapper().createObjectNode().put("id", id).put("n", n);
        ObjectNode answer = app.agentWrites().call(agent, "console-" + id + "-" + n, "restock", args, null, null);
        assertThat(answer.get("status").asText()).isEqualTo("approval_required");
        return answer.get("request").asText();
    }

    private static JsonNode request(String id) {
        return http().get("/api/v1/write-requests/" + id, ADMIN).json();
    }

    @Test
    void aPersonSeesTheExactWriteApprovesOneAndRejectsAnother() throws Exception {
        String agent = http().key("console-agent", Map.of("connections", List.of("pg"), "allow_writes", true));
        String first = ask(agent, 1, 5);
        String second = ask(agent, 2, 7);

        browser.signIn(ADMIN).menu("Agent writes").waitForScreen("/approvals");
        String card = browser.waitFor("article.write-request[data-id='" + first + "']").getText();
        assertThat(card).contains("restock").contains("console-agent").contains("pending")
                .contains("UPDATE stock SET qty = qty + :n WHERE id = :id").contains("{\"id\":1,\"n\":5}");
        assertThat(browser.waitFor("article.write-request[data-id='" + second + "']").getText())
                .contains("{\"id\":2,\"n\":7}");
        browser.assertAccessible("agent writes waiting");
        browser.driver().manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
        browser.waitForScreen();
        browser.assertAccessible("agent writes waiting, at a phone's width");
        browser.screenshot("approvals", true);

        browser.click("[data-action=approve][data-id='" + first + "']");
        browser.confirm();
        browser.waitForText("#notices", "Approved " + first);
        assertThat(request(first).get("status").asText()).isEqualTo("approved");
        assertThat(request(first).get("decided_by").asText()).isEqualTo("admin");
        assertThat(qty(1)).as("approving runs nothing: the agent runs it").isEqualTo(10);
        browser.until("the list to show the decision", () -> !browser.present("article.write-request[data-id='"
                + first + "']"));

        browser.type("article.write-request[data-id='" + second + "'] input[name=reason]", "not this week");
        browser.click("[data-action=reject][data-id='" + second + "']");
        browser.waitForText("#notices", "Rejected " + second);
        JsonNode rejected = request(second);
        assertThat(rejected.get("status").asText()).isEqualTo("rejected");
        assertThat(rejected.get("reason").asText()).isEqualTo("not this week");
        assertThat(qty(2)).isEqualTo(20);

        assertThat(browser.waitForText("main", "No write is waiting").isDisplayed()).isTrue();
        String past = browser.waitForText("main table", second).getText();
        assertThat(past).contains(first).contains("approved").contains("rejected");

        browser.go("/approvals/" + second);
        assertThat(browser.waitFor("article.write-request").getText()).contains("not this week");
        assertThat(browser.present("[data-action=approve], [data-action=reject]")).isFalse();
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
