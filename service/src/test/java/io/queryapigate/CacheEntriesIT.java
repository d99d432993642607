package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code /api/v1/cache/entries} over the in-process response cache, as the Python original's cache browser. */
@ExtendWith(DropwizardExtensionsSupport.class)
class CacheEntriesIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Reply r = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "cached_film", "sql",
                "SELECT film_id, title FROM film WHERE film_id = :id", "parameters", Map.of("id", "int"),
                "connection_name", "demo", "cache_ttl", 60, "publish", true)));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    @Test
    void entriesAreListedReadAndEvicted() {
        assertThat(http.request("DELETE", "/api/v1/cache/entries", ADMIN, null).status()).isEqualTo(204);
        Reply json = http.get("/q/cached_film?id=1", ADMIN);
        Reply csv = http.get("/q/cached_film?id=2&format=csv", ADMIN);
        assertThat(json.header("X-Cache")).isEqualTo("MISS");
        JsonNode items = http.get("/api/v1/cache/entries", ADMIN).json().get("items");
        assertThat(items).hasSize(2);
        JsonNode first = items.get(0);
        assertThat(first.get("key").asText()).matches("[0-9a-f]{32}");
        assertThat(first.get("meta").get("name").asText()).isEqualTo("cached_film");
        assertThat(first.get("meta").get("version").asInt()).isEqualTo(1);
        assertThat(first.get("meta").get("connection").asText()).isEqualTo("demo");
        assertThat(first.get("meta").get("format").asText()).isEqualTo("json");
        assertThat(first.get("content_type").asText()).startsWith("application/json");
        assertThat(first.get("size_bytes").asInt()).isEqualTo(json.body().length());
        assertThat(first.get("ttl_remaining_s").asDouble()).isBetween(1.0, 60.0);
        assertThat(items.get(1).get("meta").get("format").asText()).isEqualTo("csv");

        String key = first.get("key").asText();
        Reply body = http.get("/api/v1/cache/entries/" + key, ADMIN);
        assertThat(body.status()).isEqualTo(200);
        assertThat(body.body()).isEqualTo(json.body());
        assertThat(body.header("Content-Type")).startsWith("application/json");
        assertThat(http.get("/api/v1/cache/entries/" + items.get(1).get("key").asText(), ADMIN)
                .header("Content-Type")).startsWith("text/csv");

        assertThat(http.delete("/api/v1/cache/entries/" + key, ADMIN).status()).isEqualTo(204);
        http.get("/api/v1/cache/entries/" + key, ADMIN).assertRefused(404, "cache_entry_not_found");
        assertThat(http.delete("/api/v1/cache/entries/" + key, ADMIN).status()).as("gone already: a no-op")
                .isEqualTo(204);
        assertThat(http.get("/q/cached_film?id=1", ADMIN).header("X-Cache")).as("evicted: run again")
                .isEqualTo("MISS");
        assertThat(http.request("DELETE", "/api/v1/cache/entries", ADMIN, null).status()).isEqualTo(204);
        assertThat(http.get("/api/v1/cache/entries", ADMIN).json().get("items")).isEmpty();
        assertThat(http.get("/q/cached_film?id=2&format=csv", ADMIN).header("X-Cache")).isEqualTo("MISS");
    }

    @Test
    void onlyTheAdministratorSeesTheCache() {
        String key = http.key("cache-peeker", Map.of("queries", List.of("cached_film")));
        http.get("/api/v1/cache/entries", key).assertRefused(403, "admin_only");
        http.delete("/api/v1/cache/entries", key).assertRefused(403, "admin_only");
        http.get("/api/v1/cache/entries/abc", key).assertRefused(403, "admin_only");
        assertThat(http.get("/api/v1/cache/entries", null).status()).isEqualTo(401);
    }
}
