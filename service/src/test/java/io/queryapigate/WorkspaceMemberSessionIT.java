package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingBrowser;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A named administrator whose only role is a membership of team-b (bob, signed in to the console through the real
 * Keycloak, his server-wide role then taken away): he acts in team-b through its prefix with his membership's role,
 * nowhere else (403 {@code workspace_required} without a prefix, 404 {@code workspace_not_found} for team-a as for a
 * workspace that does not exist), never sees team-a's objects (404 as for missing ones), sees only his workspaces, and
 * manages team-b's members only once he is its owner.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WorkspaceMemberSessionIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), SsoSignInIT.ssoYaml(null),
                    "0s").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static URI at(String path) {
        return URI.create("http://127.0.0.1:" + APP.getLocalPort() + path);
    }

    private static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
        }
    }

    private static void refused(HttpResponse<String> r, int status, String code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(json(r).path("code").asText()).as(r.body()).isEqualTo(code);
    }

    private static void created(Http.Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    private static Store store() {
        GatewayConfiguration c = APP.getConfiguration();
        return Store.connect(Store.resolveUrl(c.getStore().getUrl(), Path.of(c.getHome()).toAbsolutePath()),
                null, null);
    }

    @Test
    void aMemberOfTeamBActsInTeamBOnly() {
        Http http = new Http(at("").toString());
        for (String team : List.of("team-a", "team-b")) {
            created(http.post("/api/v1/workspaces", ADMIN, Http.json(Map.of("name", team))));
            created(http.post("/w/" + team + "/api/v1/queries", ADMIN, Http.json(Map.of("name",
                    team.substring(5) + "_q", "sql", "SELECT 1 AS one", "connection_name", "x"))));
        }
        created(http.post("/w/team-a/api/v1/api-keys", ADMIN, "{\"name\": \"a_key\"}"));

        TestingBrowser bob = new TestingBrowser().signIn(at("").toString(), "bob");
        // his groups gave him a server-wide role, which the API leaves to the identity provider (409 sso_managed)
        store().jdbi().useHandle(h -> h.execute("UPDATE administrators SET role = NULL WHERE name = 'bob'"));
        refused(bob.withSession("GET", at("/api/v1/queries")), 403, "workspace_required");
        assertThat(http.request("PUT", "/api/v1/workspaces/team-b/members/bob", ADMIN, "{\"role\": \"developer\"}")
                .status()).isEqualTo(200);

        HttpResponse<String> own = bob.withSession("GET", at("/w/team-b/api/v1/queries"));
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(own.body()).contains("b_q").doesNotContain("a_q");
        refused(bob.withSession("GET", at("/api/v1/queries")), 403, "workspace_required");
        refused(bob.withSession("GET", at("/w/team-a/api/v1/queries")), 404, "workspace_not_found");
        refused(bob.withSession("GET", at("/w/no-such-team/api/v1/queries")), 404, "workspace_not_found");
        refused(bob.withSession("GET", at("/w/team-b/api/v1/queries/a_q")), 404, "query_not_found");
        refused(bob.withSession("GET", at("/w/team-b/api/v1/queries/zz_missing")), 404, "query_not_found");
        refused(bob.withSession("GET", at("/w/team-b/q/a_q")), 404, "query_not_found");
        refused(bob.withSession("DELETE", at("/w/team-b/api/v1/queries/a_q")), 404, "query_not_found");
        refused(bob.withSession("GET", at("/w/team-b/api/v1/api-keys")), 403, "role_forbidden");

        HttpResponse<String> mine = bob.withSession("GET", at("/api/v1/workspaces"));
        assertThat(json(mine).get("items")).hasSize(1);
        assertThat(json(mine).get("items").get(0).get("name").asText()).isEqualTo("team-b");
        refused(bob.withSession("GET", at("/api/v1/workspaces/team-a")), 404, "workspace_not_found");
        refused(bob.withSession("GET", at("/api/v1/workspaces/team-a/members")), 404, "workspace_not_found");
        assertThat(bob.withSession("GET", at("/api/v1/workspaces/team-b/members")).statusCode()).isEqualTo(200);

        // members are changed by an owner of the server or of that workspace
        created(http.post("/api/v1/administrators", ADMIN, "{\"name\": \"erin\", \"role\": null}"));
        refused(bob.withSession("PUT", at("/api/v1/workspaces/team-b/members/erin"), "{\"role\": \"auditor\"}"), 403,
                "role_forbidden");
        assertThat(http.request("PUT", "/api/v1/workspaces/team-b/members/bob", ADMIN, "{\"role\": \"owner\"}")
                .status()).isEqualTo(200);
        HttpResponse<String> added = bob.withSession("PUT", at("/api/v1/workspaces/team-b/members/erin"),
                "{\"role\": \"auditor\"}");
        assertThat(added.statusCode()).as(added.body()).isEqualTo(200);
        assertThat(json(added).get("added_by").asText()).isEqualTo("bob");
        refused(bob.withSession("PUT", at("/api/v1/workspaces/team-a/members/erin"), "{\"role\": \"auditor\"}"), 404,
                "workspace_not_found");
        refused(bob.withSession("POST", at("/api/v1/workspaces"), "{\"name\": \"team-c\"}"), 403,
                "workspace_required");
        refused(bob.withSession("POST", at("/w/team-b/api/v1/workspaces"), "{\"name\": \"team-c\"}"), 403,
                "role_forbidden"); // a membership never holds the server-only capabilities
        // an owner of team-b manages team-b's keys, not team-a's
        assertThat(bob.withSession("GET", at("/w/team-b/api/v1/api-keys")).statusCode()).isEqualTo(200);
        refused(bob.withSession("GET", at("/w/team-b/api/v1/api-keys/a_key")), 404, "key_not_found");
        refused(bob.withSession("DELETE", at("/w/team-b/api/v1/api-keys/a_key")), 404, "key_not_found");
        assertThat(http.get("/w/team-a/api/v1/api-keys/a_key", ADMIN).status()).isEqualTo(200);
        assertThat(http.get("/w/team-a/api/v1/queries/a_q", ADMIN).status()).isEqualTo(200);
    }
}
