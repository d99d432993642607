package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static io.queryapigate.testing.TestingConfig.duckdbConnection;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingSecrets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /api/v1/connections} on the SQLite store with DuckDB connections: create, read, change, delete, restore,
 * validation by the YAML's rules, ETags, the configuration's connections read-only, passwords never answered, and
 * saved queries following a connection's changes.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConnectionsApiIT {
    /** Where file references may point: {@code ${file:...}} secrets for the test of a secret that goes away. */
    private static final Path SECRETS = secretsDirectory();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            TestingSecrets.KeyedGateway.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "secrets:\n  cacheTtl: 1s\n  fileDirectories: [\"" + SECRETS + "\"]\n", "1s").toString());
    /** Without QUERYAPIGATE_SECRET_KEY. */
    private static final DropwizardAppExtension<GatewayConfiguration> KEYLESS = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "", "5s").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static Path secretsDirectory() {
        try {
            return Files.createTempDirectory("qag-secrets-").toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static void publish(String query, String connection, String sql) {
        Reply q = http().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", query, "sql", sql,
                "connection_name", connection, "publish", true)));
        assertThat(q.status()).as(q.body()).isEqualTo(201);
    }

    @Test
    void createCallChangeDeleteRestore() throws Exception {
        Reply created = http().post("/api/v1/connections", ADMIN, Http.json(duckdbConnection("sales", "first")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode c = created.json();
        assertThat(c.get("managed_by").asText()).isEqualTo("api");
        assertThat(c.get("dialect").asText()).isEqualTo("duckdb");
        assertThat(c.get("pool_size").asInt()).isEqualTo(2);
        assertThat(c.get("password").isNull()).isTrue();
        assertThat(c.get("created_by").asText()).isEqualTo("admin");
        assertThat(created.header("ETag")).isNotBlank();

        publish("sales_v", "sales", "SELECT v FROM t");
        assertThat(http().get("/q/sales_v", ADMIN).json().get(0).get("v").asText()).isEqualTo("first");

        // a change to how it connects replaces the pool; the saved query is prepared again for the new one
        Map<String, Object> second = duckdbConnection("sales", "second");
        second.remove("name");
        Reply patched = http().patch("/api/v1/connections/sales", ADMIN, Http.json(second));
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(http().get("/q/sales_v", ADMIN).json().get(0).get("v").asText())
                .as("served by the new pool at once on this instance").isEqualTo("second");

        // ETag and If-Match
        String etag = http().get("/api/v1/connections/sales", ADMIN).header("ETag");
        assertThat(etag).isEqualTo(patched.header("ETag"));
        http().request("PATCH", "/api/v1/connections/sales", ADMIN, "{\"description\": \"x\"}", "If-Match",
                "\"stale\"").assertRefused(412, "precondition_failed");
        Reply described = http().request("PATCH", "/api/v1/connections/sales", ADMIN,
                "{\"description\": \"the sales database\"}", "If-Match", etag);
        assertThat(described.status()).as(described.body()).isEqualTo(200);
        assertThat(described.json().get("description").asText()).isEqualTo("the sales database");
        assertThat(described.header("ETag")).isNotEqualTo(etag);
        http().request("DELETE", "/api/v1/connections/sales", ADMIN, "{\"reason\": \"x\"}", "If-Match", etag)
                .assertRefused(412, "precondition_failed");

        // delete: a reason, and force while a published query uses it
        http().request("DELETE", "/api/v1/connections/sales", ADMIN, null).assertRefused(400, "reason_required");
        Reply inUse = http().request("DELETE", "/api/v1/connections/sales", ADMIN, "{\"reason\": \"moved\"}");
        inUse.assertRefused(409, "connection_in_use");
        assertThat(inUse.json().get("queries").toString()).isEqualTo("[\"sales_v\"]");
        assertThat(http().request("DELETE", "/api/v1/connections/sales?force=true", ADMIN,
                "{\"reason\": \"moved\"}").status()).isEqualTo(204);
        http().get("/q/sales_v", ADMIN).assertRefused(404, "connection_not_found");
        http().get("/api/v1/connections/sales", ADMIN).assertRefused(404, "connection_not_found");
        assertThat(names(http().get("/api/v1/connections", ADMIN).json())).doesNotContain("sales");
        JsonNode deleted = http().get("/api/v1/connections/deleted", ADMIN).json().get("items");
        assertThat(deleted.get(0).get("name").asText()).isEqualTo("sales");
        assertThat(deleted.get(0).get("reason").asText()).isEqualTo("moved");
        assertThat(deleted.get(0).get("deleted_by").asText()).isEqualTo("admin");

        Reply restored = http().post("/api/v1/connections/sales/restore", ADMIN, "");
        assertThat(restored.status()).as(restored.body()).isEqualTo(200);
        assertThat(http().get("/q/sales_v", ADMIN).json().get(0).get("v").asText()).isEqualTo("second");
        assertThat(http().get("/api/v1/connections/deleted", ADMIN).json().get("items")).isEmpty();
        Reply again = http().post("/api/v1/connections/sales/restore", ADMIN, "");
        assertThat(again.status()).as("a connection in service has nothing to restore").isEqualTo(409);
        assertThat(again.json().get("code").asText()).isEqualTo("connection_exists");
    }

    @Test
    void aSecretThatGoesAwayMakesCallsAnswer503AndIsRecordedNeverServedStale() throws Exception {
        Path file = SECRETS.resolve("vanishing-pw");
        Files.writeString(file, "pw-file-91c3\n");
        Map<String, Object> body = duckdbConnection("vanishing", "ok");
        body.put("password", "${file:" + file + "}");
        Reply created = http().post("/api/v1/connections", ADMIN, Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        publish("vanishing_v", "vanishing", "SELECT v FROM t");
        assertThat(http().get("/q/vanishing_v", ADMIN).status()).isEqualTo(200);

        Files.delete(file);
        Reply refused = null;
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            refused = http().get("/q/vanishing_v", ADMIN);
            if (refused.status() != 200) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(refused).isNotNull();
        refused.assertRefused(503, "secret_unavailable");
        assertThat(refused.body()).doesNotContain(file.toString()).doesNotContain("pw-file-91c3");

        Thread.sleep(300); // the event log's flush interval is 50 ms
        JsonNode runs = http().get("/api/v1/history?limit=20", ADMIN).json().get("items");
        assertThat(runs.toString()).as("the refused call is in the history with its code")
                .contains("secret_unavailable");

        Files.writeString(file, "pw-file-91c3\n");
        Reply back = null;
        deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            back = http().get("/q/vanishing_v", ADMIN);
            if (back.status() == 200) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(back.status()).as("served again once the secret resolves: " + back.body()).isEqualTo(200);
    }

    @Test
    void everyBadFieldIsNamedAsTheYamlRulesSay() throws Exception {
        Map<String, Object> bad = duckdbConnection("bad1", "x");
        bad.put("pool_size", 0);
        Reply r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").has("pool_size")).as(r.body()).isTrue();

        bad = duckdbConnection("bad2", "x");
        bad.put("dialect", "nosuch");
        r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").get("dialect").asText()).contains("no dialect named 'nosuch'");

        bad = duckdbConnection("bad3", "x");
        bad.put("properties", Map.of("duckdb.bogus", "1"));
        r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").get("properties").asText()).contains("duckdb.bogus");

        bad = duckdbConnection("bad4", "x");
        bad.put("allowed_functions", List.of("not a function"));
        r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").has("allowed_functions")).as(r.body()).isTrue();

        bad = duckdbConnection("bad name", "x");
        http().post("/api/v1/connections", ADMIN, Http.json(bad)).assertRefused(400, "invalid_name");
        bad = duckdbConnection("bad5", "x");
        bad.put("host", "db1");
        http().post("/api/v1/connections", ADMIN, Http.json(bad)).assertRefused(400, "unknown_field");
        bad = duckdbConnection("bad6", "x");
        bad.put("query_timeout", "soon");
        r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").has("query_timeout")).isTrue();

        // every bad field at once, not the first
        bad = duckdbConnection("bad7", "x");
        bad.put("dialect", "nosuch");
        bad.put("url", "");
        bad.put("pool_size", 0);
        bad.put("query_timeout", "soon");
        r = http().post("/api/v1/connections", ADMIN, Http.json(bad));
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").properties()).extracting(Map.Entry::getKey)
                .as(r.body()).contains("dialect", "url", "pool_size", "query_timeout");

        assertThat(names(http().get("/api/v1/connections", ADMIN).json())).noneMatch(n -> n.startsWith("bad"));
    }

    @Test
    void theConfigurationsConnectionsAreListedAndReadOnly() throws Exception {
        JsonNode demo = http().get("/api/v1/connections/demo", ADMIN).json();
        assertThat(demo.get("managed_by").asText()).isEqualTo("config");
        assertThat(demo.get("pool_size").asInt()).isEqualTo(4);
        assertThat(names(http().get("/api/v1/connections", ADMIN).json())).contains("demo");
        http().patch("/api/v1/connections/demo", ADMIN, "{\"pool_size\": 2}").assertRefused(409, "managed_by_config");
        http().request("DELETE", "/api/v1/connections/demo", ADMIN, "{\"reason\": \"x\"}")
                .assertRefused(409, "managed_by_config");
        http().post("/api/v1/connections", ADMIN, Http.json(duckdbConnection("demo", "x")))
                .assertRefused(409, "connection_exists");
        assertThat(http().post("/api/v1/connections", ADMIN, Http.json(duckdbConnection("twice", "x"))).status())
                .isEqualTo(201);
        http().post("/api/v1/connections", ADMIN, Http.json(duckdbConnection("twice", "x")))
                .assertRefused(409, "connection_exists");
        http().get("/api/v1/connections", null).assertRefused(401, "unauthorized");
    }

    @Test
    void passwordsAreSealedOrReferencedAndNeverAnswered() throws Exception {
        Map<String, Object> body = duckdbConnection("sealed", "x");
        body.put("password", "pw-literal-5e1f");
        Reply created = http().post("/api/v1/connections", ADMIN, Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().get("password").asText()).isEqualTo("********");
        assertThat(created.body()).doesNotContain("pw-literal-5e1f");
        String etag = created.header("ETag");

        Reply kept = http().patch("/api/v1/connections/sealed", ADMIN, "{\"password\": \"********\", \"user\": \"u\"}");
        assertThat(kept.json().get("password").asText()).isEqualTo("********");
        Reply changed = http().patch("/api/v1/connections/sealed", ADMIN, "{\"password\": \"pw-other-77aa\"}");
        assertThat(changed.header("ETag")).as("a new password is a new state").isNotEqualTo(kept.header("ETag"))
                .isNotEqualTo(etag);
        Reply ref = http().patch("/api/v1/connections/sealed", ADMIN, "{\"password\": \"${QAG_NO_SUCH_VAR_X}\"}");
        assertThat(ref.status()).as("a reference that does not resolve is refused before saving: " + ref.body())
                .isNotEqualTo(200);
        Reply home = http().patch("/api/v1/connections/sealed", ADMIN, "{\"password\": \"${HOME}\"}");
        assertThat(home.status()).as(home.body()).isEqualTo(200);
        assertThat(home.json().get("password").asText()).isEqualTo("${HOME}");
        assertThat(http().patch("/api/v1/connections/sealed", ADMIN, "{\"password\": null}").json()
                .get("password").isNull()).isTrue();

        Http keyless = new Http("http://127.0.0.1:" + KEYLESS.getLocalPort());
        Map<String, Object> plain = duckdbConnection("plain", "x");
        plain.put("password", "pw-literal-5e1f");
        keyless.post("/api/v1/connections", ADMIN, Http.json(plain)).assertRefused(409, "secret_key_required");
        plain.put("password", "${HOME}");
        assertThat(keyless.post("/api/v1/connections", ADMIN, Http.json(plain)).status())
                .as("a reference needs no key").isEqualTo(201);
    }

    @Test
    void testAndDatabasesSaveNothing() throws Exception {
        Map<String, Object> body = duckdbConnection("probe1", "x");
        Reply tested = http().post("/api/v1/connections/test", ADMIN, Http.json(body));
        assertThat(tested.status()).as(tested.body()).isEqualTo(200);
        assertThat(tested.json().get("ok").asBoolean()).isTrue();
        assertThat(tested.json().get("latency_ms").isNumber()).isTrue();
        assertThat(http().get("/api/v1/connections/probe1", ADMIN).status()).as("nothing saved").isEqualTo(404);

        Reply byName = http().post("/api/v1/connections/test", ADMIN, "{\"name\": \"demo\"}");
        assertThat(byName.status()).as(byName.body()).isEqualTo(200);
        assertThat(byName.json().get("dialect").asText()).isEqualTo("duckdb");

        Reply dbs = http().post("/api/v1/connections/databases", ADMIN, Http.json(body));
        assertThat(dbs.status()).as(dbs.body()).isEqualTo(200);
        assertThat(dbs.json().get("databases").isArray()).isTrue();

        Reply unreachable = http().post("/api/v1/connections/test", ADMIN, Http.json(Map.of("dialect", "postgres",
                "url", "jdbc:postgresql://127.0.0.1:1/none", "user", "u", "password", "pw-probe-91c3")));
        unreachable.assertRefused(502, "connection_failed");
        assertThat(unreachable.body()).doesNotContain("pw-probe-91c3");
        http().post("/api/v1/connections/test", ADMIN, "{\"dialect\": \"nosuch\", \"url\": \"x\"}")
                .assertRefused(400, "invalid_body");
    }

    private static List<String> names(JsonNode list) {
        List<String> out = new java.util.ArrayList<>();
        list.get("items").forEach(i -> out.add(i.get("name").asText()));
        return out;
    }
}
