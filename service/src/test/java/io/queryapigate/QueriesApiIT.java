package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /api/v1/queries} as clients of the Python original use it: its fields, shapes, codes, ETags and If-Match,
 * lenient drafts (that still cannot be published or run), versions, validation and flow. SQLite store, DuckDB demo.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class QueriesApiIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final String TIME = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}";
    private static final List<String> SUMMARY = List.of("name", "description", "query_type", "connection_name",
            "collection", "tags", "published_version", "latest_version", "has_draft", "version_count", "example",
            "endpoint", "updated_at", "created_at", "last_used_at", "cache_ttl");
    private static Http http;

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Map<String, Object> body(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static Reply create(Object... pairs) {
        return http.post("/api/v1/queries", ADMIN, Http.json(body(pairs)));
    }

    private static List<String> fields(JsonNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aQuerySavedWithTheOriginalsFieldsReadsBackInItsShapes() {
        Reply r = create("name", "film by id", "sql", "SELECT title FROM film WHERE film_id = :id AND :id > 0",
                "parameters", Map.of("id", Map.of("type", "int", "min", 1, "description", "the film")),
                "connection_name", "demo", "description", "one film", "tags", List.of("catalog", "Films"),
                "author", "alice", "columns", Map.of("title", " its title "), "mcp", false, "collection", "shop",
                "publish", true, "cache_ttl", 0, "mask", List.of(), "query_type", "sql");
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        assertThat(r.header("ETag")).matches("\"[0-9a-f]{32}\"");
        JsonNode d = r.json();
        assertThat(fields(d)).containsExactlyElementsOf(concat(SUMMARY, "versions"));
        assertThat(d.get("description").asText()).isEqualTo("one film");
        assertThat(d.get("collection").asText()).isEqualTo("shop");
        assertThat(d.get("tags")).hasSize(2);
        assertThat(d.get("endpoint").asText()).isEqualTo("/q/film by id");
        assertThat(d.get("created_at").asText()).matches(TIME);
        assertThat(d.get("last_used_at").isNull()).isTrue();
        assertThat(d.get("cache_ttl").isNull()).as("0 is shown as null").isTrue();
        assertThat(d.get("has_draft").asBoolean()).isFalse();
        JsonNode v = d.get("versions").get(0);
        assertThat(fields(v)).containsExactly("version", "status", "uuid", "author", "description", "tags",
                "query_type", "sql", "mongo", "connection_name", "parameters", "placeholders", "cache_ttl", "columns",
                "column_descriptions", "agent_writes", "max_affected_rows", "mask", "mcp", "created_at",
                "last_modified_at", "run_count");
        assertThat(v.get("status").asText()).isEqualTo("published");
        assertThat(v.get("column_descriptions").toString()).as("the author's, the demo has no descriptions")
                .isEqualTo("{\"title\":\"its title\"}");
        assertThat(v.get("uuid").asText()).matches("[0-9a-f-]{36}");
        assertThat(v.get("author").asText()).isEqualTo("alice");
        assertThat(v.get("parameters").get("id").get("type").asText()).as("the original's type name")
                .isEqualTo("integer");
        assertThat(v.get("parameters").get("id").get("required").asBoolean()).isTrue();
        assertThat(v.get("parameters").get("id").get("min").asInt()).isEqualTo(1);
        assertThat(v.get("placeholders").toString()).isEqualTo("[\"id\"]");
        assertThat(v.get("columns").get("title").asText()).isEqualTo("its title");
        assertThat(v.get("mcp").asBoolean()).isFalse();
        assertThat(v.get("run_count").asInt()).isZero();

        Reply one = http.get("/api/v1/queries/film%20by%20id/versions/1", ADMIN);
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.json().has("run_count")).isFalse();
        assertThat(one.json().get("sql").asText()).startsWith("SELECT title");
        http.get("/api/v1/queries/film%20by%20id/versions/first", ADMIN).assertRefused(404, "not_found");
        assertThat(http.get("/q/film%20by%20id?id=1", ADMIN).status()).isEqualTo(200);
    }

    @Test
    void theListHasTheSixteenSummaryFieldsAndTheOriginalsFilters() {
        create("name", "list_a", "sql", "SELECT 1 AS a", "connection_name", "demo", "tags", "alpha, Beta",
                "collection", "listing", "publish", true);
        create("name", "list_b", "sql", "SELECT 2 AS b", "connection_name", "demo", "description", "the B one");
        http.post("/api/v1/queries/list_a/versions", ADMIN, Http.json(body("sql", "SELECT 3 AS a")));
        JsonNode items = http.get("/api/v1/queries", ADMIN).json().get("items");
        JsonNode a = find(items, "list_a");
        assertThat(fields(a)).containsExactlyElementsOf(SUMMARY);
        assertThat(a.get("tags").toString()).isEqualTo("[\"alpha\",\"Beta\"]");
        assertThat(a.get("has_draft").asBoolean()).isTrue();
        assertThat(a.get("latest_version").asInt()).isEqualTo(2);
        assertThat(a.get("published_version").asInt()).isEqualTo(1);
        assertThat(names("?search=beta")).contains("list_a").doesNotContain("list_b");
        assertThat(names("?search=B%20ONE")).containsExactly("list_b");
        assertThat(names("?collection=listing")).containsExactly("list_a");
        assertThat(names("?status=draft")).contains("list_a", "list_b");
        assertThat(names("?status=unpublished")).contains("list_b").doesNotContain("list_a");
        assertThat(names("?status=published")).contains("list_a").doesNotContain("list_b");
        assertThat(names("?connection=nope")).isEmpty();
        http.get("/api/v1/queries?status=bogus", ADMIN).assertRefused(400, "invalid_filter");
        String key = http.key("lister", Map.of("queries", List.of("list_a")));
        http.get("/api/v1/queries", key).assertRefused(403, "admin_only");
    }

    @Test
    void savingRefusesAsTheOriginalDoes() {
        create("name", "taken", "sql", "SELECT 1", "connection_name", "demo");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "bogus", 1)
                .assertRefused(400, "unknown_field");
        create("sql", "SELECT 1", "connection_name", "demo").assertRefused(400, "invalid_name");
        create("name", ".hidden", "sql", "SELECT 1", "connection_name", "demo").assertRefused(400, "invalid_name");
        create("name", "../x", "sql", "SELECT 1", "connection_name", "demo").assertRefused(400, "invalid_name");
        create("name", "taken", "sql", "SELECT 2", "connection_name", "demo").assertRefused(409, "query_exists");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "publish", "yes")
                .assertRefused(400, "invalid_body");
        create("name", "x", "connection_name", "demo").assertRefused(400, "invalid_body");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "tags", 5)
                .assertRefused(400, "invalid_body");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "cache_ttl", -1)
                .assertRefused(400, "invalid_body");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "parameters", "int")
                .assertRefused(400, "invalid_body");
        Reply badRule = create("name", "x", "sql", "SELECT :a", "connection_name", "demo", "parameters",
                Map.of("a", Map.of("type", "bogus")));
        badRule.assertRefused(400, "invalid_body");
        assertThat(badRule.json().get("errors").has("a")).isTrue();
        Reply unused = create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "parameters",
                Map.of("y", "int"));
        unused.assertRefused(400, "invalid_body");
        assertThat(unused.json().get("errors").get("y").asText()).contains("does not use");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "query_type", "mongo")
                .assertRefused(400, "invalid_body");
        Reply mask = create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "mask",
                List.of(Map.of("column", "customer.email", "action", "null")));
        mask.assertRefused(400, "invalid_body");
        assertThat(mask.json().get("error").asText()).contains("per API key");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "agent_writes", "insert")
                .assertRefused(400, "invalid_body");
        create("name", "x", "sql", "SELECT 1", "connection_name", "demo", "collection", "Caps")
                .assertRefused(400, "invalid_name");
        // this gateway's own checks stay, drafts included: one statement, reads only where writes are off
        create("name", "x", "sql", "SELECT 1; SELECT 2", "connection_name", "demo")
                .assertRefused(400, "multiple_statements");
        create("name", "x", "sql", "DELETE FROM film", "connection_name", "demo").assertRefused(403, "read_only");
        create("name", "x", "sql", "SELECT 1").assertRefused(400, "connection_required");
        assertThat(http.post("/api/v1/queries", ADMIN, "[]").json().get("code").asText()).isEqualTo("invalid_body");
        assertThat(http.get("/api/v1/queries/x", ADMIN).json().get("code").asText()).isEqualTo("query_not_found");
    }

    @Test
    void aDraftTheOriginalWouldSaveIsSavedButNeitherPublishedNorRun() {
        Reply undeclared = create("name", "draft_marker", "sql", "SELECT title FROM film WHERE film_id = :x",
                "connection_name", "demo");
        assertThat(undeclared.status()).as(undeclared.body()).isEqualTo(201);
        assertThat(undeclared.json().get("warnings").get(0).asText()).contains(":x").contains("draft");
        assertThat(undeclared.json().get("versions").get(0).get("status").asText()).isEqualTo("draft");
        Reply unknown = create("name", "draft_connection", "sql", "SELECT 1 AS one", "connection_name", "elsewhere");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(201);
        assertThat(unknown.json().get("warnings").get(0).asText()).contains("elsewhere");

        Reply publish = http.post("/api/v1/queries/draft_marker/publish", ADMIN, "{\"version\": 1}");
        publish.assertRefused(400, "invalid_body");
        assertThat(publish.json().get("errors").has("x")).isTrue();
        http.post("/api/v1/queries/draft_connection/publish", ADMIN, "{\"version\": 1}")
                .assertRefused(400, "connection_not_found");
        http.get("/q/draft_marker?version=1&x=1", ADMIN).assertRefused(400, "invalid_parameters");
        http.get("/q/draft_connection?version=1", ADMIN).assertRefused(404, "connection_not_found");
        create("name", "published_marker", "sql", "SELECT :x AS x", "connection_name", "demo", "publish", true)
                .assertRefused(400, "invalid_body");

        Reply fixed = http.post("/api/v1/queries/draft_marker/versions", ADMIN, Http.json(body("sql",
                "SELECT title FROM film WHERE film_id = :x", "parameters", Map.of("x", "int"), "publish", true)));
        assertThat(fixed.status()).as(fixed.body()).isEqualTo(201);
        assertThat(fixed.json().has("warnings")).isFalse();
        assertThat(fixed.json().get("created_version").asInt()).isEqualTo(2);
        assertThat(fixed.json().get("versions").get(1).get("connection_name").asText())
                .as("a new version keeps the latest's connection").isEqualTo("demo");
        assertThat(http.get("/q/draft_marker?x=1", ADMIN).status()).isEqualTo(200);
        http.post("/api/v1/queries/draft_marker/versions", ADMIN, Http.json(body("sql", "SELECT 1", "name", "y")))
                .assertRefused(400, "invalid_body");
    }

    @Test
    void ifMatchGuardsEveryChangeAndThePatchesAreTheOriginals() {
        create("name", "etagged", "sql", "SELECT :n AS n", "parameters", Map.of("n", "int"), "connection_name", "demo",
                "publish", true);
        String etag = http.get("/api/v1/queries/etagged", ADMIN).header("ETag");
        Reply notModified = http.request("GET", "/api/v1/queries/etagged", ADMIN, null, "If-None-Match", etag);
        assertThat(notModified.status()).as("If-None-Match is not honoured, as in the original").isEqualTo(200);
        Reply moved = http.request("PATCH", "/api/v1/queries/etagged", ADMIN, "{\"collection\": \"reports\"}",
                "If-Match", etag);
        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        assertThat(moved.json().get("collection").asText()).isEqualTo("reports");
        assertThat(moved.header("ETag")).isNotEqualTo(etag);
        for (String[] change : new String[][] {{"PATCH", "/api/v1/queries/etagged", "{\"collection\": null}"},
                {"POST", "/api/v1/queries/etagged/versions", "{\"sql\": \"SELECT 2\"}"},
                {"POST", "/api/v1/queries/etagged/unpublish", null},
                {"POST", "/api/v1/queries/etagged/publish", "{\"version\": 1}"},
                {"PATCH", "/api/v1/queries/etagged/versions/1", "{\"cache_ttl\": 5}"},
                {"DELETE", "/api/v1/queries/etagged/versions/1", null},
                {"DELETE", "/api/v1/queries/etagged", null}}) {
            http.request(change[0], change[1], ADMIN, change[2], "If-Match", etag)
                    .assertRefused(412, "precondition_failed");
        }
        assertThat(http.request("PATCH", "/api/v1/queries/etagged", ADMIN, "{\"collection\": null}", "If-Match",
                "*").json().get("collection").isNull()).isTrue();
        http.patch("/api/v1/queries/etagged", ADMIN, "{\"tags\": [\"a\"]}").assertRefused(400, "unknown_field");
        http.patch("/api/v1/queries/etagged", ADMIN, "{\"collection\": \"Bad\"}").assertRefused(400, "invalid_name");
        http.patch("/api/v1/queries/etagged", ADMIN, "[]").assertRefused(400, "invalid_body");
        http.patch("/api/v1/queries/nope", ADMIN, "[]").assertRefused(404, "query_not_found");
        http.request("DELETE", "/api/v1/queries/nope", ADMIN, null).assertRefused(404, "query_not_found");
    }

    @Test
    void aVersionsCacheTtlAndMcpChangeInPlaceAndTheCallPathSeesIt() {
        create("name", "ttl_later", "sql", "SELECT :n AS n, random() AS r", "parameters", Map.of("n", "int"),
                "connection_name", "demo", "publish", true);
        assertThat(http.get("/q/ttl_later?n=1", ADMIN).header("X-Cache")).isNull();
        Reply patched = http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"cache_ttl\": 60, \"mcp\": false}");
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(patched.json().get("cache_ttl").asInt()).isEqualTo(60);
        assertThat(patched.json().get("versions").get(0).get("mcp").asBoolean()).isFalse();
        assertThat(http.get("/q/ttl_later?n=1", ADMIN).header("X-Cache")).isEqualTo("MISS");
        assertThat(http.get("/q/ttl_later?n=1", ADMIN).header("X-Cache")).isEqualTo("HIT");
        http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"cache_ttl\": -1}")
                .assertRefused(400, "invalid_body");
        http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"cache_ttl\": \"5\"}")
                .assertRefused(400, "invalid_body");
        http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"mcp\": 1}").assertRefused(400, "invalid_body");
        http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"sql\": \"SELECT 2\"}")
                .assertRefused(400, "unknown_field");
        http.patch("/api/v1/queries/ttl_later/versions/9", ADMIN, "{\"cache_ttl\": 1}")
                .assertRefused(404, "version_not_found");
        http.get("/api/v1/queries/ttl_later/versions/9", ADMIN).assertRefused(404, "version_not_found");
        assertThat(http.get("/api/v1/queries/ttl_later/versions/abc", ADMIN).status()).isEqualTo(404);
        Reply off = http.patch("/api/v1/queries/ttl_later/versions/1", ADMIN, "{\"cache_ttl\": null}");
        assertThat(off.json().get("cache_ttl").isNull()).isTrue();
        assertThat(http.get("/q/ttl_later?n=2", ADMIN).header("X-Cache")).isNull();
    }

    @Test
    void deletingVersionsFallsBackToAnOlderOneAndTheLastTakesTheQuery() {
        create("name", "shrinking", "sql", "SELECT 1 AS v", "connection_name", "demo", "publish", true);
        http.post("/api/v1/queries/shrinking/versions", ADMIN, Http.json(body("sql", "SELECT 2 AS v", "publish", true)));
        http.post("/api/v1/queries/shrinking/versions", ADMIN, Http.json(body("sql", "SELECT 3 AS v")));
        Reply afterPublished = http.delete("/api/v1/queries/shrinking/versions/2", ADMIN);
        assertThat(afterPublished.status()).as(afterPublished.body()).isEqualTo(200);
        assertThat(afterPublished.json().get("published_version").asInt()).as("the newest older one").isEqualTo(1);
        assertThat(http.get("/q/shrinking", ADMIN).json().get(0).get("v").asInt()).isEqualTo(1);
        http.delete("/api/v1/queries/shrinking/versions/2", ADMIN).assertRefused(404, "version_not_found");
        assertThat(http.delete("/api/v1/queries/shrinking/versions/1", ADMIN).json().get("published_version")
                .isNull()).as("no older version: unpublished, never a newer draft").isTrue();
        assertThat(http.delete("/api/v1/queries/shrinking/versions/3", ADMIN).status()).isEqualTo(204);
        http.get("/api/v1/queries/shrinking", ADMIN).assertRefused(404, "query_not_found");
    }

    @Test
    void aQueryNamedLikeARouteIsStillReachable() {
        assertThat(create("name", "validate", "sql", "SELECT 1 AS one", "connection_name", "demo", "publish", true)
                .status()).isEqualTo(201);
        Reply detail = http.get("/api/v1/queries/validate", ADMIN);
        assertThat(detail.status()).as(detail.body()).isEqualTo(200);
        assertThat(detail.json().get("name").asText()).isEqualTo("validate");
        assertThat(http.patch("/api/v1/queries/validate", ADMIN, "{\"collection\": \"x\"}").status()).isEqualTo(200);
        assertThat(http.get("/q/validate", ADMIN).status()).isEqualTo(200);
        assertThat(http.request("DELETE", "/api/v1/queries/validate", ADMIN, null).status()).isEqualTo(204);
    }

    @Test
    void validateAnswersEveryProblemAndTheTables() {
        Reply ok = http.post("/api/v1/queries/validate", ADMIN, Http.json(body("sql",
                "SELECT f.title FROM film f JOIN rental r ON r.film_id = f.film_id WHERE f.film_id = :id",
                "parameters", Map.of("id", "int"), "connection_name", "demo")));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().toString()).isEqualTo("{\"valid\":true,\"errors\":[],\"placeholders\":[\"id\"],"
                + "\"tables\":[\"film\",\"rental\"]}");
        JsonNode bad = http.post("/api/v1/queries/validate", ADMIN, Http.json(body("sql",
                "SELECT :id, :other FROM film; DROP TABLE film", "parameters", Map.of("id", "int", "zz", "int"),
                "connection_name", "nope", "bogus", 1))).json();
        assertThat(bad.get("valid").asBoolean()).isFalse();
        List<String> messages = new ArrayList<>();
        bad.get("errors").forEach(e -> messages.add(e.path("field").asText("-") + ": " + e.get("message").asText()));
        assertThat(messages).hasSize(4);
        assertThat(messages.get(0)).contains("Unknown field(s): bogus");
        assertThat(messages.get(1)).isEqualTo("connection_name: Connection 'nope' not found");
        assertThat(messages.get(2)).startsWith("sql: ");
        assertThat(bad.get("errors").get(3).get("parameters").has("zz")).isTrue();
        assertThat(bad.get("placeholders").toString()).isEqualTo("[\"id\",\"other\"]");
        http.post("/api/v1/queries/validate", ADMIN, "[]").assertRefused(400, "invalid_body");
    }

    @Test
    void theFlowNamesTheTablesAndJoinsAVersionReads() {
        create("name", "flowing", "sql", "WITH recent AS (SELECT * FROM rental WHERE amount > 1) SELECT f.title,"
                + " c.email FROM film f JOIN recent r ON r.film_id = f.film_id LEFT JOIN customer c"
                + " ON c.customer_id = r.customer_id AND c.active", "connection_name", "demo");
        JsonNode flow = http.get("/api/v1/queries/flowing/versions/1/flow", ADMIN).json();
        assertThat(flow.get("error").isNull()).as(flow.toString()).isTrue();
        assertThat(flow.get("tables").toString()).as("a CTE is not a table")
                .isEqualTo("[\"film\",\"customer\",\"rental\"]");
        assertThat(flow.get("joins")).hasSize(2);
        assertThat(flow.get("joins").get(0).toString()).isEqualTo("{\"left\":\"film\",\"right\":\"recent\","
                + "\"type\":\"JOIN\",\"on\":\"r.film_id = f.film_id\"}");
        assertThat(flow.get("joins").get(1).get("type").asText()).isEqualTo("LEFT JOIN");
        assertThat(flow.get("joins").get(1).get("on").asText()).isEqualTo("c.customer_id = r.customer_id"
                + " AND c.active");
        assertThat(flow.get("formatted").isNull()).isTrue();
        create("name", "flow_nowhere", "sql", "SELECT 1", "connection_name", "gone");
        JsonNode none = http.get("/api/v1/queries/flow_nowhere/versions/1/flow", ADMIN).json();
        assertThat(none.get("tables")).isEmpty();
        assertThat(none.get("error").asText()).contains("gone");
        http.get("/api/v1/queries/flowing/versions/2/flow", ADMIN).assertRefused(404, "version_not_found");
    }

    private static List<String> names(String filter) {
        List<String> out = new ArrayList<>();
        http.get("/api/v1/queries" + filter, ADMIN).json().get("items").forEach(i -> out.add(i.get("name").asText()));
        return out;
    }

    private static JsonNode find(JsonNode items, String name) {
        for (JsonNode i : items) {
            if (i.get("name").asText().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name + " not listed: " + items);
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new ArrayList<>(a);
        out.add(b);
        return out;
    }
}
