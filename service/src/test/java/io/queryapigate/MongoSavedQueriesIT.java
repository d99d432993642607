package io.queryapigate;

import static io.queryapigate.testing.MongoPeople.ids;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.MongoPeople;
import io.queryapigate.testing.TestingConfig;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Saved queries of {@code query_type: mongo} on the real MongoDB-protocol test server (FerretDB), through the REST
 * API: saved, published and rolled back, called with bound parameters ({@code GET} and {@code POST /q/{name}}), paged,
 * shown as the original shows them, described in the caller's OpenAPI document; refused when saved with a stage
 * that writes or on a connection of the other language; run history and events recorded; grants checked; a tool of
 * the MCP server like any saved query.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MongoSavedQueriesIT {
    private static final TestServers.Server MONGO = TestServers.mongo();
    private static final String DB = "qag_sq_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final MongoClient CLIENT = MongoClients.create(MONGO.url());
    private static final Path CONFIG = config();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    private static MongoDatabase db() {
        return CLIENT.getDatabase(DB);
    }

    private static Path config() {
        MongoPeople.seed(db());
        db().getCollection("cities").insertOne(new Document("_id", 1).append("name", "Oslo"));
        return TestingConfig.write("  mg:\n    dialect: mongo\n    url: " + MONGO.url() + "/" + DB + "\n"
                + "  duck:\n    dialect: duckdb\n    url: ':memory:'\n    properties:\n      duckdb.read_only: \"false\"\n", "");
    }

    @BeforeAll
    static void start() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @AfterAll
    static void drop() {
        db().drop();
        CLIENT.close();
    }

    private static Map<String, Object> mongoQuery(String name, Object filter, Map<String, Object> parameters) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("query_type", "mongo");
        body.put("connection_name", "mg");
        body.put("mongo_collection", "people");
        body.put("mongo_filter", filter);
        body.put("mongo_sort", Map.of("_id", 1));
        body.put("parameters", parameters);
        body.put("publish", true);
        return body;
    }

    private static Reply save(Map<String, Object> body) {
        return http.post("/api/v1/queries", ADMIN, Http.json(body));
    }

    @Test
    void aSavedFindIsCalledWithBoundParametersAndPaged() {
        Reply saved = save(mongoQuery("by_city", Map.of("city", ":city", "age", Map.of("$gte", ":min")),
                Map.of("city", "str", "min", Map.of("type", "int", "required", false, "default", 0))));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        assertThat(ids(http.get("/q/by_city?city=Oslo&min=23", ADMIN))).containsExactly(4, 6);
        assertThat(ids(http.post("/q/by_city", ADMIN, Http.json(Map.of("params", Map.of("city", "Rome"))))))
                .containsExactly(1, 3, 5);
        assertThat(ids(http.get("/q/by_city?city=Oslo&page=2&page_size=2", ADMIN))).containsExactly(6);
        http.get("/q/by_city?city=Oslo&min=old", ADMIN).assertRefused(400, "param_invalid");
        http.get("/q/by_city", ADMIN).assertRefused(400, "param_required");

        JsonNode version = http.get("/api/v1/queries/by_city", ADMIN).json();
        assertThat(version.get("query_type").asText()).isEqualTo("mongo");
        JsonNode v1 = version.get("versions").get(0);
        assertThat(v1.get("query_type").asText()).isEqualTo("mongo");
        assertThat(v1.get("sql").isNull()).isTrue();
        assertThat(v1.get("mongo").get("mongo_collection").asText()).isEqualTo("people");
        assertThat(v1.get("mongo").get("mongo_filter").get("city").asText()).isEqualTo(":city");
        assertThat(v1.get("mongo").get("mongo_sort").get("_id").asInt()).isEqualTo(1);
        assertThat(v1.get("placeholders")).extracting(JsonNode::asText).containsExactlyInAnyOrder("city", "min");

        JsonNode spec = http.get("/openapi.json", ADMIN).json();
        JsonNode get = spec.at("/paths/~1q~1by_city/get");
        assertThat(get.isMissingNode()).as(spec.get("paths").toString()).isFalse();
        assertThat(get.toString()).contains("\"city\"").contains("\"min\"").contains("integer");
    }

    @Test
    void anOperatorShapedValueStaysAValue() {
        save(mongoQuery("by_name", Map.of("name", ":n"), Map.of("n", "str")));
        assertThat(ids(http.get("/q/by_name?n=" + java.net.URLEncoder.encode("{\"$gt\": \"\"}",
                java.nio.charset.StandardCharsets.UTF_8), ADMIN))).isEmpty();
        assertThat(ids(http.get("/q/by_name?n=%24gt", ADMIN))).containsExactly(6);
        Reply doc = http.post("/q/by_name", ADMIN, Http.json(Map.of("params", Map.of("n", Map.of("$ne", "x")))));
        assertThat(doc.status()).isEqualTo(400);
        assertThat(doc.body()).doesNotContain("p1");
    }

    @Test
    void aStageThatWritesOrServerSideJavaScriptIsRefusedWhenSaving() {
        Map<String, Object> out = mongoQuery("writes", null, Map.of());
        out.remove("mongo_filter");
        out.remove("mongo_sort");
        out.put("mongo_pipeline", List.of(Map.of("$match", Map.of()), Map.of("$out", "stolen")));
        save(out).assertRefused(403, "mongo_stage_forbidden");
        out.put("mongo_pipeline", List.of(Map.of("$lookup", Map.of("from", "secrets", "as", "s", "pipeline",
                List.of(Map.of("$merge", "stolen"))))));
        save(out).assertRefused(403, "mongo_stage_forbidden");
        save(mongoQuery("js", Map.of("$where", "true"), Map.of())).assertRefused(403, "mongo_operator_forbidden");
        Map<String, Object> system = mongoQuery("system", Map.of(), Map.of());
        system.put("mongo_collection", "system.users");
        save(system).assertRefused(403, "collection_not_allowed");
        assertThat(http.get("/api/v1/queries/writes", ADMIN).status()).isEqualTo(404);
        assertThat(db().listCollectionNames().into(new ArrayList<>())).doesNotContain("stolen");
    }

    @Test
    void aSavedPipelineRuns() {
        Map<String, Object> body = mongoQuery("per_city", null, Map.of("city", "str"));
        body.remove("mongo_filter");
        body.remove("mongo_sort");
        body.put("mongo_pipeline", List.of(Map.of("$match", Map.of("city", ":city")),
                Map.of("$group", Map.of("_id", "$city", "n", Map.of("$sum", 1)))));
        assertThat(save(body).status()).isEqualTo(201);
        Reply r = http.get("/q/per_city?city=Rome", ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get(0).get("n").asInt()).isEqualTo(3);
    }

    @Test
    void theLanguageMustBeTheConnections() {
        Map<String, Object> onDuck = mongoQuery("on_duck", Map.of(), Map.of());
        onDuck.put("connection_name", "duck");
        save(onDuck).assertRefused(400, "wrong_connection_type");
        save(Map.of("name", "sql_on_mongo", "sql", "SELECT 1", "connection_name", "mg"))
                .assertRefused(400, "wrong_connection_type");
        Map<String, Object> both = mongoQuery("both", Map.of(), Map.of());
        both.put("sql", "SELECT 1");
        save(both).assertRefused(400, "invalid_body");
        save(Map.of("name", "fields_without_type", "sql", "SELECT 1", "connection_name", "duck",
                "mongo_collection", "people")).assertRefused(400, "invalid_body");
    }

    @Test
    void versionsArePublishedAndRolledBack() {
        save(mongoQuery("versions", Map.of("_id", 1), Map.of()));
        Map<String, Object> v2 = mongoQuery("versions", Map.of("_id", 2), Map.of());
        v2.remove("name");
        Reply added = http.post("/api/v1/queries/versions/versions", ADMIN, Http.json(v2));
        assertThat(added.status()).as(added.body()).isEqualTo(201);
        assertThat(ids(http.get("/q/versions", ADMIN))).containsExactly(2);
        assertThat(http.post("/api/v1/queries/versions/publish", ADMIN, "{\"version\": 1}").status()).isEqualTo(200);
        assertThat(ids(http.get("/q/versions", ADMIN))).containsExactly(1);
        assertThat(ids(http.get("/q/versions?version=2", ADMIN))).containsExactly(2);
    }

    @Test
    void grantsAreCheckedAndRunsRecorded() throws InterruptedException {
        save(mongoQuery("granted", Map.of("city", "Oslo"), Map.of()));
        save(mongoQuery("not_granted", Map.of(), Map.of()));
        String key = http.key("mongo_saved", Map.of("connections", List.of(), "queries", List.of("granted")));
        assertThat(ids(http.get("/q/granted", key))).containsExactly(2, 4, 6);
        Reply refused = http.get("/q/not_granted", key);
        assertThat(refused.status()).isIn(403, 404);
        assertThat(refused.body()).doesNotContain("p1");
        String narrow = http.key("mongo_narrow", Map.of("connections", List.of("mg"), "allowed_tables",
                List.of("secrets")));
        http.get("/q/granted", narrow).assertRefused(403, "table_not_allowed");

        JsonNode history = http.get("/api/v1/queries/granted/history", ADMIN).json().get("items");
        assertThat(history).hasSize(2);
        assertThat(history.get(0).get("status").asText()).isEqualTo("error");
        assertThat(history.get(1).get("status").asText()).isEqualTo("success");
        assertThat(history.get(1).get("key_name").asText()).isEqualTo("mongo_saved");
        Jdbi store = Jdbi.create("jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db"));
        long deadline = System.currentTimeMillis() + 10_000;
        long events = 0;
        while (System.currentTimeMillis() < deadline && events < 2) {
            Thread.sleep(50);
            events = store.withHandle(h -> h.createQuery("SELECT count(*) FROM events e JOIN saved_queries q"
                    + " ON q.id = e.query_id WHERE q.name = 'granted'").mapTo(Long.class).one());
        }
        assertThat(events).isEqualTo(2);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSavedMongoQueryIsAnMcpTool() {
        save(mongoQuery("mcp_people", Map.of("city", ":city"), Map.of("city", "str")));
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + APP.getLocalPort()).endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("X-API-Key", ADMIN)).build();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.initialize();
            McpSchema.Tool tool = client.listTools().tools().stream().filter(t -> t.name().equals("mcp_people"))
                    .findFirst().orElseThrow();
            assertThat(tool.inputSchema().get("required")).isEqualTo(List.of("city"));
            CallToolResult r = client.callTool(new CallToolRequest("mcp_people", Map.of("city", "Rome")));
            assertThat(r.isError()).as(r.content().toString()).isFalse();
            List<Map<String, Object>> rows = (List<Map<String, Object>>) ((Map<String, Object>) r.structuredContent())
                    .get("rows");
            assertThat(rows).extracting(row -> ((Number) row.get("_id")).intValue()).containsExactly(1, 3, 5);
            CallToolResult operator = client.callTool(new CallToolRequest("mcp_people", Map.of("city",
                    Map.of("$ne", "x"))));
            assertThat(operator.isError()).isTrue();
        }
    }

    @Test
    void aCachedAnswerIsServedUntilItsTtlEnds() {
        Map<String, Object> body = mongoQuery("cached_cities", Map.of(), Map.of());
        body.put("mongo_collection", "cities");
        body.put("cache_ttl", 300);
        assertThat(save(body).status()).isEqualTo(201);
        assertThat(ids(http.get("/q/cached_cities", ADMIN))).containsExactly(1);
        db().getCollection("cities").insertOne(new Document("_id", 2).append("name", "Rome"));
        assertThat(ids(http.get("/q/cached_cities", ADMIN))).as("the cached answer").containsExactly(1);
        assertThat(ids(http.get("/q/cached_cities?page=1&page_size=7", ADMIN))).as("another page: not cached")
                .containsExactly(1, 2);
    }

    @Test
    void aMongoQueryIsDeclaredInAConfigurationFile() {
        String file = "name: cfg_rome\nconnection_name: mg\nquery_type: mongo\nmongo_collection: people\n"
                + "mongo_filter: {city: ':city'}\nmongo_sort: {_id: 1}\nparameters:\n  city: str\n";
        String files = Http.json(Map.of("files", Map.of("queries/cfg_rome.yaml", file)));
        Reply applied = http.post("/api/v1/config/apply", ADMIN, files);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(ids(http.get("/q/cfg_rome?city=Rome", ADMIN))).containsExactly(1, 3, 5);
        Reply again = http.post("/api/v1/config/diff", ADMIN, files);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().get("summary").get("update").asInt()).as(again.body()).isZero();
        assertThat(again.json().get("summary").get("create").asInt()).as(again.body()).isZero();
        String writes = file.replace("mongo_filter: {city: ':city'}\nmongo_sort: {_id: 1}\nparameters:\n  city: str\n",
                "mongo_pipeline: [{$out: stolen}]\n");
        http.post("/api/v1/config/apply", ADMIN, Http.json(Map.of("files", Map.of("queries/cfg_rome.yaml", writes))))
                .assertRefused(400, "invalid_config");
    }
}
