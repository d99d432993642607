package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/v1/examples}: the example APIs installed, run with their own keys, kept across a restart, refused
 * when something else holds an example's name, and removed exactly.
 */
class ExamplesIT {
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final List<String> QUERIES = List.of("example_monthly_revenue", "example_top_films",
            "example_revenue_by_category", "example_kpi_rentals_today", "example_kpi_active_rentals",
            "example_kpi_overdue", "example_recent_rentals", "example_all_rentals", "example_rentals_since",
            "example_film_lookup", "example_film_search");

    @Test
    void theExamplesAreInstalledRunKeptAndRemoved() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), "");
        DropwizardTestSupport<GatewayConfiguration> app = start(config);
        Map<String, String> secrets = new java.util.HashMap<>();
        try {
            Http http = http(app);
            JsonNode before = http.get("/api/v1/examples", ADMIN).json();
            assertThat(before.toString()).isEqualTo("{\"loaded\":false,\"partial\":false,\"connection\":null,"
                    + "\"queries\":[],\"roles\":[],\"keys\":[],\"collections\":[]}");
            Reply loaded = http.post("/api/v1/examples", ADMIN, "");
            assertThat(loaded.status()).as(loaded.body()).isEqualTo(200);
            assertThat(loaded.header("Cache-Control")).isEqualTo("no-store");
            JsonNode added = loaded.json().get("added");
            assertThat(added.get("connection").asBoolean()).isTrue();
            assertThat(added.get("queries")).hasSize(11);
            assertThat(added.get("keys").toString()).isEqualTo("[\"example-dashboard\",\"example-executive\","
                    + "\"example-export\",\"example-partner\",\"example-reporting\"]");
            loaded.json().get("key_secrets").fields().forEachRemaining(e -> secrets.put(e.getKey(),
                    e.getValue().asText()));
            JsonNode status = loaded.json().get("status");
            assertThat(status.get("loaded").asBoolean()).isTrue();
            assertThat(status.get("collections").toString()).isEqualTo("[\"examples-dashboard\",\"examples-export\","
                    + "\"examples-partner\",\"examples-reporting\"]");

            for (String q : QUERIES) {
                Reply r = http.get("/q/" + q + (q.equals("example_film_lookup") ? "?film_id=1"
                        : q.equals("example_film_search") ? "?text=Harbor" : ""), ADMIN);
                assertThat(r.status()).as(q + ": " + r.body()).isEqualTo(200);
            }
            Reply lookup = http.get("/q/example_film_lookup?film_id=1", secrets.get("example-partner"));
            assertThat(lookup.status()).as(lookup.body()).isEqualTo(200);
            assertThat(lookup.json().get(0).get("title").asText()).isEqualTo("Crimson Harbor");
            http.get("/q/example_top_films", secrets.get("example-partner")).assertRefused(403, "query_not_granted");
            assertThat(http.get("/q/example_top_films?category=Comedy", secrets.get("example-executive")).status())
                    .isEqualTo(200);
            assertThat(http.get("/q/example_kpi_overdue", secrets.get("example-executive")).status()).isEqualTo(200);
            http.get("/q/example_all_rentals", secrets.get("example-executive")).assertRefused(403, "query_not_granted");

            JsonNode seeded = http.get("/api/v1/queries/example_top_films/history", ADMIN).json().get("items");
            assertThat(seeded.size()).isGreaterThanOrEqualTo(8);
            assertThat(seeded.toString()).contains("\"key_name\":\"example-reporting\"");
            assertThat(http.get("/api/v1/queries?search=kpi", ADMIN).json().get("items")).hasSize(3);
            assertThat(http.get("/api/v1/queries/example_kpi_overdue", ADMIN).json().get("example").asBoolean())
                    .isTrue();

            JsonNode again = http.post("/api/v1/examples", ADMIN, "").json();
            assertThat(again.get("added").toString()).as("idempotent").isEqualTo("{\"connection\":false,"
                    + "\"queries\":[],\"roles\":[],\"keys\":[]}");
            assertThat(again.get("key_secrets")).isEmpty();
        } finally {
            app.after();
        }

        DropwizardTestSupport<GatewayConfiguration> restarted = start(config);
        try {
            Http http = http(restarted);
            assertThat(http.get("/q/example_film_lookup?film_id=2", secrets.get("example-partner")).status())
                    .as("the examples' connection is back after a restart").isEqualTo(200);
            JsonNode removed = http.request("DELETE", "/api/v1/examples", ADMIN, null).json();
            assertThat(removed.get("removed").get("connection").asBoolean()).isTrue();
            assertThat(removed.get("removed").get("queries")).hasSize(11);
            assertThat(removed.get("removed").get("keys")).hasSize(5);
            assertThat(removed.get("status").get("loaded").asBoolean()).isFalse();
            assertThat(removed.get("status").get("partial").asBoolean()).isFalse();
            assertThat(http.get("/q/example_film_lookup?film_id=2", secrets.get("example-partner")).status())
                    .isEqualTo(401);
            http.get("/api/v1/queries/example_film_lookup", ADMIN).assertRefused(404, "query_not_found");
            assertThat(Files.exists(config.getParent().resolve("examples.duckdb"))).isFalse();

            Reply mine = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "example_top_films", "sql",
                    "SELECT 1 AS mine", "connection_name", "demo", "publish", true)));
            assertThat(mine.status()).isEqualTo(201);
            Reply conflict = http.post("/api/v1/examples", ADMIN, "");
            conflict.assertRefused(409, "examples_conflict");
            assertThat(conflict.json().get("error").asText()).contains("saved query 'example_top_films'");
            JsonNode untouched = http.get("/api/v1/examples", ADMIN).json();
            assertThat(untouched.get("partial").asBoolean()).as("nothing was loaded").isFalse();
            assertThat(http.get("/q/example_top_films", ADMIN).json().get(0).get("mine").asInt()).isEqualTo(1);
            http.request("DELETE", "/api/v1/examples", ADMIN, null);
            assertThat(http.get("/q/example_top_films", ADMIN).status()).as("not an example: kept").isEqualTo(200);
            String key = http.key("not-admin", Map.of("queries", List.of("example_top_films")));
            http.get("/api/v1/examples", key).assertRefused(403, "admin_only");
        } finally {
            restarted.after();
        }
    }

    private static DropwizardTestSupport<GatewayConfiguration> start(Path config) throws Exception {
        DropwizardTestSupport<GatewayConfiguration> app = new DropwizardTestSupport<>(GatewayApplication.class,
                config.toString());
        app.before();
        return app;
    }

    private static Http http(DropwizardTestSupport<GatewayConfiguration> app) {
        return new Http("http://127.0.0.1:" + app.getLocalPort());
    }
}
