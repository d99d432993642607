package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.net.http.HttpRequest;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An API key's life over HTTP, as the Python original answers it: created (its secret shown once), used, changed,
 * rotated (both secrets work through the grace period, then only the new one), its previous secret ended, deactivated
 * and reactivated, deleted (404 after, never authenticating again) and its name taken again; {@code /api/v1/me} and
 * {@code /api/v1/settings}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ApiKeyLifecycleIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed())
                    .toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final String FILM = "/q/film?film_id=1";
    private static Http http;

    @BeforeAll
    static void connect() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Reply patch(String name, String json, String ifMatch) {
        HttpRequest.Builder b = http.builder("/api/v1/api-keys/" + name, ADMIN).header("Content-Type",
                "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString(json));
        if (ifMatch != null) {
            b.header("If-Match", ifMatch);
        }
        return http.send(b.build());
    }

    private static Reply rotate(String name, String json) {
        HttpRequest.Builder b = http.builder("/api/v1/api-keys/" + name + "/rotate", ADMIN);
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        return http.send(b.POST(json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private static int call(String secret) {
        return http.get(FILM, secret).status();
    }

    @Test
    void aKeyLivesItsWholeLifeOverHttp() {
        Reply created = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "partner key",
                "queries", List.of("film"), "max_rows", 5, "quota", Map.of("calls", 1000, "per", "month"))));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.header("Cache-Control")).isEqualTo("no-store");
        JsonNode key = created.json();
        String first = key.get("secret").asText();
        assertThat(key.get("name").asText()).isEqualTo("partner key");
        assertThat(key.get("connections").isArray() && key.get("connections").isEmpty())
                .as("least privilege: no connection unless granted").isTrue();
        assertThat(key.get("queries").get(0).asText()).isEqualTo("film");
        assertThat(key.get("max_rows").asInt()).isEqualTo(5);
        assertThat(key.get("quota").toString()).isEqualTo("{\"calls\":1000,\"per\":\"month\"}");
        assertThat(key.get("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(key.get("previous_expires_at").isNull()).isTrue();
        assertThat(key.get("effective_limits").get("max_rows").get("page").asInt()).isEqualTo(5);
        assertThat(key.get("usage_this_period").get("calls_limit").asLong()).isEqualTo(1000);
        assertThat(http.get("/api/v1/api-keys/partner%20key", ADMIN).body()).doesNotContain(first);

        assertThat(call(first)).isEqualTo(200);

        Reply changed = patch("partner%20key", "{\"max_rows\": null, \"max_concurrent\": 2, \"query_timeout\": 2.5,"
                + " \"quota\": \"500/day\"}", null);
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().get("max_rows").isNull()).as("null clears").isTrue();
        assertThat(changed.json().get("max_concurrent").asInt()).isEqualTo(2);
        assertThat(changed.json().get("query_timeout").toString()).isEqualTo("2.5");
        assertThat(changed.json().get("quota").toString()).as("the old form, answered in the original's")
                .isEqualTo("{\"calls\":500,\"per\":\"day\"}");
        assertThat(changed.json().get("queries").get(0).asText()).as("absent fields are kept").isEqualTo("film");
        patch("partner%20key", "{\"max_rows\": 0}", null).assertRefused(400, "invalid_body");
        patch("partner%20key", "{\"query_timeout\": \"5\"}", null).assertRefused(400, "invalid_body");
        patch("partner%20key", "{\"quota\": {\"calls\": 5, \"per\": \"week\"}}", null).assertRefused(400,
                "invalid_body");
        patch("partner%20key", "{\"name\": \"renamed\"}", null).assertRefused(400, "unknown_field");
        patch("nobody", "{\"max_rows\": 5}", null).assertRefused(404, "key_not_found");
        patch("partner%20key", "{\"max_rows\": 5}", "\"stale\"").assertRefused(412, "precondition_failed");
        Reply withTag = patch("partner%20key", "{\"max_rows\": 7}", changed.header("ETag"));
        assertThat(withTag.status()).as("If-Match naming the key as read").isEqualTo(200);
        assertThat(call(first)).isEqualTo(200);

        Reply rotated = rotate("partner%20key", null);
        assertThat(rotated.status()).as(rotated.body()).isEqualTo(200);
        assertThat(rotated.header("Cache-Control")).isEqualTo("no-store");
        String second = rotated.json().get("secret").asText();
        assertThat(second).isNotEqualTo(first);
        LocalDateTime until = LocalDateTime.parse(rotated.json().get("previous_expires_at").asText(),
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        assertThat(until).as("the default grace period is 60 minutes")
                .isBetween(LocalDateTime.now().plusMinutes(59), LocalDateTime.now().plusMinutes(61));
        assertThat(List.of(call(first), call(second))).as("both secrets work in the grace period")
                .containsExactly(200, 200);
        Reply pending = rotate("partner%20key", "{\"grace_minutes\": 5}");
        pending.assertRefused(409, "key_rotation_pending");
        assertThat(pending.json().get("previous_expires_at").asText()).isEqualTo(
                rotated.json().get("previous_expires_at").asText());

        Reply ended = http.delete("/api/v1/api-keys/partner%20key/previous", ADMIN);
        assertThat(ended.status()).as(ended.body()).isEqualTo(200);
        assertThat(ended.json().get("previous_expires_at").isNull()).isTrue();
        assertThat(List.of(call(first), call(second))).as("the previous secret is revoked at once")
                .containsExactly(401, 200);
        http.delete("/api/v1/api-keys/partner%20key/previous", ADMIN).assertRefused(404,
                "previous_secret_not_found");

        rotate("partner%20key", "{\"grace_minutes\": \"5\"}").assertRefused(400, "invalid_body");
        rotate("partner%20key", "{\"grace_minutes\": 10081}").assertRefused(400, "invalid_body");
        rotate("partner%20key", "{\"grace\": 5}").assertRefused(400, "unknown_field");
        Reply immediate = rotate("partner%20key", "{\"grace_minutes\": 0}");
        assertThat(immediate.status()).isEqualTo(200);
        String third = immediate.json().get("secret").asText();
        assertThat(List.of(call(second), call(third))).as("grace 0 stops the old secret at once")
                .containsExactly(401, 200);

        assertThat(patch("partner%20key", "{\"active\": false}", null).json().get("active").asBoolean()).isFalse();
        assertThat(call(third)).isEqualTo(401);
        assertThat(patch("partner%20key", "{\"active\": true}", null).status()).isEqualTo(200);
        assertThat(call(third)).isEqualTo(200);

        assertThat(http.delete("/api/v1/api-keys/partner%20key", ADMIN).status()).isEqualTo(204);
        assertThat(call(third)).as("a deleted key never authenticates").isEqualTo(401);
        http.get("/api/v1/api-keys/partner%20key", ADMIN).assertRefused(404, "key_not_found");
        http.delete("/api/v1/api-keys/partner%20key", ADMIN).assertRefused(404, "key_not_found");
        assertThat(http.get("/api/v1/api-keys", ADMIN).body()).doesNotContain("partner key");

        Reply again = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "partner key",
                "queries", List.of("film"))));
        assertThat(again.status()).as("its name may be used again").isEqualTo(201);
        assertThat(again.json().get("quota").isNull()).as("nothing of the deleted key comes back").isTrue();
        assertThat(List.of(call(third), call(again.json().get("secret").asText()))).containsExactly(401, 200);
    }

    @Test
    void aRotationsGracePeriodEndsOnItsOwn() throws Exception {
        String old = http.key("short-grace", Map.of("queries", List.of("film")));
        String fresh = rotate("short-grace", "{\"grace_minutes\": 1}").json().get("secret").asText();
        assertThat(List.of(call(old), call(fresh))).containsExactly(200, 200);
        // a minute is long for a test: move the end of the grace period into the past, as time would
        Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db").useHandle(h ->
                h.execute("UPDATE api_keys SET previous_expires_at = ? WHERE name = 'short-grace'",
                        System.currentTimeMillis() - 1));
        assertThat(List.of(call(old), call(fresh))).as("the metadata cache is off here: the store decides")
                .containsExactly(401, 200);
        assertThat(http.get("/api/v1/api-keys/short-grace", ADMIN).json().get("previous_expires_at").isNull())
                .isTrue();
    }

    @Test
    void creationRefusesWhatTheOriginalRefuses() {
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"bad/name\"}").assertRefused(400, "invalid_name");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"admin\"}").assertRefused(400, "invalid_name");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"x\", \"grants\": []}").assertRefused(400, "unknown_field");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"x\", \"max_concurrent\": 1001}").assertRefused(400,
                "invalid_body");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"x\", \"quota\": {\"per\": \"day\"}}").assertRefused(400,
                "invalid_body");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"x\", \"role\": \"reporting\"}").assertRefused(404,
                "role_not_found");
        Reply lenient = http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"round trip\", \"collections\": [],"
                + " \"role\": null, \"connections\": \"*\", \"quota\": {\"rows\": 10, \"calls\": null,"
                + " \"per\": \"day\"}}");
        assertThat(lenient.status()).as(lenient.body()).isEqualTo(201);
        assertThat(lenient.json().get("connections").asText()).isEqualTo("*");
        assertThat(lenient.json().get("quota").toString()).isEqualTo("{\"rows\":10,\"per\":\"day\"}");
        http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"round trip\"}").assertRefused(409, "key_exists");
        String key = http.key("not-an-admin", Map.of("queries", List.of("film")));
        http.get("/api/v1/api-keys", key).assertRefused(403, "admin_only");
        http.post("/api/v1/api-keys/round%20trip/rotate", key, "{}").assertRefused(403, "admin_only");
    }

    @Test
    void listAndGetAnswerTheOriginalsFields() throws Exception {
        String secret = http.key("shape", Map.of("queries", List.of("film"), "rate_limit", "100/minute"));
        assertThat(call(secret)).isEqualTo(200);
        Reply list = http.get("/api/v1/api-keys", ADMIN);
        JsonNode item = null;
        for (JsonNode k : list.json().get("items")) {
            if (k.get("name").asText().equals("shape")) {
                item = k;
            }
        }
        assertThat(item).isNotNull();
        List<String> fields = new ArrayList<>();
        item.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).contains("name", "connections", "queries", "collections", "allow_writes",
                "allowed_write_ops", "allowed_tables", "rate_limit", "allowed_ips", "mask", "max_concurrent",
                "query_timeout", "max_rows", "quota", "active", "expires_at", "expired", "created_at",
                "created_from_role", "last_used_at", "previous_expires_at", "previous_last_used_at", "example",
                "usage", "effective_limits", "usage_this_period");
        assertThat(item.get("rate_limit").asText()).isEqualTo("100/minute");
        assertThat(item.get("effective_limits").get("query_timeout").asDouble()).isEqualTo(30.0);
        Reply one = http.get("/api/v1/api-keys/shape", ADMIN);
        assertThat(one.header("ETag")).matches("\"[0-9a-f]{32}\"");
        long deadline = System.currentTimeMillis() + 5_000;
        while (http.get("/api/v1/api-keys/shape", ADMIN).json().get("last_used_at").isNull()) {
            assertThat(System.currentTimeMillis()).as("last_used_at is written with the event log").isLessThan(deadline);
            Thread.sleep(50);
        }
        JsonNode used = http.get("/api/v1/api-keys/shape", ADMIN).json().get("usage");
        assertThat(used.get("queries").asLong()).isEqualTo(1);
        assertThat(used.get("rows").asLong()).isEqualTo(1);
    }

    @Test
    void meAndSettingsAnswerTheAdministrator() {
        JsonNode me = http.get("/api/v1/me", ADMIN).json();
        assertThat(me.get("name").asText()).isEqualTo("admin");
        assertThat(me.get("role").asText()).isEqualTo("owner");
        assertThat(me.get("via").asText()).isEqualTo("break-glass");
        assertThat(me.get("data_access").asBoolean()).isTrue();
        assertThat(me.get("server_wide").asBoolean()).isTrue();
        assertThat(me.get("workspace").asText()).isEqualTo("default");
        assertThat(me.get("capabilities").toString()).contains("\"access.write\"", "\"queries.read\"",
                "\"settings.read\"", "\"connections.write\"");
        String key = http.key("who-am-i", Map.of("queries", List.of("film")));
        http.get("/api/v1/me", key).assertRefused(403, "admin_only");
        http.get("/api/v1/me", null).assertRefused(401, "unauthorized");

        JsonNode settings = http.get("/api/v1/settings", ADMIN).json();
        Map<String, JsonNode> byEnv = new java.util.HashMap<>();
        for (JsonNode section : settings.get("items")) {
            assertThat(section.has("id") && section.has("title") && section.has("description")).isTrue();
            for (JsonNode row : section.get("rows")) {
                byEnv.put(row.get("env").asText(), row);
            }
        }
        assertThat(byEnv.get("QUERYAPIGATE_QUERY_TIMEOUT").get("value").asText()).isEqualTo("30 s");
        assertThat(byEnv.get("QUERYAPIGATE_QUERY_TIMEOUT").get("source").asText()).isEqualTo("default");
        assertThat(byEnv.get("QUERYAPIGATE_HISTORY_FLUSH_INTERVAL").get("value").asText()).isEqualTo("50 ms");
        assertThat(byEnv.get("QUERYAPIGATE_HISTORY_FLUSH_INTERVAL").get("source").asText()).isEqualTo("config");
        assertThat(byEnv.get("QUERYAPIGATE_API_KEY").get("value").asText()).isEqualTo("configured");
        assertThat(settings.toString()).doesNotContain(ADMIN);
        http.get("/api/v1/settings", key).assertRefused(403, "admin_only");
    }
}
