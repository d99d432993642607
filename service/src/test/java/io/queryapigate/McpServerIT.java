package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MCP server on the real application, through the SDK's own Java client over Streamable HTTP: per-key tool lists,
 * saved queries and execute_sql on PostgreSQL through the same pipeline as REST (types, masking, page cap, refusals
 * with REST's codes, bound values, read-only ad-hoc SQL), the gate's refusals at the HTTP level (401 with the
 * challenge, 429 with Retry-After), quotas shared with REST, events marked {@code mcp}, the schema tools and
 * resources as the key's grants see them, and a query published while running.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class McpServerIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_mcp");
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config().toString());
    private static Http http;

    private static Path config() {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT, balance"
                    + " NUMERIC(8,2))");
            s.execute("INSERT INTO customer SELECT i, 'name' || i, 'user' || i || '@example.com', i * 1.5"
                    + " FROM generate_series(1, 30) AS i");
            s.execute("CREATE TABLE secrets (id INTEGER, token TEXT)");
            s.execute("INSERT INTO secrets VALUES (1, 'hidden')");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        String pg = "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                + "\n    password: " + PG.password() + "\n    poolSize: 2\n";
        return TestingConfig.write(TestingConfig.demoConnection() + pg,
                "security:\n  allowWrites: true\n  maskingKey: test-masking-key-0123456789\nmcp:\n  maxRows: 5\n");
    }

    @BeforeAll
    static void setUp() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        save("customer_by_name", "SELECT id, name, email, balance FROM customer WHERE name = :name",
                Map.of("name", Map.of("type", "str", "max_length", 100)), "One customer, by exact name");
        save("customer_by_id", "SELECT id, name, email, balance FROM customer WHERE id = :id",
                Map.of("id", Map.of("type", "int", "min", 1)), null);
        save("all_customers", "SELECT id, name FROM customer ORDER BY id", Map.of(), "Every customer");
        save("execute_sql", "SELECT 1 AS shadow", Map.of(), "A saved query with a reserved name");
        save("touch_customer", "UPDATE customer SET balance = balance WHERE id = :id",
                Map.of("id", Map.of("type", "int")), "A write");
    }

    @AfterAll
    static void dropDatabase() {
        PG.dropDatabase();
    }

    private static void save(String name, String sql, Map<String, Object> parameters, String description) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("sql", sql);
        body.put("parameters", parameters);
        body.put("connection_name", "pg");
        body.put("publish", true);
        if (description != null) {
            body.put("description", description);
        }
        Reply r = http.post("/api/v1/queries", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static McpSyncClient client(String key) {
        return client(key, "/mcp");
    }

    private static McpSyncClient client(String key, String path) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + APP.getLocalPort()).endpoint(path)
                .requestBuilder(HttpRequest.newBuilder().header("X-API-Key", key)).build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    private static List<String> toolNames(String key) {
        try (McpSyncClient c = client(key)) {
            return c.listTools().tools().stream().map(McpSchema.Tool::name).toList();
        }
    }

    private static CallToolResult call(String key, String tool, Map<String, Object> args) {
        try (McpSyncClient c = client(key)) {
            return c.callTool(new CallToolRequest(tool, args));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(CallToolResult r) {
        assertThat(r.isError()).as(text(r)).isFalse();
        return (List<Map<String, Object>>) ((Map<String, Object>) r.structuredContent()).get("rows");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(CallToolResult r) {
        return (Map<String, Object>) r.structuredContent();
    }

    private static String text(CallToolResult r) {
        return r.content().stream().map(c -> c instanceof TextContent t ? t.text() : "").reduce("", String::concat);
    }

    private static void toolError(CallToolResult r, String code) {
        assertThat(r.isError()).as(text(r)).isTrue();
        assertThat(structured(r)).containsEntry("code", code).containsKey("error");
    }

    private static long customers() {
        return Jdbi.create(PG.url(), PG.user(), PG.password())
                .withHandle(h -> h.createQuery("SELECT count(*) FROM customer").mapTo(Long.class).one());
    }

    @Test
    void eachKeySeesOnlyWhatItMayRun() {
        try (McpSyncClient admin = client(ADMIN)) {
            assertThat(admin.getServerInfo().name()).isEqualTo("queryapigate");
            List<McpSchema.Tool> tools = admin.listTools().tools();
            List<String> names = tools.stream().map(McpSchema.Tool::name).toList();
            assertThat(names).contains("customer_by_name", "customer_by_id", "all_customers", "list_tables",
                    "describe_table", "execute_sql").doesNotContain("touch_customer");
            assertThat(names.stream().filter("execute_sql"::equals).count()).as("the reserved name is the fixed tool")
                    .isEqualTo(1);
            McpSchema.Tool byName = tools.stream().filter(t -> t.name().equals("customer_by_name")).findFirst()
                    .orElseThrow();
            assertThat(byName.description()).isEqualTo("One customer, by exact name");
            assertThat(byName.inputSchema().get("required")).isEqualTo(List.of("name"));
            assertThat(byName.inputSchema().toString()).contains("maxLength=100");
            assertThat(byName.annotations().readOnlyHint()).isTrue();
            assertThat(byName.outputSchema().get("required")).isEqualTo(List.of("rows", "truncated"));
        }
        String queryOnly = http.key("mcp-query-only", Map.of("queries", List.of("customer_by_id")));
        assertThat(toolNames(queryOnly)).containsExactly("customer_by_id");
        String reader = http.key("mcp-reader", Map.of("connections", List.of("pg")));
        assertThat(toolNames(reader)).contains("customer_by_name", "list_tables", "describe_table")
                .doesNotContain("execute_sql", "touch_customer");
        String other = http.key("mcp-demo-only", Map.of("connections", List.of("demo"), "adhoc_sql", true));
        assertThat(toolNames(other)).doesNotContain("customer_by_name", "customer_by_id", "all_customers")
                .contains("execute_sql");
        Reply listed = http.get("/api/v1/mcp/tools?key=mcp-query-only", ADMIN);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(listed.json().get("items").size()).isEqualTo(1);
        assertThat(listed.json().get("items").get(0).get("kind").asText()).isEqualTo("saved query");
        assertThat(listed.json().get("items").get(0).get("params").get(0).asText()).isEqualTo("id");
        Reply status = http.get("/api/v1/mcp/status", ADMIN);
        assertThat(status.status()).as(status.body()).isEqualTo(200);
        assertThat(status.json().get("path").asText()).isEqualTo("/mcp");
        assertThat(status.json().get("stateless").asBoolean()).isTrue();
        assertThat(status.json().get("max_rows").asInt()).isEqualTo(5);
        assertThat(status.json().get("protocol_versions").toString()).contains("2025-06-18");
        http.get("/api/v1/mcp/status", reader).assertRefused(403, "admin_only");
    }

    @Test
    void aSavedQueryRunsThroughThePipelineWithTypesAndMasks() {
        List<Map<String, Object>> rows = rows(call(ADMIN, "customer_by_id", Map.of("id", 7)));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).containsEntry("id", 7).containsEntry("name", "name7")
                .containsEntry("email", "user7@example.com");
        assertThat(rows.get(0).get("balance")).isInstanceOf(Number.class);
        String masked = http.key("mcp-masked", Map.of("connections", List.of("pg"), "mask",
                List.of(Map.of("column", "customer.email", "action", "null"))));
        CallToolResult r = call(masked, "customer_by_id", Map.of("id", 7));
        assertThat(rows(r).get(0)).containsEntry("email", null).containsEntry("name", "name7");
        assertThat(text(r)).contains("name7").doesNotContain("user7@example.com");
        Reply rest = http.post("/q/customer_by_id", masked, Http.json(Map.of("params", Map.of("id", 7))));
        assertThat(rest.json().get(0).get("email").isNull()).as("as REST masks it").isTrue();
    }

    @Test
    void pagesAreCappedWithANote() {
        CallToolResult r = call(ADMIN, "all_customers", Map.of());
        assertThat(rows(r)).hasSize(5);
        assertThat(structured(r)).containsEntry("truncated", true);
        assertThat((String) structured(r).get("note")).startsWith("Showing the first 5 rows; more rows match.");
        assertThat(text(r)).contains("id | name").contains("name5").contains("Showing the first 5 rows");
        CallToolResult two = call(ADMIN, "all_customers", Map.of("page_size", 2));
        assertThat(rows(two)).hasSize(2);
        CallToolResult capped = call(ADMIN, "all_customers", Map.of("page_size", 500));
        assertThat(rows(capped)).as("page_size never raises the cap").hasSize(5);
        CallToolResult one = call(ADMIN, "customer_by_id", Map.of("id", 3));
        assertThat(structured(one)).containsEntry("truncated", false).doesNotContainKey("note");
    }

    @Test
    void refusalsAreToolErrorsWithRestsCodes() {
        Reply rest = http.post("/q/customer_by_id", ADMIN, Http.json(Map.of("params", Map.of("id", "seven"))));
        assertThat(rest.status()).isEqualTo(400);
        toolError(call(ADMIN, "customer_by_id", Map.of("id", "seven")), rest.json().get("code").asText());
        String queryOnly = http.key("mcp-one-query", Map.of("queries", List.of("customer_by_id")));
        toolError(call(queryOnly, "customer_by_name", Map.of("name", "name1")), "query_not_granted");
        toolError(call(queryOnly, "list_tables", Map.of("connection_name", "pg")), "connection_not_granted");
        toolError(call(ADMIN, "no_such_query", Map.of()), "query_not_found");
        toolError(call(ADMIN, "touch_customer", Map.of("id", 1)), "read_only");
    }

    @Test
    void injectionShapedValuesAreJustValues() {
        long before = customers();
        CallToolResult r = call(ADMIN, "customer_by_name", Map.of("name", "x' OR 1=1; DROP TABLE customer; --"));
        assertThat(rows(r)).isEmpty();
        assertThat(customers()).isEqualTo(before);
    }

    @Test
    void executeSqlOnlyReadsWhateverTheKeysWriteGrant() {
        String writer = http.key("mcp-writer", Map.of("connections", List.of("pg"), "adhoc_sql", true,
                "allow_writes", true));
        long before = customers();
        toolError(call(writer, "execute_sql", Map.of("connection_name", "pg", "sql", "DELETE FROM customer")),
                "read_only");
        toolError(call(ADMIN, "execute_sql", Map.of("connection_name", "pg", "sql",
                "UPDATE customer SET name = 'x'")), "read_only");
        assertThat(customers()).isEqualTo(before);
        CallToolResult read = call(writer, "execute_sql", Map.of("connection_name", "pg", "sql",
                "SELECT id FROM customer WHERE id = :id", "params", Map.of("id", 4)));
        assertThat(rows(read)).containsExactly(Map.of("id", 4));
    }

    @Test
    void theGateRefusesAtTheHttpLevel() throws Exception {
        Reply none = post("/mcp", null);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.json().get("code").asText()).isEqualTo("unauthorized");
        assertThat(none.json().get("request_id").asText()).isNotBlank();
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"queryapigate\"");
        assertThat(post("/mcp", "not-a-key").status()).isEqualTo(401);
        String limited = http.key("mcp-limited", Map.of("connections", List.of("pg"), "rate_limit", "2/minute"));
        assertThat(post("/mcp", limited).status()).isEqualTo(200);
        assertThat(post("/mcp", limited).status()).isEqualTo(200);
        Reply over = post("/mcp", limited);
        assertThat(over.status()).isEqualTo(429);
        assertThat(over.json().get("code").asText()).isEqualTo("rate_limited");
        assertThat(Long.parseLong(over.header("Retry-After"))).isBetween(1L, 60L);
        String elsewhere = http.key("mcp-elsewhere", Map.of("connections", List.of("pg"), "allowed_ips",
                List.of("10.9.9.9")));
        assertThat(post("/mcp", elsewhere).status()).isEqualTo(401);
        assertThat(post("/w/default/mcp", ADMIN).status()).isEqualTo(200);
        assertThat(post("/w/nowhere/mcp", ADMIN).json().get("code").asText()).isEqualTo("workspace_not_found");
        try (McpSyncClient c = client(ADMIN, "/w/default/mcp")) {
            assertThat(c.listTools().tools()).isNotEmpty();
        }
    }

    @Test
    void aRefusedRequestWhoseBodyArrivesLateLeavesTheConnectionOpen() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nContent-Length: " + body.length() + "\r\n\r\n";
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", APP.getLocalPort())) {
            socket.setSoTimeout(10_000);
            java.io.OutputStream out = socket.getOutputStream();
            java.io.InputStream in = socket.getInputStream();
            for (int i = 0; i < 2; i++) { // no key: refused, twice on one connection
                out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(300); // the body comes after the headers, as a slow client sends it
                out.write(body.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
                String response = readResponse(in);
                assertThat(response).as("answer " + (i + 1) + " on the same connection").startsWith("HTTP/1.1 401");
            }
        }
    }

    /** One HTTP/1.1 response with a Content-Length, read off {@code in}; empty when the server closed the connection. */
    private static String readResponse(java.io.InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while (!head.toString().endsWith("\r\n\r\n") && (c = in.read()) != -1) {
            head.append((char) c);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        if (m.find()) {
            in.readNBytes(Integer.parseInt(m.group(1)));
        }
        return head.toString();
    }

    private static Reply post(String path, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + APP.getLocalPort() + path))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
        if (key != null) {
            b.header("X-API-Key", key);
        }
        return http.send(b.build());
    }

    @Test
    void quotasCountRestAndMcpCallsTogether() {
        String k = http.key("mcp-quota", Map.of("connections", List.of("pg"), "quota", Map.of("calls", 2, "per",
                "day")));
        assertThat(http.get("/q/customer_by_id?id=1", k).status()).isEqualTo(200);
        rows(call(k, "customer_by_id", Map.of("id", 2)));
        toolError(call(k, "customer_by_id", Map.of("id", 3)), "quota_exceeded");
        http.get("/q/customer_by_id?id=1", k).assertRefused(429, "quota_exceeded");
    }

    @Test
    void callsAreRecordedAsMcp() throws Exception {
        String k = http.key("mcp-recorded", Map.of("connections", List.of("pg"), "adhoc_sql", true));
        rows(call(k, "customer_by_id", Map.of("id", 5)));
        rows(call(k, "execute_sql", Map.of("connection_name", "pg", "sql", "SELECT 1 AS one")));
        assertThat(http.get("/q/customer_by_id?id=5", k).status()).isEqualTo(200);
        Jdbi store = Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db");
        List<String> transports = new ArrayList<>();
        for (int i = 0; i < 100 && transports.size() < 3; i++) {
            Thread.sleep(50);
            transports = store.withHandle(h -> h.createQuery("SELECT COALESCE(e.transport, 'rest') FROM events e"
                    + " JOIN api_keys k ON k.id = e.key_id WHERE k.name = 'mcp-recorded' ORDER BY e.id")
                    .mapTo(String.class).list());
        }
        assertThat(transports).containsExactly("mcp", "mcp", "rest");
        List<String> listed = new ArrayList<>();
        http.get("/api/v1/history?key=mcp-recorded", ADMIN).json().get("items")
                .forEach(run -> listed.add(run.get("transport").asText()));
        assertThat(listed).as("newest first").containsExactly("rest", "mcp", "mcp");
        List<String> runs = new ArrayList<>();
        http.get("/api/v1/queries/customer_by_id/history?key=mcp-recorded", ADMIN).json().get("items")
                .forEach(run -> runs.add(run.get("transport").asText()));
        assertThat(runs).containsExactly("rest", "mcp");
    }

    @Test
    void schemaToolsAndResourcesSeeWhatTheKeySees() {
        String narrow = http.key("mcp-narrow", Map.of("connections", List.of("pg"), "allowed_tables",
                List.of("customer"), "mask", List.of(Map.of("column", "customer.email", "action", "null"))));
        CallToolResult tables = call(narrow, "list_tables", Map.of("connection_name", "pg"));
        assertThat(tables.isError()).as(text(tables)).isFalse();
        assertThat(text(tables)).contains("customer").doesNotContain("secrets");
        CallToolResult customer = call(narrow, "describe_table", Map.of("connection_name", "pg", "table",
                "customer"));
        assertThat(customer.isError()).as(text(customer)).isFalse();
        assertThat(text(customer)).contains("\"name\":\"email\"").contains("\"masked\":true");
        toolError(call(narrow, "describe_table", Map.of("connection_name", "pg", "table", "secrets")),
                "table_not_found");
        try (McpSyncClient c = client(narrow)) {
            List<String> uris = c.listResources().resources().stream().map(McpSchema.Resource::uri).toList();
            assertThat(uris).contains("queryapigate://catalog", "queryapigate://connections/pg/dictionary")
                    .doesNotContain("queryapigate://connections/demo/dictionary");
            String dictionary = ((McpSchema.TextResourceContents) c.readResource(
                    new McpSchema.ReadResourceRequest("queryapigate://connections/pg/dictionary")).contents().get(0))
                    .text();
            assertThat(dictionary).startsWith("# Data dictionary: pg").contains("`email`").contains("masked for you")
                    .doesNotContain("secrets");
            String catalog = ((McpSchema.TextResourceContents) c.readResource(
                    new McpSchema.ReadResourceRequest("queryapigate://catalog")).contents().get(0)).text();
            assertThat(catalog).contains("customer_by_id");
        }
    }

    @Test
    void aQueryPublishedWhileRunningAppears() {
        String k = http.key("mcp-watcher", Map.of("connections", List.of("pg")));
        assertThat(toolNames(k)).doesNotContain("newest_customer");
        save("newest_customer", "SELECT max(id) AS id FROM customer", Map.of(), "The newest customer");
        assertThat(toolNames(k)).contains("newest_customer");
        JsonNode deleted = http.delete("/api/v1/queries/newest_customer", ADMIN).json();
        assertThat(toolNames(k)).as(String.valueOf(deleted)).doesNotContain("newest_customer");
    }
}
