package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingQuickstart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packaged jar started the way the README starts it ({@code java -jar service/target/queryapigate.jar server
 * config/quickstart.yml} from the repository root), then the README's three calls, as written there.
 */
class QuickstartIT {
    private static final String DEV_KEY = TestingQuickstart.README_KEY;
    @RegisterExtension
    static final TestingQuickstart.Running QUICKSTART = new TestingQuickstart.Running();

    private static Http http() {
        return QUICKSTART.get().http();
    }

    @Test
    void theReadmeCallsWorkAsWritten() {
        // 1. the seeded saved query
        Reply film = http().get("/q/film?film_id=1", DEV_KEY);
        assertThat(film.status()).as(film.body()).isEqualTo(200);
        assertThat(film.json().get(0).get("film_id").asInt()).isEqualTo(1);
        assertThat(film.json().get(0).get("title").asText()).isNotBlank();
        Reply sqlite = http().get("/q/film_sqlite?film_id=1", DEV_KEY);
        assertThat(sqlite.status()).as(sqlite.body()).isEqualTo(200);
        assertThat(sqlite.json()).as("the SQLite copy answers as DuckDB does").isEqualTo(film.json());

        // 2. ad-hoc SQL with a bound parameter
        Reply adhoc = http().post("/execute_sql", DEV_KEY, "{\"sql\": \"SELECT customer_id, first_name, last_name "
                + "FROM customer WHERE customer_id = :id\", \"params\": {\"id\": 1}, \"connection_name\": \"demo\"}");
        assertThat(adhoc.status()).as(adhoc.body()).isEqualTo(200);
        assertThat(adhoc.json().get(0).get("customer_id").asInt()).isEqualTo(1);

        // 3. a saved query and a scoped key through the management API, then the call with that key
        Reply created = http().post("/api/v1/queries", DEV_KEY, Http.json(Map.of(
                "name", "rentals_by_customer",
                "sql", "SELECT rental_id, film_id, rental_date, amount FROM rental WHERE customer_id = :customer_id"
                        + " ORDER BY rental_date DESC LIMIT 5",
                "parameters", Map.of("customer_id", Map.of("type", "int", "min", 1)),
                "connection_name", "demo",
                "publish", true)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Reply key = http().post("/api/v1/api-keys", DEV_KEY, Http.json(Map.of("name", "partner",
                "queries", List.of("rentals_by_customer"))));
        assertThat(key.status()).as(key.body()).isEqualTo(201);
        String secret = key.json().get("secret").asText();
        Reply rentals = http().get("/q/rentals_by_customer?customer_id=1", secret);
        assertThat(rentals.status()).as(rentals.body()).isEqualTo(200);
        JsonNode rows = rentals.json();
        assertThat(rows.size()).isBetween(1, 5);
        assertThat(rows.get(0).get("rental_date").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}.*");
        assertThat(http().get("/q/film?film_id=1", secret).status()).isEqualTo(403);
    }

    @Test
    void theAdminPortReportsHealthyConnectionsAndStore() {
        Http admin = QUICKSTART.get().admin();
        Reply health = admin.get("/healthcheck", null);
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("connection.demo").get("healthy").asBoolean()).isTrue();
        assertThat(health.json().get("connection.demo_sqlite").get("healthy").asBoolean()).isTrue();
        assertThat(health.json().get("store").get("healthy").asBoolean()).isTrue();
        assertThat(admin.get("/metrics", null).body()).contains("qag_events_written_total");
        assertThat(admin.get("/metrics/json", null).json().get("counters").has("events.written")).isTrue();
    }

    @Test
    void checkValidatesTheQuickstartConfig() throws Exception {
        Process check = TestingQuickstart.command("check", "config/quickstart.yml").start();
        String out = new String(check.getInputStream().readAllBytes());
        assertThat(check.waitFor()).as(out).isZero();
        Process dialects = TestingQuickstart.command("dialects").start();
        String listed = new String(dialects.getInputStream().readAllBytes());
        assertThat(dialects.waitFor()).isZero();
        assertThat(listed).contains("duckdb").contains("sqlite");

        Path bad = QUICKSTART.get().home().resolve("bad.yml");
        Files.writeString(bad, Files.readString(TestingQuickstart.repo().resolve("config/quickstart.yml"))
                .replace("dialect: duckdb", "dialect: duckbd"));
        Process refused = TestingQuickstart.command("check", bad.toString()).start();
        String why = new String(refused.getInputStream().readAllBytes());
        assertThat(refused.waitFor()).isNotZero();
        assertThat(why).contains("connections.demo.dialect").contains("duckbd");
    }
}
