package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.cache.Redis;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingAlerts;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/**
 * Alerts about keys and quota usage through real calls, on a SQLite store (quota counts in the store) and on a
 * PostgreSQL store with Redis (counts in Redis): a key expiring soon, a key's quota used up (the alert, the usage
 * answer and the 429 agree), keys refused again and again (quota, rate limit); each alert's id stable across requests;
 * a workspace's stored connection whose password file goes away (failing in that workspace only, until it is back);
 * bad thresholds stopping startup.
 * Then who sees what, on an instance whose event writer drops events: server-wide roles by capability (a developer
 * sees no key alerts and no quota usage), a workspace's auditor only that workspace's and none of the server's, a key
 * nothing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AlertsQuotasIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_alerts");
    private static final TestServers.Server REDIS = TestServers.redis();
    private static final String PREFIX = "qagtest:" + UUID.randomUUID() + ":";
    private static final String LIMITS = "alerts:\n  refusalsPerHour: 3\n";
    /** Where file references may point: a connection's password that goes away. */
    private static final Path SECRETS = secretsDirectory();
    private static final DropwizardAppExtension<GatewayConfiguration> SQLITE = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    TestingConfig.filmSeed() + LIMITS + "  healthCheckInterval: 1s\n"
                            + "secrets:\n  cacheTtl: 1s\n  fileDirectories: [\"" + SECRETS + "\"]\n", "1s").toString());
    private static final DropwizardAppExtension<GatewayConfiguration> POSTGRES = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                    + LIMITS + "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
                    + PG.password() + "\nredis:\n  url: " + REDIS.url() + "\n  keyPrefix: \"" + PREFIX + "\"\n")
                    .toString());
    /** An instance whose event queue holds 100 events and is written once an hour: the 101st call's is dropped. */
    private static final DropwizardAppExtension<GatewayConfiguration> DROPPING = new DropwizardAppExtension<>(
            GatewayApplication.class, dropping());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static Path secretsDirectory() {
        try {
            return Files.createTempDirectory("qag-alert-secrets-").toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String dropping() {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
        try {
            String yaml = Files.readString(config);
            String events = "events:\n  flushInterval: 50ms\n";
            assertThat(yaml).contains(events);
            Files.writeString(config, yaml.replace(events, "events:\n  flushInterval: 1h\n  queueCapacity: 100\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return config.toString();
    }

    @AfterAll
    static void drop() {
        try (RedisClient redis = Redis.client(REDIS.url(), 2000)) {
            redis.keys(PREFIX + "*").forEach(redis::del);
        }
        PG.dropDatabase();
    }

    private static DropwizardAppExtension<GatewayConfiguration> app(String store) {
        return store.equals("sqlite") ? SQLITE : POSTGRES;
    }

    private static Http http(String store) {
        return new Http("http://127.0.0.1:" + app(store).getLocalPort());
    }

    private static String key(Http http, String name, Map<String, Object> fields) {
        Map<String, Object> body = new java.util.HashMap<>(fields);
        body.put("queries", List.of("film"));
        return http.key(name, body);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void aKeyExpiringSoonIsAWarningWithAStableId(String store) {
        Http http = http(store);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        key(http, "soon", Map.of("expires_at", today.plusDays(3).toString()));
        key(http, "tomorrow", Map.of("expires_at", today.plusDays(1).toString()));
        key(http, "later", Map.of("expires_at", today.plusDays(30).toString()));
        JsonNode first = TestingAlerts.alerts(http, ADMIN).get("items");
        JsonNode soon = TestingAlerts.alert(http, ADMIN, "key_expiring:soon").orElseThrow();
        assertThat(soon.get("severity").asText()).isEqualTo("warning");
        assertThat(soon.get("kind").asText()).isEqualTo("key_expiring");
        assertThat(soon.get("title").asText()).isEqualTo("API key 'soon' expires in 3 days");
        assertThat(soon.get("since").asText()).isEqualTo(today.plusDays(3).toString());
        assertThat(soon.get("target").toString()).isEqualTo("{\"type\":\"key\",\"name\":\"soon\"}");
        assertThat(TestingAlerts.alert(http, ADMIN, "key_expiring:tomorrow").orElseThrow().get("title").asText())
                .isEqualTo("API key 'tomorrow' expires tomorrow");
        assertThat(TestingAlerts.ids(http, ADMIN)).doesNotContain("key_expiring:later");
        assertThat(TestingAlerts.alerts(http, ADMIN).get("items")).as("the same alerts, ids and all, when asked again")
                .isEqualTo(first);
        // extended, it goes by itself
        assertThat(http.patch("/api/v1/api-keys/soon", ADMIN, Http.json(Map.of("expires_at",
                today.plusDays(60).toString()))).status()).isEqualTo(200);
        assertThat(TestingAlerts.ids(http, ADMIN)).doesNotContain("key_expiring:soon").contains(
                "key_expiring:tomorrow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void aQuotaUsedUpAgreesInTheAlertTheUsageAndTheRefusal(String store) throws Exception {
        Http http = http(store);
        String k = key(http, "metered", Map.of("quota", Map.of("calls", 3, "rows", 100, "per", "day")));
        key(http, "unmetered", Map.of());
        Reply call = null;
        for (int i = 0; i < 2; i++) {
            call = http.get("/q/film?film_id=" + (i + 1), k);
            assertThat(call.status()).as(call.body()).isEqualTo(200);
        }
        JsonNode usage = usage(http, "metered");
        assertThat(usage.get("caller").asText()).isEqualTo("metered");
        assertThat(usage.get("per").asText()).isEqualTo("day");
        LocalDate today = LocalDate.now(ZoneId.systemDefault());
        assertThat(usage.get("period").asText()).isEqualTo(today.toString());
        assertThat(usage.get("calls").asLong()).isEqualTo(2);
        assertThat(usage.get("rows").asLong()).isEqualTo(2);
        assertThat(usage.get("calls_limit").asLong()).isEqualTo(3);
        assertThat(usage.get("calls_remaining").asText()).isEqualTo("1").isEqualTo(
                call.header("X-Quota-Remaining-Calls"));
        assertThat(usage.get("rows_remaining").asLong()).isEqualTo(98);
        assertThat(usage.get("period_start").asText()).isEqualTo(today + " 00:00:00");
        assertThat(usage.get("resets_at").asText()).isEqualTo(today.plusDays(1) + " 00:00:00")
                .isEqualTo(call.header("X-Quota-Reset"));
        assertThat(http.get("/api/v1/usage/quotas", ADMIN).json().get("items").findValuesAsText("caller"))
                .as("keys without a quota are not listed").contains("metered").doesNotContain("unmetered");
        assertThat(http.get("/api/v1/usage/quotas?key=nobody", ADMIN).json().get("items")).isEmpty();
        assertThat(TestingAlerts.ids(http, ADMIN)).as("2 of 3 calls is under 80%")
                .doesNotContain("quota_nearly_used:metered:calls");

        assertThat(http.get("/q/film?film_id=3", k).status()).isEqualTo(200);
        JsonNode used = TestingAlerts.alert(http, ADMIN, "quota_nearly_used:metered:calls").orElseThrow();
        assertThat(used.get("severity").asText()).isEqualTo("critical");
        assertThat(used.get("title").asText()).isEqualTo("API key 'metered' has used all of its daily quota of calls");
        assertThat(used.get("detail").asText()).startsWith("3 of 3 calls this day. Its calls are refused")
                .endsWith(today.plusDays(1) + " 00:00:00.");
        assertThat(usage(http, "metered").get("calls_remaining").asLong()).isZero();
        assertThat(TestingAlerts.ids(http, ADMIN)).as("3 rows of 100").doesNotContain("quota_nearly_used:metered:rows");

        // refused again and again: three 429 quota_exceeded in the event log make the key an alert
        for (int i = 0; i < 3; i++) {
            http.get("/q/film?film_id=4", k).assertRefused(429, "quota_exceeded");
        }
        TestingAlerts.awaitIds(http, ADMIN, 5, ids -> ids.contains("key_rate_limited:metered"));
        assertThat(TestingAlerts.alert(http, ADMIN, "key_rate_limited:metered").orElseThrow().get("detail").asText())
                .startsWith("3 calls refused in the last hour (3 quota_exceeded)");

        if (store.equals("postgres")) {
            // the count is Redis's: what the quota check reads is what the usage answer shows
            try (RedisClient redis = Redis.client(REDIS.url(), 2000)) {
                List<String> counters = List.copyOf(redis.keys(PREFIX + "usage:*:day:" + today));
                assertThat(counters).hasSize(1);
                redis.hincrBy(counters.get(0), "calls", -2);
            }
            assertThat(usage(http, "metered").get("calls").asLong()).isEqualTo(1);
            assertThat(TestingAlerts.ids(http, ADMIN)).doesNotContain("quota_nearly_used:metered:calls");
            assertThat(http.get("/q/film?film_id=5", k).status()).isEqualTo(200);
            assertThat(usage(http, "metered").get("calls").asLong()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void aKeyRefusedByItsRateLimitAgainAndAgainIsAnAlert(String store) {
        Http http = http(store);
        String k = key(http, "hasty", Map.of("rate_limit", "2/hour"));
        for (int i = 0; i < 2; i++) {
            assertThat(http.get("/q/film?film_id=1", k).status()).isEqualTo(200);
        }
        http.get("/q/film?film_id=1", k).assertRefused(429, "rate_limited");
        http.get("/q/film?film_id=1", k).assertRefused(429, "rate_limited");
        assertThat(TestingAlerts.ids(http, ADMIN)).as("two refusals are under the threshold of 3")
                .doesNotContain("key_rate_limited:hasty");
        http.get("/q/film?film_id=1", k).assertRefused(429, "rate_limited");
        JsonNode alert = TestingAlerts.alert(http, ADMIN, "key_rate_limited:hasty").orElseThrow();
        assertThat(alert.get("severity").asText()).isEqualTo("warning");
        assertThat(alert.get("detail").asText()).startsWith("3 calls refused in the last hour (3 rate_limited)");
    }

    @Test
    void aStoredConnectionWhosePasswordGoesAwayIsFailingInItsWorkspaceUntilItIsBack() throws Exception {
        Http http = new Http("http://127.0.0.1:" + SQLITE.getLocalPort());
        Http ops = new Http("http://127.0.0.1:" + SQLITE.getLocalPort() + "/w/ops");
        assertThat(http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"ops\"}").status()).isEqualTo(201);
        Path file = SECRETS.resolve("vanishing-pw");
        Files.writeString(file, "pw-alert-5e1d\n");
        Map<String, Object> body = TestingConfig.duckdbConnection("vanishing", "ok");
        body.put("password", "${file:" + file + "}");
        Reply created = ops.post("/api/v1/connections", ADMIN, Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Thread.sleep(2_500); // two health-check rounds: it is healthy
        assertThat(TestingAlerts.ids(ops, ADMIN)).doesNotContain("connection_failing:vanishing");

        Files.delete(file);
        TestingAlerts.awaitIds(ops, ADMIN, 20, ids -> ids.contains("connection_failing:vanishing"));
        JsonNode alert = TestingAlerts.alert(ops, ADMIN, "connection_failing:vanishing").orElseThrow();
        assertThat(alert.get("severity").asText()).isEqualTo("critical");
        assertThat(alert.get("detail").asText()).contains("cannot open").doesNotContain("pw-alert-5e1d");
        assertThat(TestingAlerts.ids(http, ADMIN)).as("another workspace's connection").doesNotContain(
                "connection_failing:vanishing");

        Files.writeString(file, "pw-alert-5e1d\n");
        TestingAlerts.awaitIds(ops, ADMIN, 20, ids -> !ids.contains("connection_failing:vanishing"));
    }

    @Test
    void aBadThresholdStopsStartupNamingIt() {
        for (String[] bad : new String[][] {
            {"alerts:\n  slowdownFactor: 1\n", "alerts.slowdownFactor"},
            {"alerts:\n  healthCheckInterval: 10ms\n", "alerts.healthCheckInterval"},
            {"alerts:\n  refusalsPerHour: 0\n", "alerts.refusalsPerHour"},
            {"instances:\n  heartbeatInterval: 0s\n", "instances.heartbeatInterval"}}) {
            Path config = TestingConfig.write(TestingConfig.demoConnection(), bad[0]);
            assertThatThrownBy(() -> TestingConfig.startAndStop(config)).as(bad[0]).hasStackTraceContaining(bad[1]);
        }
    }

    private static JsonNode usage(Http http, String key) {
        Reply r = http.get("/api/v1/usage/quotas?key=" + key, ADMIN);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().get("items")).hasSize(1);
        return r.json().get("items").get(0);
    }

    @Test
    void eachCallerSeesWhatItsRoleAllows() {
        Http http = new Http("http://127.0.0.1:" + DROPPING.getLocalPort());
        for (int i = 0; i < 130; i++) {
            assertThat(http.get("/q/film?film_id=1", ADMIN).status()).isEqualTo(200);
        }
        String in3 = LocalDate.now(ZoneOffset.UTC).plusDays(3).toString();
        key(http, "ours", Map.of("expires_at", in3, "quota", Map.of("calls", 10, "per", "month")));
        assertThat(http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"team\"}").status()).isEqualTo(201);
        assertThat(http.post("/w/team/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "theirs", "expires_at", in3)))
                .status()).isEqualTo(201);

        JsonNode dropped = TestingAlerts.alert(http, ADMIN, "history_dropped:server").orElseThrow();
        assertThat(dropped.get("detail").asText()).startsWith("30 runs dropped since this server started");
        assertThat(TestingAlerts.ids(http, ADMIN)).contains("key_expiring:ours").doesNotContain("key_expiring:theirs");

        String auditor = TestingAdmins.create(http, ADMIN, "aud", "auditor");
        assertThat(TestingAlerts.ids(http, auditor)).contains("key_expiring:ours", "history_dropped:server");
        assertThat(http.get("/api/v1/usage/quotas", auditor).json().get("items").findValuesAsText("caller"))
                .containsExactly("ours");
        assertThat(http.get("/api/v1/instances", auditor).status()).isEqualTo(200);

        String developer = TestingAdmins.create(http, ADMIN, "dev", "developer");
        assertThat(TestingAlerts.ids(http, developer)).as("no access.read: no alert about keys")
                .contains("history_dropped:server").noneMatch(id -> id.startsWith("key_"));
        http.get("/api/v1/usage/quotas", developer).assertRefused(403, "role_forbidden");
        assertThat(http.get("/api/v1/instances", developer).status()).isEqualTo(200);

        Http team = new Http("http://127.0.0.1:" + DROPPING.getLocalPort() + "/w/team");
        String member = TestingAdmins.create(http, ADMIN, "wendy", null);
        assertThat(http.request("PUT", "/api/v1/workspaces/team/members/wendy", ADMIN, "{\"role\": \"auditor\"}")
                .status()).isBetween(200, 201);
        List<String> theirs = TestingAlerts.ids(team, member);
        assertThat(theirs).as("the workspace's own, none of the server's").containsExactly("key_expiring:theirs");
        assertThat(TestingAlerts.ids(team, ADMIN)).as("the owner in the workspace sees the"
                + " server's too").contains("key_expiring:theirs", "history_dropped:server")
                .doesNotContain("key_expiring:ours");
        http.get("/w/team/api/v1/instances", member).assertRefused(403, "role_forbidden");
        http.get("/api/v1/alerts", member).assertRefused(403, "workspace_required");

        String scoped = key(http, "scoped", Map.of());
        http.get("/api/v1/alerts", scoped).assertRefused(403, "admin_only");
        http.get("/api/v1/instances", scoped).assertRefused(403, "admin_only");
        http.get("/api/v1/usage/quotas", scoped).assertRefused(403, "admin_only");
        http.get("/api/v1/alerts", null).assertRefused(401, "unauthorized");
    }
}
