package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.audit.AuditChain;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingSecrets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every administrative route of the management API leaves exactly one audit entry, with the right action, actor and
 * target; reads leave none; no secret the test created reaches any entry; the chain, keyed by
 * {@code QUERYAPIGATE_AUDIT_KEY}, verifies.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AuditTrailIT {
    static final String AUDIT_KEY = "audit-key-for-the-tests-0123456789abcdef";

    /** The gateway with a secret key (so passwords are sealed and rekey runs) and an audit key. */
    public static class AuditedGateway extends GatewayApplication {
        @Override
        protected Map<String, String> environmentVariables() {
            Map<String, String> env = TestingSecrets.environment();
            env.put(AuditChain.VARIABLE, AUDIT_KEY);
            return env;
        }
    }

    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            AuditedGateway.class, TestingConfig.write(TestingConfig.demoConnection(), "").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final String PASSWORD_1 = "pw-audit-first-7f3a9c";
    private static final String PASSWORD_2 = "pw-audit-second-b81e4d";

    private final List<String> secrets = new ArrayList<>(List.of(ADMIN, PASSWORD_1, PASSWORD_2));

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Store store() {
        GatewayConfiguration c = APP.getConfiguration();
        return Store.connect(Store.resolveUrl(c.getStore().getUrl(), Path.of(c.getHome()).toAbsolutePath()),
                c.getStore().getUser(), c.getStore().getPassword());
    }

    private static long newest() {
        JsonNode items = http().get("/api/v1/audit?limit=1", ADMIN).json().get("items");
        return items.isEmpty() ? 0 : items.get(0).get("seq").asLong();
    }

    /** Runs {@code change}, which must succeed, and returns the one entry it left. */
    private static JsonNode one(String what, Supplier<Reply> change) {
        long before = newest();
        Reply r = change.get();
        assertThat(r.status()).as(what + ": " + r.body()).isBetween(200, 299);
        JsonNode items = http().get("/api/v1/audit?limit=50", ADMIN).json().get("items");
        List<JsonNode> added = new ArrayList<>();
        items.forEach(i -> {
            if (i.get("seq").asLong() > before) {
                added.add(i);
            }
        });
        assertThat(added).as(what + " leaves exactly one entry").hasSize(1);
        assertThat(added.get(0).get("seq").asLong()).as(what + ": the next seq").isEqualTo(before + 1);
        return added.get(0);
    }

    private static void expect(JsonNode entry, String action, String target, String actor) {
        assertThat(entry.get("action").asText()).as(entry.toString()).isEqualTo(action);
        assertThat(entry.get("target").asText()).as(entry.toString()).isEqualTo(target);
        assertThat(entry.get("actor").asText()).as(entry.toString()).isEqualTo(actor);
    }

    private static void step(String action, String target, Supplier<Reply> change) {
        expect(one(action + " " + target, change), action, target, "admin");
    }

    @Test
    void everyAdministrativeRouteLeavesExactlyOneEntryAndReadsNone() throws Exception {
        Http http = http();
        // connections
        Map<String, Object> connection = TestingConfig.duckdbConnection("wh", "x");
        connection.put("password", PASSWORD_1);
        JsonNode created = one("create connection", () -> http.post("/api/v1/connections", ADMIN,
                Http.json(connection)));
        expect(created, "create_connection", "wh", "admin");
        assertThat(created.get("actor_kind").asText()).isEqualTo("owner");
        assertThat(created.get("via").asText()).isEqualTo("break-glass");
        assertThat(created.get("address").asText()).isEqualTo("127.0.0.1");
        assertThat(created.get("workspace").asText()).isEqualTo("default");
        assertThat(created.get("changes").get("password").toString()).isEqualTo("{\"changed\":true}");
        assertThat(created.get("hash").asText()).startsWith("hmac-sha256:");
        JsonNode changed = one("update connection", () -> http.patch("/api/v1/connections/wh", ADMIN,
                "{\"password\": \"" + PASSWORD_2 + "\", \"description\": \"the warehouse\"}"));
        expect(changed, "update_connection", "wh", "admin");
        assertThat(changed.get("changes").get("password").toString()).isEqualTo("{\"changed\":true}");
        assertThat(changed.get("changes").get("description").get("to").asText()).isEqualTo("the warehouse");
        Reply withId = http.request("PATCH", "/api/v1/connections/wh/descriptions", ADMIN,
                "{\"items\": [{\"table\": \"t\", \"description\": \"one table\"}]}", "X-Request-Id", "audit-req-1");
        assertThat(withId.status()).as(withId.body()).isEqualTo(200);
        JsonNode described = http.get("/api/v1/audit?limit=1", ADMIN).json().get("items").get(0);
        expect(described, "update_descriptions", "wh", "admin");
        assertThat(described.get("request_id").asText()).isEqualTo("audit-req-1");
        assertThat(described.get("changes").get("descriptions").get("t").toString())
                .isEqualTo("{\"from\":null,\"to\":\"one table\"}");

        // saved queries, their versions, publishing, collections
        step("save_query", "q1", () -> http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "q1",
                "connection_name", "demo", "sql", "SELECT 1 AS one", "publish", true))));
        step("save_query", "q1", () -> http.post("/api/v1/queries/q1/versions", ADMIN,
                "{\"sql\": \"SELECT 2 AS two\", \"publish\": true}"));
        JsonNode rollback = one("roll back", () -> http.post("/api/v1/queries/q1/publish", ADMIN,
                "{\"version\": 1}"));
        expect(rollback, "publish_query", "q1", "admin");
        assertThat(rollback.get("changes").get("version").toString()).isEqualTo("{\"from\":2,\"to\":1}");
        step("unpublish_query", "q1", () -> http.post("/api/v1/queries/q1/unpublish", ADMIN, "{}"));
        step("move_query", "q1", () -> http.patch("/api/v1/queries/q1", ADMIN, "{\"collection\": \"sales\"}"));
        step("set_cache_ttl", "q1", () -> http.patch("/api/v1/queries/q1/versions/1", ADMIN,
                "{\"cache_ttl\": 30}"));
        step("rename_collection", "sales", () -> http.patch("/api/v1/collections/sales", ADMIN,
                "{\"name\": \"sales-two\"}"));
        step("delete_query", "q1", () -> http.delete("/api/v1/queries/q1/versions/2", ADMIN));
        step("publish_query", "q1", () -> http.post("/api/v1/queries/q1/publish", ADMIN, "{\"version\": 1}"));

        // roles and keys
        step("create_role", "readers", () -> http.post("/api/v1/roles", ADMIN,
                "{\"name\": \"readers\", \"queries\": [\"q1\"]}"));
        step("update_role", "readers", () -> http.patch("/api/v1/roles/readers", ADMIN,
                "{\"description\": \"read q1\"}"));
        JsonNode keyCreated = one("create key", () -> {
            Reply r = http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"k1\", \"queries\": [\"q1\"]}");
            secrets.add(r.json().get("secret").asText());
            return r;
        });
        expect(keyCreated, "create_key", "k1", "admin");
        step("update_key", "k1", () -> http.patch("/api/v1/api-keys/k1", ADMIN, "{\"max_rows\": 5}"));
        step("rotate_api_key", "k1", () -> {
            Reply r = http.post("/api/v1/api-keys/k1/rotate", ADMIN, "{\"grace_minutes\": 30}");
            secrets.add(r.json().get("secret").asText());
            return r;
        });
        step("end_previous_secret", "k1", () -> http.delete("/api/v1/api-keys/k1/previous", ADMIN));
        assertThat(http.get("/q/q1", secrets.get(secrets.size() - 1)).status()).isEqualTo(200);
        step("forget_caller", "history", () -> http.request("DELETE", "/api/v1/history?caller=k1", ADMIN, null));
        step("delete_key", "k1", () -> http.delete("/api/v1/api-keys/k1", ADMIN));
        step("delete_role", "readers", () -> http.delete("/api/v1/roles/readers", ADMIN));

        // administrators, their tokens, workspaces and members; a change by a named administrator
        step("create_admin", "ops", () -> http.post("/api/v1/administrators", ADMIN,
                "{\"name\": \"ops\", \"role\": \"admin\"}"));
        step("update_admin", "ops", () -> http.patch("/api/v1/administrators/ops", ADMIN,
                "{\"email\": \"ops@example.com\"}"));
        String[] tokenId = new String[1];
        step("issue_admin_token", "ops", () -> {
            Reply r = http.post("/api/v1/administrators/ops/tokens", ADMIN, "{\"label\": \"ci\"}");
            secrets.add(r.json().get("secret").asText());
            tokenId[0] = r.json().get("id").asText();
            return r;
        });
        String opsToken = secrets.get(secrets.size() - 1);
        JsonNode byOps = one("a change by ops", () -> http.post("/api/v1/roles", opsToken,
                "{\"name\": \"by-ops\", \"queries\": [\"q1\"]}"));
        expect(byOps, "create_role", "by-ops", "ops");
        assertThat(byOps.get("actor_kind").asText()).isEqualTo("administrator");
        assertThat(byOps.get("via").asText()).isEqualTo("token");
        assertThat("tok_" + byOps.get("credential_id").asText()).isEqualTo(tokenId[0]);
        step("create_workspace", "ws1", () -> http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"ws1\"}"));
        step("update_workspace", "ws1", () -> http.patch("/api/v1/workspaces/ws1", ADMIN,
                "{\"description\": \"team one\"}"));
        step("set_workspace_member", "ws1", () -> http.request("PUT", "/api/v1/workspaces/ws1/members/ops", ADMIN,
                "{\"role\": \"developer\"}"));
        step("remove_workspace_member", "ws1", () -> http.delete("/api/v1/workspaces/ws1/members/ops", ADMIN));
        step("delete_workspace", "ws1", () -> http.delete("/api/v1/workspaces/ws1", ADMIN));
        step("revoke_admin_token", "ops", () -> http.delete("/api/v1/administrators/ops/tokens/" + tokenId[0],
                ADMIN));
        step("delete_role", "by-ops", () -> http.delete("/api/v1/roles/by-ops", ADMIN));
        step("delete_admin", "ops", () -> http.delete("/api/v1/administrators/ops", ADMIN));

        // settings, configuration as code, the examples, connections deleted and restored
        step("rekey", "secret_key", () -> http.post("/api/v1/settings/rekey", ADMIN, "{}"));
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("queries/cfg.yaml", "name: cfg\nconnection_name: demo\nsql: SELECT 3 AS three\n");
        dir.put("api_keys/cfg-key.yaml", "name: cfg-key\nsecret_sha256: " + KeyHasher.hashHex("qag_cfg-secret")
                + "\nqueries: [cfg]\n");
        JsonNode applied = one("config apply", () -> http.post("/api/v1/config/apply", ADMIN,
                Http.json(Map.of("files", dir))));
        assertThat(applied.get("action").asText()).isEqualTo("config_applied");
        assertThat(applied.get("changes").get("changes")).hasSize(2);
        JsonNode loaded = one("load examples", () -> {
            Reply r = http.post("/api/v1/examples", ADMIN, "");
            r.json().get("key_secrets").forEach(s -> secrets.add(s.asText()));
            return r;
        });
        expect(loaded, "load_examples", "examples", "admin");
        step("unload_examples", "examples", () -> http.delete("/api/v1/examples", ADMIN));
        step("delete_connection", "wh", () -> http.request("DELETE", "/api/v1/connections/wh", ADMIN,
                "{\"reason\": \"moved\"}"));
        step("restore_connection", "wh", () -> http.post("/api/v1/connections/wh/restore", ADMIN, ""));
        step("delete_query", "q1", () -> http.delete("/api/v1/queries/q1", ADMIN));

        // reads write nothing
        long before = newest();
        for (String path : List.of("/api/v1/queries", "/api/v1/api-keys", "/api/v1/roles", "/api/v1/connections",
                "/api/v1/administrators", "/api/v1/workspaces", "/api/v1/audit", "/api/v1/audit/verify",
                "/api/v1/history", "/api/v1/me", "/api/v1/settings", "/api/v1/examples", "/api/v1/config/managed")) {
            assertThat(http.get(path, ADMIN).status()).as(path).isEqualTo(200);
        }
        assertThat(http.post("/api/v1/config/diff", ADMIN, Http.json(Map.of("files", dir))).status()).isEqualTo(200);
        assertThat(newest()).as("reads leave no entry").isEqualTo(before);

        // no secret anywhere in the log, as listed or as stored
        List<AuditRow> rows = store().jdbi().onDemand(AuditDao.class).after(0, 10_000);
        assertThat(rows).hasSizeGreaterThan(40);
        String listed = http.get("/api/v1/audit?limit=1000", ADMIN).body();
        for (String secret : secrets) {
            assertThat(listed).as("the listing").doesNotContain(secret);
            assertThat(rows).as("the stored entries").noneMatch(r -> r.entryJson().contains(secret)
                    || String.valueOf(r.target()).contains(secret) || r.actor().contains(secret));
        }

        JsonNode verified = http.get("/api/v1/audit/verify", ADMIN).json();
        assertThat(verified.get("intact").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.get("keyed").asBoolean()).isTrue();
        assertThat(verified.get("last_seq").asLong()).isEqualTo(before);
    }
}
