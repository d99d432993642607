package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.errors.ApiException;
import io.queryapigate.history.AgentUsage;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.EventBatchWriter;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/usage/agents} on a real store (the SQLite and the PostgreSQL subclasses), from calls made through
 * the application's own call pipeline as the MCP server makes them ({@code CallRequest.via(MCP)}) and through REST:
 * only the MCP calls are counted, per agent, with their rows, refusals by code, queries and ad-hoc statements; the
 * history says how each call arrived; the window and its bad values; one workspace's agents only; the scan bound.
 */
abstract class AgentUsageContract {
    static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final AtomicInteger NAMES = new AtomicInteger();

    /** The application under test. */
    abstract GatewayApplication app();

    abstract String base();

    /** The store's URL, user and password. */
    abstract String[] store();

    Http http() {
        return new Http(base());
    }

    /** One call through the call pipeline as the MCP server makes it; the refusal's code, or null on success. */
    String mcp(String secret, CallRequest request) {
        Caller caller;
        try {
            caller = app().credentials().authenticate(secret).orElseThrow();
        } catch (io.dropwizard.auth.AuthenticationException e) {
            throw new AssertionError(e);
        }
        Scope.set(caller.workspace());
        try {
            app().calls().run(request.via(CallRequest.MCP));
            return null;
        } catch (ApiException e) {
            return e.code();
        } finally {
            Scope.set(null);
        }
    }

    String mcpQuery(String secret, String query, Map<String, String> params) throws Exception {
        Caller caller = app().credentials().authenticate(secret).orElseThrow();
        return mcp(secret, CallRequest.savedQuery(caller, requestId(), query, null, params, null, null, null,
                OutputRequest.JSON));
    }

    String mcpSql(String secret, String sql) throws Exception {
        Caller caller = app().credentials().authenticate(secret).orElseThrow();
        return mcp(secret, CallRequest.adHoc(caller, requestId(), sql, null, "demo", null, OutputRequest.JSON));
    }

    private static String requestId() {
        return "mcp-" + UUID.randomUUID().toString().substring(0, 13);
    }

    static JsonNode agent(JsonNode usage, String name) {
        for (JsonNode item : usage.get("items")) {
            if (item.get("agent").asText().equals(name)) {
                return item;
            }
        }
        return null;
    }

    JsonNode usage(String path, String query) {
        Reply r = http().get(path + "/api/v1/usage/agents" + query, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    @Test
    void eachAgentsMcpCallsAreSummedAndRestCallsAreNot() throws Exception {
        Http http = http();
        String one = "agent-" + NAMES.incrementAndGet();
        String two = "agent-" + NAMES.incrementAndGet();
        String oneKey = http.key(one, Map.of("queries", List.of("film"), "connections", List.of("demo"),
                "adhoc_sql", true));
        String twoKey = http.key(two, Map.of("queries", List.of("film")));

        for (int id : new int[] {1, 2, 3}) {
            assertThat(mcpQuery(oneKey, "film", Map.of("film_id", Integer.toString(id)))).isNull();
        }
        assertThat(mcpQuery(oneKey, "film", Map.of("film_id", "0"))).as("below its minimum")
                .isEqualTo("param_invalid");
        assertThat(mcpQuery(twoKey, "film", Map.of("film_id", "-5"))).isEqualTo("param_invalid");
        String refused = mcpQuery(oneKey, "not_granted_" + one, Map.of());
        assertThat(refused).as("a query it may not run").isNotNull();
        assertThat(mcpSql(oneKey, "SELECT film_id FROM film WHERE film_id <= 4")).isNull();
        assertThat(mcpSql(oneKey, "SELECT film_id FROM film WHERE film_id <= 4")).isNull();
        assertThat(mcpSql(oneKey, "SELECT 1 AS one")).isNull();
        assertThat(mcpQuery(twoKey, "film", Map.of("film_id", "9"))).isNull();
        for (int id : new int[] {4, 5}) { // REST: not an agent's
            assertThat(http.get("/q/film?film_id=" + id, oneKey).status()).isEqualTo(200);
        }
        assertThat(http.sql(oneKey, "demo", "SELECT 2 AS two").status()).isEqualTo(200);

        JsonNode usage = usage("", "");
        assertThat(usage.get("truncated").asBoolean()).isFalse();
        assertThat(usage.get("sample_rate").asDouble()).isEqualTo(1.0);
        JsonNode a = agent(usage, one);
        assertThat(a).as(usage.toString()).isNotNull();
        assertThat(a.get("calls").asLong()).as(a.toString()).isEqualTo(8);
        assertThat(a.get("rows").asLong()).as("3 films, 4 + 4 rows, 1 row").isEqualTo(12);
        assertThat(a.get("errors").asLong()).isEqualTo(2);
        assertThat(a.get("refusals").get("param_invalid").asLong()).isEqualTo(1);
        assertThat(a.get("refusals").get(refused).asLong()).isEqualTo(1);
        assertThat(a.get("queries").get("film").asLong()).as("three runs and one refused parameter").isEqualTo(4);
        assertThat(a.get("queries").has("not_granted_" + one)).as("no such query: nothing to name").isFalse();
        assertThat(a.get("adhoc_calls").asLong()).isEqualTo(3);
        assertThat(a.get("connections").toString()).isEqualTo("[\"demo\"]");
        JsonNode top = a.get("top_statements");
        assertThat(top.size()).isEqualTo(2);
        assertThat(top.get(0).get("count").asLong()).as("the statement run twice first").isEqualTo(2);
        assertThat(top.get(0).get("rows").asLong()).isEqualTo(8);
        assertThat(top.get(0).get("sql").isNull()).isTrue();
        assertThat(top.get(0).get("sql_hash").asText()).matches("[0-9a-f]{16}");
        assertThat(top.get(1).get("count").asLong()).isEqualTo(1);
        assertThat(a.get("first_seen").asText().compareTo(a.get("last_seen").asText())).isLessThanOrEqualTo(0);

        JsonNode b = agent(usage, two);
        assertThat(b.get("calls").asLong()).isEqualTo(2);
        assertThat(b.get("rows").asLong()).isEqualTo(1);
        assertThat(b.get("refusals").toString()).isEqualTo("{\"param_invalid\":1}");
        assertThat(b.get("queries").toString()).isEqualTo("{\"film\":2}");
        assertThat(b.get("adhoc_calls").asLong()).isZero();
        List<String> order = new ArrayList<>();
        usage.get("items").forEach(i -> order.add(i.get("agent").asText()));
        assertThat(order.indexOf(one)).as("busiest first").isLessThan(order.indexOf(two));

        // the history says how each call arrived
        JsonNode runs = http.get("/api/v1/history?key=" + one + "&limit=100", ADMIN).json().get("items");
        long viaMcp = 0;
        long viaRest = 0;
        for (JsonNode run : runs) {
            viaMcp += run.get("transport").asText().equals("mcp") ? 1 : 0;
            viaRest += run.get("transport").asText().equals("rest") ? 1 : 0;
        }
        assertThat(viaMcp).as(runs.toString()).isEqualTo(8);
        assertThat(viaRest).isEqualTo(3);
        JsonNode filmRuns = http.get("/api/v1/queries/film/history?key=" + two, ADMIN).json().get("items");
        assertThat(filmRuns.size()).as(filmRuns.toString()).isEqualTo(2);
        filmRuns.forEach(run -> assertThat(run.get("transport").asText()).isEqualTo("mcp"));
    }

    @Test
    void theWindowIsSinceUntilOrTheLastHoursAndABadOneIsRefusedNamingIt() throws Exception {
        String name = "agent-" + NAMES.incrementAndGet();
        String key = http().key(name, Map.of("queries", List.of("film")));
        assertThat(mcpQuery(key, "film", Map.of("film_id", "7"))).isNull();

        assertThat(agent(usage("", "?hours=1"), name).get("calls").asLong()).isEqualTo(1);
        assertThat(agent(usage("", "?hours=8784"), name)).isNotNull();
        JsonNode before = usage("", "?since=2001-01-01&until=2001-01-02");
        assertThat(before.get("items").size()).isZero();
        assertThat(before.get("since").asText()).isEqualTo("2001-01-01 00:00:00");
        assertThat(before.get("until").asText()).isEqualTo("2001-01-02 00:00:00");
        JsonNode defaults = usage("", "");
        assertThat(agent(defaults, name)).isNotNull();
        long since = java.time.Duration.between(parse(defaults.get("since").asText()),
                parse(defaults.get("until").asText())).toSeconds();
        assertThat(since).as("24 hours and a second by default").isBetween(86_400L, 86_402L);

        for (String[] bad : new String[][] {{"hours=0", "hours"}, {"hours=8785", "hours"}, {"hours=two", "hours"},
                {"hours=1&since=2026-01-01", "hours"}, {"since=2026-13-01", "since"}, {"until=tomorrow", "until"},
                {"since=2026-01-02&until=2026-01-01", "since"}}) {
            Reply r = http().get("/api/v1/usage/agents?" + bad[0], ADMIN);
            r.assertRefused(400, "invalid_filter");
            assertThat(r.body()).as(bad[0]).contains("\"" + bad[1] + "\"");
        }
        Reply refused = http().get("/api/v1/usage/agents", key);
        assertThat(refused.status()).as("an API key is no administrator").isIn(401, 403);
    }

    private static LocalDateTime parse(String serverTime) {
        return LocalDateTime.parse(serverTime.replace(' ', 'T'));
    }

    @Test
    void aWorkspaceSeesItsOwnAgentsOnly() throws Exception {
        Http http = http();
        String w = "usage-w" + NAMES.incrementAndGet();
        http.workspaceWithQuery(w);
        Reply key = http.post("/w/" + w + "/api/v1/api-keys", ADMIN, Http.json(Map.of("name", w + "_key",
                "queries", "*")));
        assertThat(key.status()).as(key.body()).isEqualTo(201);
        String secret = key.json().get("secret").asText();
        String outside = "agent-" + NAMES.incrementAndGet();
        String outsideKey = http.key(outside, Map.of("queries", List.of("film")));

        assertThat(mcpQuery(secret, w + "_q", Map.of())).isNull();
        assertThat(mcpQuery(outsideKey, "film", Map.of("film_id", "3"))).isNull();

        JsonNode inside = usage("/w/" + w, "");
        assertThat(inside.get("items").size()).as(inside.toString()).isEqualTo(1);
        assertThat(inside.get("items").get(0).get("agent").asText()).isEqualTo(w + "_key");
        assertThat(inside.get("items").get(0).get("queries").toString()).isEqualTo("{\"" + w + "_q\":1}");
        JsonNode byDefault = usage("", "");
        assertThat(agent(byDefault, w + "_key")).as("never another workspace's agent").isNull();
        assertThat(agent(byDefault, outside)).isNotNull();
    }

    @Test
    void atMostMaxScanCallsAreReadAndTruncatedSaysSo() throws Exception {
        // 100,001 MCP calls in one day of 2099 (beyond every other test's window), by the administrator key
        long start = LocalDateTime.parse("2099-03-01T00:00:00").atZone(ZoneId.systemDefault()).toInstant()
                .toEpochMilli();
        List<EventRow> batch = new ArrayList<>(AgentUsage.MAX_SCAN + 1);
        for (int i = 0; i <= AgentUsage.MAX_SCAN; i++) {
            batch.add(new EventRow(start + i, "bulk-" + i, Caller.ADMIN_KEY_ID, null, null, (long) (i % 7), "demo",
                    200, 1, 10, 10, null, null, null, CallRequest.MCP));
        }
        String[] s = store();
        Store store = Store.connect(s[0], s[1], s[2]);
        new EventBatchWriter(store.jdbi(), 100).write(batch, new long[0], 0);

        JsonNode all = usage("", "?since=2099-03-01&until=2099-03-02");
        assertThat(all.get("truncated").asBoolean()).isTrue();
        JsonNode admin = agent(all, "admin");
        assertThat(admin.get("calls").asLong()).isEqualTo(AgentUsage.MAX_SCAN);
        assertThat(admin.get("last_seen").asText()).as("the newest are read").isEqualTo("2099-03-01 00:01:40");
        assertThat(admin.get("top_statements").size()).isEqualTo(5);

        // exactly MAX_SCAN calls: all read, nothing left over
        JsonNode exact = usage("", "?since=2099-03-01&until=2099-03-01T00:01:40");
        assertThat(exact.get("truncated").asBoolean()).isFalse();
        assertThat(agent(exact, "admin").get("calls").asLong()).isEqualTo(AgentUsage.MAX_SCAN);
        assertThat(agent(exact, "admin").get("first_seen").asText()).isEqualTo("2099-03-01 00:00:00");
    }
}
