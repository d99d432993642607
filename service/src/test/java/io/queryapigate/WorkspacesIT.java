package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /api/v1/workspaces} and the {@code /w/{workspace}/} prefix on SQLite and PostgreSQL: the original's rules
 * ({@code default} protected, only an empty workspace removed, names, descriptions, unknown fields), its shapes, the
 * members of a workspace, and who may act where through the prefix.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WorkspacesIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_workspaces");
    private static final DropwizardAppExtension<GatewayConfiguration> SQLITE = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "", "0s").toString());
    private static final DropwizardAppExtension<GatewayConfiguration> POSTGRES = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "store:\n  url: "
                    + PG.url() + "\n  user: " + PG.user() + "\n  password: " + PG.password() + "\n", "5s")
                    .toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static DropwizardAppExtension<GatewayConfiguration> app(String store) {
        return store.equals("sqlite") ? SQLITE : POSTGRES;
    }

    private static Http http(String store) {
        return new Http("http://127.0.0.1:" + app(store).getLocalPort());
    }

    /** The application's own store, to see what the API does not show. */
    private static Store store(String store) {
        GatewayConfiguration c = app(store).getConfiguration();
        return Store.connect(Store.resolveUrl(c.getStore().getUrl(), Path.of(c.getHome()).toAbsolutePath()),
                c.getStore().getUser(), c.getStore().getPassword());
    }

    private static List<String> names(JsonNode list) {
        return StreamSupport.stream(list.get("items").spliterator(), false).map(w -> w.get("name").asText())
                .toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void createDescribeAndRemoveOnlyWhenEmpty(String store) {
        Http http = http(store);
        assertThat(names(http.get("/api/v1/workspaces", ADMIN).json())).contains("default");

        Reply created = http.post("/api/v1/workspaces", ADMIN, Http.json(Map.of("name", "ops",
                "description", "The operations team")));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode w = created.json();
        assertThat(w.get("name").asText()).isEqualTo("ops");
        assertThat(w.get("description").asText()).isEqualTo("The operations team");
        assertThat(w.get("created_by").asText()).isEqualTo("admin");
        assertThat(w.get("members").asInt()).isZero();
        assertThat(w.get("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(created.header("ETag")).matches("\"[0-9a-f]{32}\"");
        assertThat(http.get("/api/v1/workspaces/ops", ADMIN).header("ETag")).isEqualTo(created.header("ETag"));

        http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"ops\"}").assertRefused(409, "workspace_exists");
        http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"-ops\"}").assertRefused(400, "invalid_name");
        http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"a/b\"}").assertRefused(400, "invalid_name");
        http.post("/api/v1/workspaces", ADMIN, "{}").assertRefused(400, "invalid_name");
        http.post("/api/v1/workspaces", ADMIN, "[]").assertRefused(400, "invalid_body");
        Reply unknown = http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"x\", \"owner\": \"bob\"}");
        unknown.assertRefused(400, "unknown_field");
        assertThat(unknown.json().get("errors").has("owner")).isTrue();
        Reply tooLong = http.post("/api/v1/workspaces", ADMIN, Http.json(Map.of("name", "x", "description",
                "d".repeat(501))));
        tooLong.assertRefused(400, "invalid_body");
        assertThat(tooLong.json().get("errors").has("description")).isTrue();
        http.get("/api/v1/workspaces/x", ADMIN).assertRefused(404, "workspace_not_found");

        Reply described = http.patch("/api/v1/workspaces/ops", ADMIN, "{\"description\": null}");
        assertThat(described.status()).as(described.body()).isEqualTo(200);
        assertThat(described.json().get("description").isNull()).isTrue();
        assertThat(described.header("ETag")).isNotEqualTo(created.header("ETag"));
        http.patch("/api/v1/workspaces/ops", ADMIN, "{}").assertRefused(400, "invalid_body");
        http.patch("/api/v1/workspaces/ops", ADMIN, "{\"name\": \"ops2\"}").assertRefused(400, "unknown_field");
        http.patch("/api/v1/workspaces/nope", ADMIN, "{\"description\": \"x\"}")
                .assertRefused(404, "workspace_not_found");

        http.delete("/api/v1/workspaces/default", ADMIN).assertRefused(409, "workspace_protected");
        http.delete("/api/v1/workspaces/nope", ADMIN).assertRefused(404, "workspace_not_found");

        // what it owns keeps it: a key and a query, counted by kind
        assertThat(http.post("/w/ops/api/v1/api-keys", ADMIN, "{\"name\": \"ops-key\"}").status()).isEqualTo(201);
        assertThat(http.post("/w/ops/api/v1/queries", ADMIN, Http.json(Map.of("name", "ops-q", "sql", "SELECT 1",
                "connection_name", "x"))).status()).isEqualTo(201);
        Reply full = http.delete("/api/v1/workspaces/ops", ADMIN);
        full.assertRefused(409, "workspace_not_empty");
        assertThat(full.json().get("contents").toString()).isEqualTo("{\"queries\":1,\"API keys\":1}");
        assertThat(full.json().get("error").asText()).contains("1 query, 1 API key");
        assertThat(http.delete("/w/ops/api/v1/api-keys/ops-key", ADMIN).status()).isEqualTo(204);
        assertThat(http.delete("/w/ops/api/v1/queries/ops-q", ADMIN).status()).isEqualTo(204);

        assertThat(http.delete("/api/v1/workspaces/ops", ADMIN).status()).isEqualTo(204);
        http.get("/api/v1/workspaces/ops", ADMIN).assertRefused(404, "workspace_not_found");
        http.get("/w/ops/api/v1/queries", ADMIN).assertRefused(404, "workspace_not_found");
        assertThat(names(http.get("/api/v1/workspaces", ADMIN).json())).doesNotContain("ops");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void membersHoldOneOfTheFourRoles(String store) {
        Http http = http(store);
        Store db = store(store);
        for (String admin : List.of("{\"name\": \"carol\", \"role\": null}",
                "{\"name\": \"dave\", \"role\": \"auditor\"}")) {
            assertThat(http.post("/api/v1/administrators", ADMIN, admin).status()).isEqualTo(201);
        }
        assertThat(http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"team\"}").status()).isEqualTo(201);

        Reply added = http.request("PUT", "/api/v1/workspaces/team/members/carol", ADMIN, "{\"role\": \"developer\"}");
        assertThat(added.status()).as(added.body()).isEqualTo(200);
        assertThat(added.json().get("admin").asText()).isEqualTo("carol");
        assertThat(added.json().get("role").asText()).isEqualTo("developer");
        assertThat(added.json().get("added_by").asText()).isEqualTo("admin");
        Reply changed = http.request("PUT", "/api/v1/workspaces/team/members/carol", ADMIN, "{\"role\": \"viewer\"}");
        assertThat(changed.json().get("role").asText()).as("another name of auditor").isEqualTo("auditor");
        assertThat(http.request("PUT", "/api/v1/workspaces/team/members/dave", ADMIN, "{\"role\": \"owner\"}")
                .status()).isEqualTo(200);

        JsonNode members = http.get("/api/v1/workspaces/team/members", ADMIN).json().get("items");
        assertThat(members).hasSize(2);
        assertThat(members.get(0).get("admin").asText()).isEqualTo("carol");
        assertThat(members.get(1).get("role").asText()).isEqualTo("owner");
        assertThat(http.get("/api/v1/workspaces/team", ADMIN).json().get("members").asInt()).isEqualTo(2);

        Reply badRole = http.request("PUT", "/api/v1/workspaces/team/members/carol", ADMIN, "{\"role\": \"boss\"}");
        badRole.assertRefused(400, "invalid_body");
        assertThat(badRole.json().get("errors").has("role")).isTrue();
        http.request("PUT", "/api/v1/workspaces/team/members/carol", ADMIN, "{\"role\": \"owner\", \"x\": 1}")
                .assertRefused(400, "unknown_field");
        http.request("PUT", "/api/v1/workspaces/team/members/nobody", ADMIN, "{\"role\": \"owner\"}")
                .assertRefused(404, "admin_not_found");
        http.request("PUT", "/api/v1/workspaces/nope/members/carol", ADMIN, "{\"role\": \"owner\"}")
                .assertRefused(404, "workspace_not_found");
        http.get("/api/v1/workspaces/nope/members", ADMIN).assertRefused(404, "workspace_not_found");

        assertThat(http.delete("/api/v1/workspaces/team/members/carol", ADMIN).status()).isEqualTo(204);
        http.delete("/api/v1/workspaces/team/members/carol", ADMIN).assertRefused(404, "member_not_found");
        http.delete("/api/v1/workspaces/team/members/nobody", ADMIN).assertRefused(404, "member_not_found");

        // removing the workspace removes its memberships, never the administrators
        assertThat(http.delete("/api/v1/workspaces/team", ADMIN).status()).isEqualTo(204);
        long memberships = db.jdbi().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM workspace_members"
                + " WHERE workspace = 'team'").mapTo(Long.class).one());
        long administrators = db.jdbi().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM administrators")
                .mapTo(Long.class).one());
        assertThat(memberships).isZero();
        assertThat(administrators).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void thePrefixActsInTheNamedWorkspace(String store) {
        Http http = http(store);
        assertThat(http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"sales.eu\"}").status()).isEqualTo(201);
        Reply saved = http.post("/w/sales.eu/api/v1/queries", ADMIN, Http.json(Map.of("name", "eu films",
                "sql", "SELECT 1 AS one", "connection_name", "x")));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        assertThat(http.get("/w/sales.eu/api/v1/queries?search=eu", ADMIN).body())
                .as("the query string goes through the prefix").contains("eu films");
        assertThat(http.get("/w/sales.eu/api/v1/queries/eu%20films", ADMIN).status())
                .as("an encoded path goes through too").isEqualTo(200);
        assertThat(http.get("/api/v1/queries", ADMIN).body()).as("not the default workspace's")
                .doesNotContain("eu films");
        assertThat(http.get("/w/default/api/v1/queries", ADMIN).body()).doesNotContain("eu films");

        http.get("/w/nope/api/v1/queries", ADMIN).assertRefused(404, "workspace_not_found");
        http.get("/w/nope/q/eu%20films", ADMIN).assertRefused(404, "workspace_not_found");
        // authentication first: without a key, an existing and a missing workspace answer alike
        http.get("/w/sales.eu/api/v1/queries", null).assertRefused(401, "unauthorized");
        http.get("/w/nope/api/v1/queries", null).assertRefused(401, "unauthorized");
        // a public route takes only the default workspace's prefix
        assertThat(http.get("/w/default/health", null).status()).isEqualTo(200);
        http.get("/w/sales.eu/health", null).assertRefused(404, "workspace_not_found");
        // the YAML's connections are the default workspace's
        assertThat(http.get("/w/sales.eu/api/v1/connections", ADMIN).body()).doesNotContain("demo");
        assertThat(http.sql(ADMIN, "demo", "SELECT 1 AS one").status()).isEqualTo(200);
        http.post("/w/sales.eu/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT 1", "connection_name",
                "demo"))).assertRefused(404, "connection_not_found");
        // what only the default workspace has
        http.request("POST", "/w/sales.eu/api/v1/examples", ADMIN, null).assertRefused(400, "unsupported_operation");
        http.post("/w/sales.eu/api/v1/config/diff", ADMIN, "{\"files\": {}}")
                .assertRefused(400, "unsupported_operation");
        assertThat(http.get("/w/sales.eu/api/v1/config/managed", ADMIN).json().get("items")).isEmpty();
    }
}
