package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Run history as clients of the Python original read it: every call in {@code GET /api/v1/history} (saved and
 * ad-hoc), one query's in {@code .../history}, items in the original's shape, its filters and codes, a string
 * cursor, a query's {@code last_used_at} and per-version {@code run_count}, and {@code DELETE /api/v1/history}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class HistoryApiIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed())
                    .toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;
    private static String reader;

    @BeforeAll
    static void runSome() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        reader = http.key("history-reader", Map.of("connections", List.of("demo"), "adhoc_sql", true));
        assertThat(http.get("/q/film?film_id=1", ADMIN).status()).isEqualTo(200);
        assertThat(http.get("/q/film?film_id=2", reader).status()).isEqualTo(200);
        assertThat(http.get("/q/film?film_id=oops", reader).status()).isEqualTo(400);
        assertThat(http.post("/execute_sql", reader, Http.json(Map.of("sql", "SELECT 1 AS one",
                "connection_name", "demo"))).status()).isEqualTo(200);
        assertThat(http.post("/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT * FROM no_such_table",
                "connection_name", "demo"))).status()).isEqualTo(500);
    }

    private static JsonNode items(String query) {
        Reply r = http.get("/api/v1/history" + query, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get("items");
    }

    @Test
    void everyCallIsInTheGlobalHistoryInTheOriginalsShape() {
        JsonNode all = items("");
        assertThat(all.size()).isGreaterThanOrEqualTo(5);
        JsonNode adhocError = all.get(0);
        List<String> fields = new ArrayList<>();
        adhocError.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("query", "version", "kind", "executed_at", "connection_name",
                "request_id", "key_name", "transport", "status", "duration_ms", "code", "http_status", "sql_hash");
        assertThat(adhocError.get("kind").asText()).isEqualTo("adhoc");
        assertThat(adhocError.get("query").isNull()).isTrue();
        assertThat(adhocError.get("status").asText()).isEqualTo("error");
        assertThat(adhocError.get("code").asText()).isEqualTo("query_failed");
        assertThat(adhocError.get("http_status").asInt()).isEqualTo(500);
        assertThat(adhocError.get("key_name").asText()).isEqualTo("admin");
        assertThat(adhocError.get("transport").asText()).isEqualTo("rest");
        assertThat(adhocError.get("connection_name").asText()).isEqualTo("demo");
        assertThat(adhocError.get("executed_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(adhocError.get("sql_hash").asText()).matches("[0-9a-f]{16}");
        JsonNode adhocRun = all.get(1);
        assertThat(adhocRun.get("status").asText()).isEqualTo("success");
        assertThat(adhocRun.get("rows").asLong()).isEqualTo(1);
        assertThat(adhocRun.get("key_name").asText()).isEqualTo("history-reader");
        JsonNode saved = all.get(3);
        assertThat(saved.get("query").asText()).isEqualTo("film");
        assertThat(saved.get("version").asInt()).isEqualTo(1);
        assertThat(saved.get("kind").asText()).isEqualTo("saved");
        assertThat(saved.has("sql_hash")).isFalse();
        assertThat(saved.get("request_id").asText()).isNotEmpty();
    }

    @Test
    void theFiltersAreTheOriginals() {
        assertThat(items("?kind=adhoc")).hasSize(2);
        assertThat(items("?kind=saved").size()).isGreaterThanOrEqualTo(3);
        assertThat(items("?query=film")).hasSize(3);
        assertThat(items("?query=film&version=1&status=error")).hasSize(1);
        assertThat(items("?query=no_such_query")).isEmpty();
        assertThat(items("?key=history-reader")).hasSize(3);
        assertThat(items("?key=admin&kind=saved").get(0).get("query").asText()).isEqualTo("film");
        assertThat(items("?key=nobody")).isEmpty();
        String tomorrow = LocalDateTime.now().plusDays(1).format(DateTimeFormatter.ofPattern("yyyy-MM-dd"));
        assertThat(items("?since=" + tomorrow)).isEmpty();
        assertThat(items("?until=" + tomorrow).size()).isGreaterThanOrEqualTo(5);
        assertThat(items("?since=2020-01-01%2000:00:00&until=2100-01-01T00:00:00").size()).isGreaterThanOrEqualTo(5);
        http.get("/api/v1/history?kind=x", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/history?status=ok", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/history?limit=abc", ADMIN).assertRefused(400, "invalid_request");
        http.get("/api/v1/history?limit=0", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/history?since=2026-13-01", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/history?cursor=abc", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/history", reader).assertRefused(403, "admin_only");
    }

    @Test
    void aCursorPagesThroughEveryCallOnce() {
        int total = items("").size();
        List<String> seen = new ArrayList<>();
        String cursor = "";
        int pages = 0;
        do {
            JsonNode page = http.get("/api/v1/history?limit=2&cursor=" + cursor, ADMIN).json();
            page.get("items").forEach(i -> seen.add(i.get("request_id").asText()));
            cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asText();
            pages++;
        } while (cursor != null && pages < 100);
        assertThat(seen).hasSize(total).doesNotHaveDuplicates();
    }

    @Test
    void aQuerysHistoryAndItsCounts() {
        JsonNode runs = http.get("/api/v1/queries/film/history", ADMIN).json();
        assertThat(runs.get("items")).hasSize(3);
        assertThat(runs.get("items").get(0).get("code").asText()).isEqualTo("param_invalid");
        assertThat(runs.get("items").get(0).get("connection_name").asText()).isEqualTo("demo");
        assertThat(http.get("/api/v1/queries/film/history?key=history-reader&status=success", ADMIN).json()
                .get("items")).hasSize(1);
        JsonNode detail = http.get("/api/v1/queries/film", ADMIN).json();
        assertThat(detail.get("last_used_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(detail.get("versions").get(0).get("run_count").asInt()).isEqualTo(3);
    }

    @Test
    void forgettingACallerAlsoForgetsItsQuotaCounts() {
        String limited = http.key("forget-quota", Map.of("connections", List.of("demo"),
                "quota", Map.of("calls", 1, "per", "day")));
        assertThat(http.get("/q/film?film_id=3", limited).status()).isEqualTo(200);
        http.get("/q/film?film_id=3", limited).assertRefused(429, "quota_exceeded");
        JsonNode forgotten = http.request("DELETE", "/api/v1/history?caller=forget-quota", ADMIN, null).json();
        assertThat(forgotten.get("usage_periods").asInt()).isBetween(0, 2); // 0 while not yet written to the store
        assertThat(http.get("/q/film?film_id=3", limited).status()).as("the day's count starts again").isEqualTo(200);
    }

    @Test
    void forgettingACallerDeletesTheirRunsAndEvents() {
        String gone = http.key("forget-me", Map.of("connections", List.of("demo"), "adhoc_sql", true));
        http.get("/q/film?film_id=3", gone);
        http.post("/execute_sql", gone, Http.json(Map.of("sql", "SELECT 2 AS two", "connection_name", "demo")));
        JsonNode counted = http.request("DELETE", "/api/v1/history?caller=forget-me&dry_run=true", ADMIN, null).json();
        assertThat(counted.toString()).isEqualTo("{\"runs\":1,\"events\":2,\"usage_periods\":0}");
        assertThat(items("?key=forget-me")).hasSize(2);
        JsonNode deleted = http.request("DELETE", "/api/v1/history?caller=forget-me", ADMIN, null).json();
        assertThat(deleted.toString()).isEqualTo("{\"runs\":1,\"events\":2,\"usage_periods\":0}");
        assertThat(items("?key=forget-me")).isEmpty();
        assertThat(http.get("/api/v1/queries/film/history?key=forget-me", ADMIN).json().get("items")).isEmpty();
        assertThat(items("?key=history-reader")).as("nobody else's").hasSize(3);
        http.request("DELETE", "/api/v1/history", ADMIN, null).assertRefused(400, "invalid_body");
        assertThat(http.request("DELETE", "/api/v1/history?caller=nobody", ADMIN, null).json().get("runs").asInt())
                .isZero();
    }
}
