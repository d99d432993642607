package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/history/summary} on a real store (the SQLite and the PostgreSQL subclasses), from calls made over
 * HTTP: calls, errors, cache hits (recorded with each call), the status classes, percentiles in order, the busiest
 * queries; a window without calls; bad windows refused.
 */
abstract class HistorySummaryContract {
    static final String ADMIN = TestingConfig.ADMIN_KEY;

    abstract String base();

    Http http() {
        return new Http(base());
    }

    private JsonNode summary(String query) {
        Reply r = http().get("/api/v1/history/summary" + query, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void addsUpTheCallsOfTheWindow() {
        http().saveQuery(ADMIN, "summary_cached", "SELECT film_id, title FROM film WHERE film_id = :film_id",
                Map.of("film_id", Map.of("type", "int", "min", 1)), true, "cached", Map.of("cache_ttl", 300));
        JsonNode before = summary("");
        for (int i = 1; i <= 4; i++) {
            assertThat(http().get("/q/film?film_id=" + i, ADMIN).status()).isEqualTo(200);
        }
        assertThat(http().get("/q/film?film_id=0", ADMIN).status()).isEqualTo(400);
        assertThat(http().get("/q/film?film_id=abc", ADMIN).status()).isEqualTo(400);
        for (int i = 0; i < 3; i++) {
            assertThat(http().get("/q/summary_cached?film_id=5", ADMIN).header("X-Cache"))
                    .isEqualTo(i == 0 ? "MISS" : "HIT");
        }
        JsonNode after = summary("?hours=1");
        assertThat(after.get("calls").asLong() - before.get("calls").asLong()).isEqualTo(9);
        assertThat(after.get("errors").asLong() - before.get("errors").asLong()).isEqualTo(2);
        assertThat(after.get("cache_hits").asLong() - before.get("cache_hits").asLong()).isEqualTo(2);
        assertThat(after.get("by_status").get("2xx").asLong() - before.get("by_status").get("2xx").asLong())
                .isEqualTo(7);
        assertThat(after.get("by_status").get("4xx").asLong() - before.get("by_status").get("4xx").asLong())
                .isEqualTo(2);
        assertThat(after.get("rows").asLong() - before.get("rows").asLong()).isEqualTo(7);
        assertThat(after.get("overloaded").asLong()).isZero();
        assertThat(after.get("database_unavailable").asLong()).isZero();
        assertThat(after.get("adhoc_calls").asLong()).isZero();
        double p50 = after.get("p50_ms").asDouble();
        assertThat(p50).isPositive();
        assertThat(after.get("p99_ms").asDouble()).isGreaterThanOrEqualTo(p50);
        JsonNode top = after.get("top_queries");
        assertThat(top.size()).isBetween(2, 5);
        JsonNode cached = null;
        for (JsonNode q : top) {
            if ("summary_cached".equals(q.get("query").asText())) {
                cached = q;
            }
        }
        assertThat(cached).as(top.toString()).isNotNull();
        assertThat(cached.get("calls").asLong()).isEqualTo(3);
        assertThat(cached.get("errors").asLong()).isZero();
        assertThat(top.get(0).get("calls").asLong()).isGreaterThanOrEqualTo(top.get(1).get("calls").asLong());

        JsonNode empty = summary("?since=2000-01-01&until=2000-01-02");
        assertThat(empty.get("calls").asLong()).isZero();
        assertThat(empty.get("errors").asLong()).isZero();
        assertThat(empty.get("p50_ms").isNull()).isTrue();
        assertThat(empty.get("p99_ms").isNull()).isTrue();
        assertThat(empty.get("top_queries").size()).isZero();
        assertThat(summary("?hours=24").get("calls").asLong()).isGreaterThanOrEqualTo(after.get("calls").asLong());
    }

    @Test
    void refusesABadWindow() {
        http().get("/api/v1/history/summary?hours=0", ADMIN).assertRefused(400, "invalid_filter");
        http().get("/api/v1/history/summary?hours=x", ADMIN).assertRefused(400, "invalid_filter");
        http().get("/api/v1/history/summary?hours=1&since=2026-01-01", ADMIN).assertRefused(400, "invalid_filter");
        http().get("/api/v1/history/summary?since=2026-01-02&until=2026-01-01", ADMIN)
                .assertRefused(400, "invalid_filter");
        assertThat(http().get("/api/v1/history/summary", null).status()).isEqualTo(401);
    }
}
