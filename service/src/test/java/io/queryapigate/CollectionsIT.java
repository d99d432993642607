package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /api/v1/collections}: the listing, renaming and merging, and the Postman v2.1 export. */
@ExtendWith(DropwizardExtensionsSupport.class)
class CollectionsIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    @BeforeAll
    static void queries() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        save("film_lookup", "SELECT title FROM film WHERE film_id = :id AND rating = :rating",
                Map.of("id", Map.of("type", "int", "min", 2, "description", "the film"),
                        "rating", Map.of("type", "str", "required", false, "default", "PG")),
                "reports", true, "One film");
        save("film_search", "SELECT title FROM film WHERE title LIKE :text AND length > :len AND :flag",
                Map.of("text", Map.of("type", "str", "pattern", "[A-Z]+"), "len", Map.of("type", "float",
                        "max", 0.5), "flag", "bool"), "reports", true, null);
        save("film_draft", "SELECT 1 AS one", Map.of(), "reports", false, null);
        save("loose", "SELECT 2 AS two", Map.of(), null, true, null);
        save("other_a", "SELECT 3 AS three", Map.of(), "others", true, null);
    }

    private static void save(String name, String sql, Map<String, Object> parameters, String collection,
            boolean publish, String description) {
        http.saveQuery(ADMIN, name, sql, parameters, publish, description,
                collection == null ? Map.of() : Map.of("collection", collection));
    }

    @Test
    void theListingNamesEachCollectionsQueriesAndTheRest() {
        JsonNode l = http.get("/api/v1/collections", ADMIN).json();
        Map<String, String> byName = new LinkedHashMap<>();
        l.get("items").forEach(i -> byName.put(i.get("name").asText(), i.toString()));
        assertThat(new java.util.ArrayList<>(byName.keySet())).as("by name").isSorted().contains("others", "reports");
        assertThat(byName.get("others")).isEqualTo("{\"name\":\"others\",\"queries\":[\"other_a\"],"
                + "\"keys\":[],\"roles\":[]}");
        assertThat(byName.get("reports")).contains("\"queries\":[\"film_draft\",\"film_lookup\",\"film_search\"]");
        assertThat(l.get("uncollected").toString()).contains("\"loose\"");
    }

    @Test
    void aCollectionIsRenamedOrMergedAsTheOriginalDoes() {
        save("r1", "SELECT 1 AS one", Map.of(), "from-here", true, null);
        save("r2", "SELECT 2 AS two", Map.of(), "to-there", true, null);
        http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"to-there\"}")
                .assertRefused(409, "collection_exists");
        http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"Bad\"}").assertRefused(400, "invalid_name");
        http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"from-here\"}")
                .assertRefused(400, "invalid_name");
        http.patch("/api/v1/collections/nowhere", ADMIN, "{\"name\": \"x\"}")
                .assertRefused(404, "collection_not_found");
        http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"x\", \"y\": 1}")
                .assertRefused(400, "unknown_field");
        http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"x\", \"merge\": \"yes\"}")
                .assertRefused(400, "invalid_body");
        Reply merged = http.patch("/api/v1/collections/from-here", ADMIN, "{\"name\": \"to-there\", \"merge\": true}");
        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        assertThat(merged.json().toString()).isEqualTo("{\"name\":\"to-there\",\"moved\":{\"queries\":[\"r1\"],"
                + "\"keys\":[],\"roles\":[]}}");
        assertThat(http.get("/api/v1/queries/r1", ADMIN).json().get("collection").asText()).isEqualTo("to-there");
        Reply renamed = http.patch("/api/v1/collections/to-there", ADMIN, "{\"name\": \"fresh\"}");
        assertThat(renamed.json().get("moved").get("queries").toString()).isEqualTo("[\"r1\",\"r2\"]");
        assertThat(http.get("/api/v1/queries?collection=fresh", ADMIN).json().get("items")).hasSize(2);
    }

    @Test
    void thePostmanExportHasOneRequestPerPublishedQuery() {
        Reply r = http.get("/api/v1/collections/reports/postman", ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.header("Content-Disposition"))
                .isEqualTo("attachment; filename=\"reports.postman_collection.json\"");
        JsonNode c = r.json();
        assertThat(c.get("info").get("schema").asText())
                .isEqualTo("https://schema.getpostman.com/json/collection/v2.1.0/collection.json");
        assertThat(c.get("auth").toString()).isEqualTo("{\"type\":\"apikey\",\"apikey\":[{\"key\":\"key\","
                + "\"value\":\"X-API-Key\",\"type\":\"string\"},{\"key\":\"value\",\"value\":\"{{apiKey}}\","
                + "\"type\":\"string\"},{\"key\":\"in\",\"value\":\"header\",\"type\":\"string\"}]}");
        assertThat(c.get("variable").get(0).get("value").asText())
                .isEqualTo("http://127.0.0.1:" + APP.getLocalPort());
        assertThat(c.get("variable").get(1).toString()).isEqualTo("{\"key\":\"apiKey\",\"value\":\"\"}");
        assertThat(c.get("item")).as("the draft-only query is not there").hasSize(2);
        JsonNode lookup = c.get("item").get(0);
        assertThat(lookup.get("name").asText()).isEqualTo("film_lookup");
        JsonNode request = lookup.get("request");
        assertThat(request.get("description").asText()).isEqualTo("One film\n\nRuns version 1 of `film_lookup`.");
        assertThat(request.get("url").get("raw").asText()).isEqualTo("{{baseUrl}}/q/film_lookup?id=2");
        JsonNode query = request.get("url").get("query");
        assertThat(query.get(0).toString()).isEqualTo("{\"key\":\"id\",\"value\":\"2\",\"description\":"
                + "\"the film Required. integer, min 2\"}");
        assertThat(query.get(1).toString()).isEqualTo("{\"key\":\"rating\",\"value\":\"PG\",\"description\":"
                + "\"Optional (enable to send). string\",\"disabled\":true}");
        assertThat(query.get(2).toString()).isEqualTo("{\"key\":\"format\",\"value\":\"json\",\"disabled\":true,"
                + "\"description\":\"json (default), csv, tsv, ndjson, ...\"}");
        JsonNode search = c.get("item").get(1).get("request");
        assertThat(search.get("description").asText()).startsWith("Run the saved query film_search");
        assertThat(search.get("url").get("raw").asText())
                .as("a pattern's example matches it").isEqualTo("{{baseUrl}}/q/film_search?text=A&len=0.5&flag=true");
        assertThat(search.get("url").get("query").get(0).get("description").asText())
                .isEqualTo("Required. string, must match /[A-Z]+/");
        assertThat(r.body()).doesNotContain(ADMIN);

        http.get("/api/v1/collections/nowhere/postman", ADMIN).assertRefused(404, "collection_not_found");
        http.get("/api/v1/collections/Bad/postman", ADMIN).assertRefused(400, "invalid_name");
    }
}
