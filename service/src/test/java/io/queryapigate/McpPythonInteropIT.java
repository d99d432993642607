package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.PythonOriginal;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MCP server (Streamable HTTP at {@code /mcp}) as a second, independent client sees it: the official Python
 * {@code mcp} package ({@value #MCP_SPEC}, from PyPI into a cached venv) runs {@code scripts/mcp-interop/client.py}'s
 * scripted session against the running application with an API key: initialize, list tools, call a saved query, two
 * refusals (a bad parameter, a query not granted), a query past the row cap (truncated, with its note), a write
 * tool's approval flow (approved through REST with the administrator key; other arguments refused; run once, in
 * PostgreSQL), the resources; then {@code GET /api/v1/usage/agents} counts the agent's calls. The script was proved
 * first against the Python original's own MCP server ({@code scripts/mcp-interop/against-python.sh}).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class McpPythonInteropIT {
    /** The client library, pinned: the newest release on PyPI when this test was written. */
    static final String MCP_SPEC = "mcp==2.3.0";
    private static final String VENV = "mcp-client-2.3.0";
    private static final String AGENT = "interop-agent";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_mcp_interop");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection()
                    + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                    + "\n    password: " + PG.password() + "\n    poolSize: 2\n",
                    TestingConfig.filmSeed() + "security:\n  allowWrites: true\n").toString());

    private static Path python;
    private static String agentKey;

    @BeforeAll
    static void fixtures() throws Exception {
        String problem = PythonOriginal.ensure(VENV, MCP_SPEC,
                "import importlib.metadata as m, mcp, httpx2\nassert m.version('mcp') == '2.3.0'");
        assertThat(problem).as("the mcp client could not be installed (it comes from PyPI)").isNull();
        python = PythonOriginal.cachedVenv(VENV).resolve("bin/python");
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (id int PRIMARY KEY, text text NOT NULL)");
        }
        Http http = http();
        // more rows than the MCP row cap (the original's default: 200)
        save(http, Map.of("name", "many", "description", "A thousand numbers", "connection_name", "demo",
                "sql", "SELECT range AS n FROM range(1000)", "publish", true));
        save(http, Map.of("name", "secret", "description", "Not granted to the agent", "connection_name", "demo",
                "sql", "SELECT COUNT(*) AS n FROM film", "publish", true));
        Map<String, Object> write = new LinkedHashMap<>();
        write.put("name", "add_note");
        write.put("description", "Add a note");
        write.put("connection_name", "pg");
        write.put("sql", "INSERT INTO notes (id, text) VALUES (:id, :text)");
        write.put("parameters", Map.of("id", Map.of("type", "int", "min", 1, "required", true),
                "text", Map.of("type", "str", "required", true)));
        write.put("agent_writes", "approval");
        write.put("max_affected_rows", 1);
        write.put("publish", true);
        save(http, write);
        agentKey = http.key(AGENT, Map.of("queries", List.of("film", "many", "add_note"), "allow_writes", true));
        Reply many = http.get("/q/many?page_size=1000", agentKey);
        assertThat(many.status()).as(many.body()).isEqualTo(200);
        assertThat(many.json().size()).as("over REST: every row").isEqualTo(1000);
    }

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static void save(Http http, Map<String, Object> body) {
        Reply r = http.post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(body));
        assertThat(r.status()).as("saving " + body.get("name") + ": " + r.body()).isEqualTo(201);
    }

    /** Runs client.py with these arguments; its JSON document. */
    private static JsonNode session(String... args) throws Exception {
        Path dir = Files.createTempDirectory("qag-mcp-interop-");
        List<String> cmd = new ArrayList<>(List.of(python.toString(),
                TestingConfig.repo().resolve("scripts/mcp-interop/client.py").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("out.json").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("client.py finished").isTrue();
        String out = Files.readString(dir.resolve("out.json"));
        String err = Files.readString(dir.resolve("err.txt"));
        assertThat(p.exitValue()).as("client.py: " + out + err).isZero();
        return JSON.readTree(out);
    }

    @Test
    void thePythonMcpClientRunsTheWholeSession() throws Exception {
        String base = "http://127.0.0.1:" + APP.getLocalPort();
        JsonNode seen = session("--url", base + "/mcp", "--key", agentKey, "--admin-key", TestingConfig.ADMIN_KEY,
                "--rest-url", base, "--read-query", "film", "--read-args", "{\"film_id\": 7}",
                "--bad-args", "{\"film_id\": 0}", "--denied-query", "secret", "--capped-query", "many",
                "--write-query", "add_note", "--write-args", "{\"id\": 1, \"text\": \"hello\"}",
                "--write-other-args", "{\"id\": 2, \"text\": \"not approved\"}");
        String all = seen.toPrettyString();

        JsonNode init = seen.get("initialize");
        assertThat(init).as(all).isNotNull();
        assertThat(init.get("server_name").asText()).isEqualTo("queryapigate");
        assertThat(init.get("protocol_version").asText()).matches("\\d{4}-\\d{2}-\\d{2}");

        Map<String, JsonNode> tools = new LinkedHashMap<>();
        seen.get("tools").forEach(t -> tools.put(t.get("name").asText(), t));
        assertThat(tools).as(all).containsKeys("film", "many", "add_note").doesNotContainKey("secret");
        assertThat(tools.get("film").get("read_only").asBoolean()).isTrue();
        assertThat(tools.get("film").get("required").toString()).isEqualTo("[\"film_id\"]");
        JsonNode writeTool = tools.get("add_note");
        assertThat(writeTool.get("read_only").asBoolean()).isFalse();
        assertThat(writeTool.get("destructive").asBoolean()).isTrue();
        assertThat(writeTool.get("properties").toString()).contains("\"approval\"", "\"id\"", "\"text\"");

        JsonNode read = seen.get("read");
        assertThat(read.get("is_error").asBoolean()).as(all).isFalse();
        assertThat(read.get("row_count").asInt()).isEqualTo(1);
        assertThat(read.get("structured").get("rows").get(0).get("film_id").asInt()).isEqualTo(7);
        assertThat(read.get("truncated").asBoolean()).isFalse();

        assertThat(seen.get("refusals").get("bad_parameter").get("is_error").asBoolean()).as(all).isTrue();
        JsonNode denied = seen.get("refusals").get("not_granted");
        assertThat(denied.get("is_error").asBoolean()).as(all).isTrue();
        assertThat(denied.toString()).doesNotContain("\"rows\"");

        JsonNode capped = seen.get("capped");
        assertThat(capped.get("is_error").asBoolean()).as(all).isFalse();
        assertThat(capped.get("truncated").asBoolean()).isTrue();
        assertThat(capped.get("row_count").asInt()).isPositive().isLessThan(1000);
        assertThat(capped.get("note").asText()).contains(capped.get("row_count").asText()).contains("more rows");

        JsonNode write = seen.get("write");
        assertThat(write.get("first").get("status").asText()).as(all).isEqualTo("approval_required");
        String request = write.get("first").get("request").asText();
        assertThat(request).isNotEmpty();
        assertThat(write.get("approve").get("status").asInt()).as(all).isEqualTo(200);
        assertThat(write.get("other_arguments").get("is_error").asBoolean()).as("an approval is for its arguments")
                .isTrue();
        assertThat(write.get("approved").get("status").asText()).as(all).isEqualTo("done");
        assertThat(write.get("approved").get("structured").get("rows_affected").asInt()).isEqualTo(1);
        assertThat(write.get("again").get("status").asText()).as("the same approval: the first result")
                .isEqualTo("done");
        assertThat(notes()).as("written once, with the approved arguments").containsExactly("1:hello");

        JsonNode resources = seen.get("resources");
        assertThat(resources.get("list").size()).as(all).isPositive();
        assertThat(resources.get("read").get("length").asInt()).isPositive();

        JsonNode usage = http().get("/api/v1/usage/agents", TestingConfig.ADMIN_KEY).json();
        JsonNode agent = null;
        for (JsonNode item : usage.get("items")) {
            agent = item.get("agent").asText().equals(AGENT) ? item : agent;
        }
        assertThat(agent).as("the agent's MCP calls, counted: " + usage).isNotNull();
        assertThat(agent.get("queries").get("film").asLong()).isPositive();
        assertThat(agent.get("queries").get("many").asLong()).as("the REST call of the fixtures not counted")
                .isEqualTo(1);
        assertThat(agent.get("writes").get("done").asLong()).as("the approved write, run once: " + agent)
                .isEqualTo(1);
        assertThat(agent.get("writes").get("pending").asLong()).isZero();
    }

    private static List<String> notes() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, text FROM notes ORDER BY id")) {
            while (r.next()) {
                rows.add(r.getInt(1) + ":" + r.getString(2));
            }
        }
        return rows;
    }
}
