package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A key's own limits, enforced on real calls as the Python original enforces them: {@code max_rows} shrinks pages and
 * caps rows (buffered, streamed, cached), {@code query_timeout} lowers the time limit, {@code max_concurrent} refuses
 * one call more (on MariaDB, with {@code SLEEP}), and quotas count calls and rows per period, across a restart.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KeyLimitsIT {
    private static final TestServers.Server MARIADB = TestServers.mariadb();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection()
                    + "  maria:\n    dialect: mysql\n    url: " + MARIADB.url() + "\n    user: " + MARIADB.user()
                    + "\n    password: " + MARIADB.password() + "\n    poolSize: 4\n", "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    @BeforeAll
    static void queries() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        for (Map<String, Object> q : List.of(
                Map.<String, Object>of("name", "films", "sql", "SELECT film_id FROM film ORDER BY film_id"),
                Map.<String, Object>of("name", "films_cached", "sql", "SELECT film_id FROM film ORDER BY film_id",
                        "cache_ttl", 60))) {
            Map<String, Object> body = new java.util.HashMap<>(q);
            body.put("connection_name", "demo");
            body.put("publish", true);
            Reply r = http.post("/api/v1/queries", ADMIN, Http.json(body));
            assertThat(r.status()).as(r.body()).isEqualTo(201);
        }
    }

    private static String key(String name, Map<String, Object> limits) {
        Map<String, Object> grants = new java.util.HashMap<>(limits);
        grants.put("connections", List.of("demo", "maria"));
        grants.put("adhoc_sql", true);
        return http.key(name, grants);
    }

    private static List<Integer> ids(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        List<Integer> out = new ArrayList<>();
        r.json().forEach(row -> out.add(row.get("film_id").asInt()));
        return out;
    }

    @Test
    void maxRowsShrinksPagesAndCapsEveryAnswer() {
        String three = key("three-rows", Map.of("max_rows", 3));
        Reply page = http.get("/q/films?page=2&page_size=10", three);
        assertThat(ids(page)).as("pages of max_rows rows, offset by them").containsExactly(4, 5, 6);
        assertThat(page.header("X-Page-Size")).isEqualTo("3");
        assertThat(page.header("X-Has-More")).isEqualTo("true");
        assertThat(ids(http.get("/q/films?page=1&page_size=2", three))).as("a smaller page stays")
                .containsExactly(1, 2);
        assertThat(ids(http.get("/q/films", three))).containsExactly(1, 2, 3);
        assertThat(ids(http.sql(three, "demo", "SELECT film_id FROM film ORDER BY film_id"))).as("ad-hoc SQL too")
                .containsExactly(1, 2, 3);
        Reply csv = http.get("/q/films?format=csv&stream=true", three);
        assertThat(csv.body().strip().split("\r?\n")).as("a stream: its header, 3 rows and the ceiling's mark")
                .containsExactly("film_id", "1", "2", "3", "# truncated: row limit 3 reached");
        assertThat(ids(http.get("/q/films", ADMIN))).as("the administrator's calls are not capped").hasSizeGreaterThan(3);

        assertThat(ids(http.get("/q/films_cached", ADMIN))).hasSizeGreaterThan(3);
        Reply cached = http.get("/q/films_cached", three);
        assertThat(ids(cached)).as("a cached answer of another caller is not served past max_rows")
                .containsExactly(1, 2, 3);
    }

    @Test
    void queryTimeoutLowersTheTimeLimit() {
        String quick = key("half-second", Map.of("query_timeout", 0.5));
        long start = System.nanoTime();
        Reply slow = http.sql(quick, "demo", "SELECT count(*) AS n FROM range(300000) a, range(300000) b"
                + " WHERE (a.range + b.range) % 7 = 3");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(slow.status()).as(slow.body()).isEqualTo(504);
        assertThat(millis).as("cancelled near the key's 0.5 s, not the server's 30 s").isLessThan(10_000);
        assertThat(http.get("/api/v1/api-keys/half-second", ADMIN).json().get("effective_limits")
                .get("query_timeout").asDouble()).isEqualTo(0.5);
    }

    @Test
    void maxConcurrentRefusesOneCallMore() throws Exception {
        String one = key("one-at-a-time", Map.of("max_concurrent", 1));
        String other = key("another-one", Map.of("max_concurrent", 1));
        CompletableFuture<Reply> sleeping = CompletableFuture.supplyAsync(() ->
                http.sql(one, "maria", "SELECT SLEEP(2) AS slept"));
        Thread.sleep(500);
        Reply refused = http.sql(one, "maria", "SELECT 1 AS one");
        refused.assertRefused(429, "too_many_concurrent");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.json().get("retry_after").asInt()).isEqualTo(1);
        assertThat(refused.json().get("max_concurrent").asInt()).isEqualTo(1);
        assertThat(http.sql(other, "maria", "SELECT 1 AS one").status()).as("each key has its own slots")
                .isEqualTo(200);
        assertThat(http.sql(ADMIN, "maria", "SELECT 1 AS one").status()).isEqualTo(200);
        Reply slept = sleeping.get(30, TimeUnit.SECONDS);
        assertThat(slept.status()).as(slept.body()).isEqualTo(200);
        assertThat(http.sql(one, "maria", "SELECT 1 AS one").status()).as("the slot is free again").isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            assertThat(http.sql(one, "maria", "SELECT nope FROM nowhere").status()).isGreaterThanOrEqualTo(400);
        }
        assertThat(http.sql(one, "maria", "SELECT 1 AS one").status()).as("failed calls free their slot")
                .isEqualTo(200);
    }

    @Test
    void quotasCountCallsThenRefuseWithTheOriginalsAnswer() {
        String k = key("three-calls", Map.of("quota", Map.of("calls", 3, "per", "day")));
        List<String> remaining = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Reply r = http.get("/q/films?page_size=1", k);
            assertThat(r.status()).isEqualTo(200);
            remaining.add(r.header("X-Quota-Remaining-Calls"));
            assertThat(r.header("X-Quota-Reset")).matches("\\d{4}-\\d{2}-\\d{2} 00:00:00");
        }
        assertThat(remaining).containsExactly("2", "1", "0");
        Reply over = http.get("/q/films?page_size=1", k);
        over.assertRefused(429, "quota_exceeded");
        JsonNode body = over.json();
        assertThat(body.get("quota").asText()).isEqualTo("calls");
        assertThat(body.get("limit").asLong()).isEqualTo(3);
        assertThat(body.get("error").asText()).startsWith("This caller's daily quota of 3 calls is used up");
        assertThat(body.get("resets_at").asText()).isEqualTo(over.header("X-Quota-Reset"));
        assertThat(body.get("retry_after").asLong()).isBetween(1L, 86_400L);
        assertThat(over.header("Retry-After")).isEqualTo(body.get("retry_after").asText());
        assertThat(http.sql(k, "demo", "SELECT 1 AS one").status()).as("ad-hoc SQL counts too").isEqualTo(429);
        JsonNode usage = http.get("/api/v1/api-keys/three-calls", ADMIN).json().get("usage_this_period");
        assertThat(usage.get("calls").asLong()).isEqualTo(3);
        assertThat(usage.get("calls_limit").asLong()).isEqualTo(3);
        assertThat(usage.get("per").asText()).isEqualTo("day");
    }

    @Test
    void rowQuotasLetTheCrossingCallFinish() {
        String k = key("five-rows", Map.of("quota", Map.of("rows", 5, "per", "month")));
        assertThat(http.get("/q/nothing-here", k).status()).as("a refused call is not counted").isEqualTo(404);
        Reply first = http.get("/q/films?page_size=3", k);
        assertThat(ids(first)).hasSize(3);
        assertThat(first.header("X-Quota-Remaining-Rows")).isEqualTo("2");
        assertThat(first.header("X-Quota-Remaining-Calls")).isNull();
        assertThat(ids(http.get("/q/films?page_size=3", k))).as("the call that crosses completes").hasSize(3);
        Reply over = http.get("/q/films?page_size=3", k);
        over.assertRefused(429, "quota_exceeded");
        assertThat(over.json().get("quota").asText()).isEqualTo("rows");
        assertThat(over.json().get("error").asText()).contains("monthly quota of 5 rows");
    }

    @Test
    void quotaCountsSurviveARestart() throws Exception {
        String config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()).toString();
        DropwizardTestSupport<GatewayConfiguration> before = new DropwizardTestSupport<>(GatewayApplication.class,
                config);
        before.before();
        String k;
        try {
            Http h = new Http("http://127.0.0.1:" + before.getLocalPort());
            k = h.key("two-calls", Map.of("queries", List.of("film"), "quota", Map.of("calls", 2, "per", "month")));
            assertThat(h.get("/q/film?film_id=1", k).status()).isEqualTo(200);
            assertThat(h.get("/q/film?film_id=2", k).status()).isEqualTo(200);
        } finally {
            before.after();
        }
        DropwizardTestSupport<GatewayConfiguration> after = new DropwizardTestSupport<>(GatewayApplication.class,
                config);
        after.before();
        try {
            Http h = new Http("http://127.0.0.1:" + after.getLocalPort());
            h.get("/q/film?film_id=3", k).assertRefused(429, "quota_exceeded");
        } finally {
            after.after();
        }
    }
}
