package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole service on its embedded default (SQLite store, DuckDB demo database), over real HTTP. */
@ExtendWith(DropwizardExtensionsSupport.class)
class GatewayAppIT {
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static Http http;

    @BeforeAll
    static void client() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Jdbi store() {
        return Jdbi.create("jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db"));
    }

    private static String createKey(String name, Object connections, Object queries, boolean adhoc) {
        Reply r = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", name, "connections", connections,
                "queries", queries, "adhoc_sql", adhoc)));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        assertThat(r.header("Cache-Control")).isEqualTo("no-store");
        return r.json().get("secret").asText();
    }

    private static void createQuery(String name, String sql, Map<String, Object> parameters, boolean publish) {
        Reply r = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", name, "sql", sql,
                "parameters", parameters, "connection_name", "demo", "publish", publish)));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    @Test
    void healthIsPublicAndCarriesARequestId() {
        Reply r = http.get("/health", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("status").asText()).isEqualTo("ok");
        assertThat(r.header("X-Request-Id")).matches("[0-9a-f]{16}");
        Reply echoed = http.send(http.builder("/health", null).header("X-Request-Id", "abc-123:x").GET().build());
        assertThat(echoed.header("X-Request-Id")).isEqualTo("abc-123:x");
        Reply unsafe = http.send(http.builder("/health", null).header("X-Request-Id", "evil\tlog").GET().build());
        assertThat(unsafe.header("X-Request-Id")).matches("[0-9a-f]{16}");
    }

    @Test
    void theSeedQueryReturnsTypedRows() {
        Reply r = http.get("/q/film?film_id=1", ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode rows = r.json();
        assertThat(rows).hasSize(1);
        JsonNode row = rows.get(0);
        assertThat(row.get("film_id").isIntegralNumber()).isTrue();
        assertThat(row.get("film_id").asLong()).isEqualTo(1);
        assertThat(row.get("title").isTextual()).isTrue();
        assertThat(row.get("rental_rate").isBigDecimal() || row.get("rental_rate").isNumber()).isTrue();
        assertThat(r.body()).doesNotContain("E+");
    }

    @Test
    void parameterErrorsNameEachParameter() {
        Reply r = http.get("/q/film?film_id=0&colour=red", ADMIN);
        assertThat(r.status()).isEqualTo(400);
        JsonNode body = r.json();
        assertThat(body.get("code").asText()).isEqualTo("param_invalid");
        assertThat(body.get("errors").get("film_id").asText()).isEqualTo("must be at least 1");
        assertThat(body.get("errors").has("colour")).isFalse(); // undeclared values are ignored
        assertThat(body.get("request_id").asText()).isEqualTo(r.header("X-Request-Id"));
        Reply missing = http.get("/q/film?_=123", ADMIN);
        missing.assertRefused(400, "param_required");
        assertThat(missing.json().get("errors").get("film_id").asText()).isEqualTo("is required");
    }

    @Test
    void adHocSqlBindsParameters() {
        Reply r = http.post("/execute_sql", ADMIN, Http.json(Map.of(
                "sql", "SELECT film_id, title FROM film WHERE film_id = :id OR title = :t ORDER BY film_id",
                "params", Map.of("id", 2, "t", "x'; DROP TABLE film; --"), "connection_name", "demo")));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json()).hasSize(1);
        assertThat(r.json().get(0).get("film_id").asInt()).isEqualTo(2);
        Reply count = http.post("/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT count(*) AS n FROM film",
                "connection_name", "demo")));
        assertThat(count.json().get(0).get("n").asLong()).isGreaterThan(0);
    }

    @Test
    void writesAndSecondStatementsAreRefusedAndChangeNothing() {
        long before = filmCount();
        Reply write = http.post("/execute_sql", ADMIN, Http.json(Map.of("sql", "DELETE FROM film",
                "connection_name", "demo")));
        write.assertRefused(403, "read_only");
        Reply two = http.post("/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT 1; DELETE FROM film",
                "connection_name", "demo")));
        two.assertRefused(400, "multiple_statements");
        assertThat(filmCount()).isEqualTo(before);
    }

    private long filmCount() {
        Reply r = http.post("/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT count(*) AS n FROM film",
                "connection_name", "demo")));
        return r.json().get(0).get("n").asLong();
    }

    @Test
    void badBodiesGetClearErrors() {
        Reply notJson = http.post("/execute_sql", ADMIN, "{not json");
        notJson.assertRefused(400, "invalid_body");
        Reply unknownField = http.post("/execute_sql", ADMIN, "{\"sql\": \"SELECT 1\", \"colour\": 1}");
        unknownField.assertRefused(400, "connection_required"); // colour is ignored, as the original does
        Reply notAnObject = http.post("/execute_sql", ADMIN, "[1]");
        notAnObject.assertRefused(400, "invalid_body");
        Reply huge = http.post("/execute_sql", ADMIN, "{\"sql\": \"" + "x".repeat(2_000_000) + "\"}");
        huge.assertRefused(413, "payload_too_large");
        Reply unknownQuery = http.get("/q/no_such_query", ADMIN);
        unknownQuery.assertRefused(404, "query_not_found");
        Reply unknownPath = http.get("/nope", ADMIN);
        unknownPath.assertRefused(404, "not_found");
        Reply badTimeout = http.get("/q/film?film_id=1&timeout=abc", ADMIN);
        assertThat(badTimeout.json().get("code").asText()).isEqualTo("invalid_timeout");
    }

    @Test
    void authRefusesMissingWrongRevokedAndExpiredKeys() {
        createQuery("auth_probe", "SELECT 1 AS one", Map.of(), true);
        String key = createKey("auth-key", List.of(), List.of("auth_probe"), false);
        assertThat(http.get("/q/auth_probe", key).status()).isEqualTo(200);
        assertThat(http.send(http.builder("/q/auth_probe", null).header("Authorization", "Bearer " + key).GET()
                .build()).status()).isEqualTo(200);

        Reply none = http.get("/q/auth_probe", null);
        none.assertRefused(401, "unauthorized");
        assertThat(http.get("/q/auth_probe", key + "x").status()).isEqualTo(401);
        assertThat(http.get("/q/auth_probe", "k\u00e9y").status()).isEqualTo(401);

        String expiring = createKey("expiring-key", List.of(), List.of("auth_probe"), false);
        assertThat(http.get("/q/auth_probe", expiring).status()).isEqualTo(200);
        store().useHandle(h -> h.execute("UPDATE api_keys SET expires_at = ? WHERE name = 'expiring-key'",
                LocalDate.now(ZoneOffset.UTC).minusDays(1).toString()));
        assertThat(http.get("/q/auth_probe", expiring).status()).isEqualTo(401);
        store().useHandle(h -> h.execute("UPDATE api_keys SET expires_at = ? WHERE name = 'expiring-key'",
                LocalDate.now(ZoneOffset.UTC).toString()));
        assertThat(http.get("/q/auth_probe", expiring).status()).as("valid through the end of its day")
                .isEqualTo(200);

        assertThat(http.delete("/api/v1/api-keys/auth-key", ADMIN).status()).isEqualTo(204);
        assertThat(http.get("/q/auth_probe", key).status()).isEqualTo(401);
        http.get("/api/v1/api-keys/auth-key", ADMIN).assertRefused(404, "key_not_found");
    }

    @Test
    void grantsDecideWhatAKeyMayRun() {
        createQuery("grant_a", "SELECT 'a' AS q", Map.of(), true);
        createQuery("grant_b", "SELECT 'b' AS q", Map.of(), true);
        String onlyA = createKey("only-a", List.of(), List.of("grant_a"), false);
        assertThat(http.get("/q/grant_a", onlyA).status()).isEqualTo(200);
        Reply b = http.get("/q/grant_b", onlyA);
        b.assertRefused(403, "query_not_granted");
        Reply adhoc = http.post("/execute_sql", onlyA, Http.json(Map.of("sql", "SELECT 1", "connection_name",
                "demo")));
        assertThat(adhoc.status()).isEqualTo(403);
        Reply admin = http.get("/api/v1/queries", onlyA);
        admin.assertRefused(403, "admin_only");

        String conn = createKey("conn-demo", List.of("demo"), List.of(), true);
        assertThat(http.get("/q/grant_b", conn).status()).isEqualTo(200);
        assertThat(http.post("/execute_sql", conn, Http.json(Map.of("sql", "SELECT 1 AS x", "connection_name",
                "demo"))).status()).isEqualTo(200);
        assertThat(http.post("/execute_sql", conn, Http.json(Map.of("sql", "SELECT 1 AS x", "connection_name",
                "other"))).status()).isEqualTo(403);
        assertThat(http.get("/q/grant_a?connection_name=other", onlyA).json().get("code").asText())
                .isEqualTo("connection_not_granted");
    }

    @Test
    void aSecondVersionKeepsTheFirstRunnable() {
        createQuery("versioned", "SELECT 1 AS v", Map.of(), true);
        Reply v2 = http.post("/api/v1/queries/versioned/versions", ADMIN, Http.json(Map.of("sql", "SELECT 2 AS v")));
        assertThat(v2.status()).as(v2.body()).isEqualTo(201);
        assertThat(http.get("/q/versioned", ADMIN).json().get(0).get("v").asInt()).as("draft not served")
                .isEqualTo(1);
        String key = createKey("versions-key", List.of(), List.of("versioned"), false);
        assertThat(http.get("/q/versioned?version=2", key).status()).as("drafts are for administrators")
                .isEqualTo(404);
        assertThat(http.get("/q/versioned?version=2", ADMIN).json().get(0).get("v").asInt()).isEqualTo(2);

        assertThat(http.post("/api/v1/queries/versioned/publish", ADMIN, "{\"version\": 2}").status())
                .isEqualTo(200);
        assertThat(http.get("/q/versioned", key).json().get(0).get("v").asInt()).isEqualTo(2);
        assertThat(http.get("/q/versioned?version=1", key).json().get(0).get("v").asInt()).isEqualTo(1);
        JsonNode detail = http.get("/api/v1/queries/versioned", ADMIN).json();
        assertThat(detail.get("published_version").asInt()).isEqualTo(2);
        assertThat(detail.get("versions").get(0).get("status").asText()).isEqualTo("previous");
        assertThat(detail.get("versions").get(1).get("status").asText()).isEqualTo("published");
    }

    @Test
    void savingChecksSqlAndParameters() {
        Reply unused = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "bad1", "sql",
                "SELECT :a AS a", "parameters", Map.of("a", "int", "b", "str"), "connection_name", "demo")));
        assertThat(unused.status()).isEqualTo(400);
        assertThat(unused.json().get("errors").get("b").asText()).contains("not use");
        Reply write = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "bad2", "sql",
                "DELETE FROM film", "connection_name", "demo")));
        assertThat(write.status()).isEqualTo(403);
        Reply dup = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "film", "sql", "SELECT 1",
                "connection_name", "demo")));
        dup.assertRefused(409, "query_exists");
        Reply badName = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "../x", "sql", "SELECT 1",
                "connection_name", "demo")));
        assertThat(badName.status()).isEqualTo(400);
    }

    @Test
    void everyCallIsAnEventAndSavedRunsReachTheHistory() throws Exception {
        createQuery("counted", "SELECT :n AS n", Map.of("n", "int"), true);
        long before = store().withHandle(h -> h.createQuery("SELECT count(*) FROM events").mapTo(Long.class).one());
        for (int i = 0; i < 5; i++) {
            assertThat(http.get("/q/counted?n=" + i, ADMIN).status()).isEqualTo(200);
        }
        assertThat(http.get("/q/counted?n=x", ADMIN).status()).isEqualTo(400);
        long deadline = System.currentTimeMillis() + 10_000;
        long after = before;
        while (System.currentTimeMillis() < deadline && after < before + 6) {
            Thread.sleep(50);
            after = store().withHandle(h -> h.createQuery("SELECT count(*) FROM events").mapTo(Long.class).one());
        }
        assertThat(after - before).isGreaterThanOrEqualTo(6);
        JsonNode history = http.get("/api/v1/queries/counted/history", ADMIN).json();
        assertThat(history.get("items")).hasSize(6);
        JsonNode newest = history.get("items").get(0);
        assertThat(newest.get("status").asText()).isEqualTo("error");
        assertThat(newest.get("http_status").asInt()).isEqualTo(400);
        assertThat(newest.get("code").asText()).isEqualTo("param_invalid");
        assertThat(newest.get("key_name").asText()).isEqualTo("admin");
        JsonNode page = http.get("/api/v1/queries/counted/history?limit=4", ADMIN).json();
        assertThat(page.get("items")).hasSize(4);
        assertThat(page.get("next_cursor").isTextual()).as("an opaque string, as in the original").isTrue();
        JsonNode next = http.get("/api/v1/queries/counted/history?limit=4&cursor="
                + page.get("next_cursor").asText(), ADMIN).json();
        assertThat(next.get("items")).hasSize(2);
        assertThat(next.get("next_cursor").isNull()).isTrue();
        assertThat(http.get("/api/v1/queries/counted/history?status=error", ADMIN).json().get("items")).hasSize(1);
        assertThat(http.get("/api/v1/queries/counted/history?status=success", ADMIN).json().get("items")).hasSize(5);
        assertThat(http.get("/api/v1/queries/counted/history?status=400", ADMIN).json().get("items")).hasSize(1);
    }

    @Test
    void historyParametersThatDoNotParseAnswer400NamingThem() {
        createQuery("paged_history", "SELECT 1 AS one", Map.of(), true);
        String base = "/api/v1/queries/paged_history/history";
        // the original's codes: a value that is not a whole number is invalid_request, one out of range or a filter
        // it does not know is invalid_filter (an empty limit= means the default); each names its parameter
        for (String limit : List.of("abc", "1.5")) {
            Reply r = http.get(base + "?limit=" + limit, ADMIN);
            r.assertRefused(400, "invalid_request");
            assertThat(r.json().get("error").asText()).isEqualTo("limit must be an integer");
            assertThat(r.json().get("request_id").asText()).isEqualTo(r.header("X-Request-Id"));
        }
        for (String limit : List.of("999999999999", "0", "1001", "-1")) {
            Reply r = http.get(base + "?limit=" + limit, ADMIN);
            r.assertRefused(400, "invalid_filter");
            assertThat(r.json().get("error").asText()).isEqualTo("limit must be between 1 and 1000");
            assertThat(r.json().get("errors").has("limit")).isTrue();
        }
        http.get(base + "?version=x", ADMIN).assertRefused(400, "invalid_request");
        for (String other : List.of("cursor=99999999999999999999", "cursor=next", "status=2xx", "since=yesterday",
                "until=2026-13-01", "until=2026-02-30")) {
            String name = other.substring(0, other.indexOf('='));
            Reply r = http.get(base + "?" + other, ADMIN);
            r.assertRefused(400, "invalid_filter");
            assertThat(r.json().get("errors").has(name)).as(other).isTrue();
        }
        // valid values still work, an unknown key matches nothing, and an unknown query is still 404
        assertThat(http.get(base + "?limit=1000&version=1&status=200&key=admin&since=2020-01-01&until=2100-01-01"
                + "%2000:00:00", ADMIN).status()).isEqualTo(200);
        assertThat(http.get(base + "?limit=&cursor=&status=", ADMIN).status()).isEqualTo(200);
        assertThat(http.get(base + "?key=abc", ADMIN).json().get("items")).isEmpty();
        assertThat(http.get("/api/v1/queries/no_such_query/history?limit=5", ADMIN).json().get("code").asText())
                .isEqualTo("query_not_found");
        // the caller's key is still checked first
        assertThat(http.get(base + "?limit=abc", null).status()).isEqualTo(401);
    }

}
