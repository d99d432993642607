package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * Named administrators and their personal admin tokens over HTTP, as the Python original answers them, on whichever
 * store the subclass runs (SQLite, PostgreSQL): create, read, change, delete and every refusal; tokens shown once,
 * kept as SHA-256, listed, revoked, expiring; deactivation and deletion stopping them at once; {@code /api/v1/me};
 * who may run SQL. The store is read directly where the API cannot show what was kept.
 */
abstract class AdministratorsContract {
    /** The running gateway. */
    abstract Http http();

    /** An owner's credential: the break-glass key, or an owner's token when there is no key. */
    abstract String owner();

    /** The name the owner's changes are recorded under. */
    abstract String ownerName();

    /** The gateway's store. */
    abstract Jdbi store();

    private Reply post(String path, String key, Object body) {
        return http().post(path, key, Http.json(body));
    }

    private static Map<String, Object> admin(String name, String role) {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("name", name);
        body.put("role", role);
        return body;
    }

    @Test
    void administratorsAreCreatedReadChangedAndDeletedInTheOriginalsShapes() {
        Reply created = post("/api/v1/administrators", owner(), Map.of("name", "ada", "role", "developer",
                "email", "ada@example.com"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode ada = created.json();
        List<String> fields = new ArrayList<>();
        ada.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("name", "role", "active", "created_at", "email", "created_by",
                "last_seen_at", "sso", "tokens", "workspaces");
        assertThat(ada.get("role").asText()).isEqualTo("developer");
        assertThat(ada.get("active").asBoolean()).isTrue();
        assertThat(ada.get("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(ada.get("created_by").asText()).isEqualTo(ownerName());
        assertThat(ada.get("last_seen_at").isNull()).isTrue();
        assertThat(ada.get("sso").isNull()).isTrue();
        assertThat(ada.get("tokens").asInt()).isZero();
        assertThat(ada.get("workspaces").toString()).isEqualTo("{}");
        String etag = created.header("ETag");
        assertThat(etag).isNotBlank();

        assertThat(http().get("/api/v1/administrators", owner()).json().get("items").findValuesAsText("name"))
                .contains("ada");
        assertThat(http().get("/api/v1/administrators/ada", owner()).json().get("email").asText())
                .isEqualTo("ada@example.com");

        post("/api/v1/administrators", owner(), admin("ada", "owner")).assertRefused(409, "admin_exists");
        post("/api/v1/administrators", owner(), Map.of("name", "bea")).assertRefused(400, "invalid_body");
        for (String reserved : List.of("admin", "cli", "startup", "-", "Admin ")) {
            post("/api/v1/administrators", owner(), admin(reserved, "owner")).assertRefused(400, "invalid_name");
        }
        post("/api/v1/administrators", owner(), admin("bea/x", "owner")).assertRefused(400, "invalid_name");
        post("/api/v1/administrators", owner(), admin("x".repeat(101), "owner")).assertRefused(400, "invalid_name");
        Reply badRole = post("/api/v1/administrators", owner(), admin("bea", "boss"));
        badRole.assertRefused(400, "invalid_body");
        assertThat(badRole.json().get("errors").has("role")).isTrue();
        Reply badMail = post("/api/v1/administrators", owner(), Map.of("name", "bea", "role", "owner",
                "email", "not-an-address"));
        badMail.assertRefused(400, "invalid_body");
        assertThat(badMail.json().get("errors").has("email")).isTrue();
        post("/api/v1/administrators", owner(), Map.of("name", "bea", "role", "owner", "active", false))
                .assertRefused(400, "unknown_field");
        http().post("/api/v1/administrators", owner(), "[]").assertRefused(400, "invalid_body");
        assertThat(http().get("/api/v1/administrators/bea", owner()).status()).as("nothing was made").isEqualTo(404);

        Reply viewer = post("/api/v1/administrators", owner(), admin("vic", "viewer"));
        assertThat(viewer.json().get("role").asText()).as("viewer is another name for auditor").isEqualTo("auditor");
        Reply none = post("/api/v1/administrators", owner(), admin("nora", null));
        assertThat(none.status()).as(none.body()).isEqualTo(201);
        assertThat(none.json().get("role").isNull()).as("null: roles in workspaces only").isTrue();

        Reply changed = http().request("PATCH", "/api/v1/administrators/ada", owner(),
                "{\"role\": \"admin\", \"email\": null}", "If-Match", etag);
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().get("role").asText()).isEqualTo("admin");
        assertThat(changed.json().get("email").isNull()).isTrue();
        assertThat(changed.header("ETag")).isNotEqualTo(etag);
        http().request("PATCH", "/api/v1/administrators/ada", owner(), "{\"role\": \"owner\"}", "If-Match", etag)
                .assertRefused(412, "precondition_failed");
        http().patch("/api/v1/administrators/ada", owner(), "{\"active\": \"no\"}").assertRefused(400,
                "invalid_body");
        http().patch("/api/v1/administrators/ada", owner(), "{\"name\": \"x\"}").assertRefused(400, "unknown_field");
        http().patch("/api/v1/administrators/ada", owner(), "{\"role\": \"boss\"}").assertRefused(400,
                "invalid_body");
        http().patch("/api/v1/administrators/nobody", owner(), "{\"role\": \"admin\"}").assertRefused(404,
                "admin_not_found");
        assertThat(http().get("/api/v1/administrators/ada", owner()).json().get("role").asText())
                .as("a refused change changes nothing").isEqualTo("admin");

        http().request("DELETE", "/api/v1/administrators/ada", owner(), null, "If-Match", etag)
                .assertRefused(412, "precondition_failed");
        assertThat(http().delete("/api/v1/administrators/ada", owner()).status()).isEqualTo(204);
        http().get("/api/v1/administrators/ada", owner()).assertRefused(404, "admin_not_found");
        http().delete("/api/v1/administrators/ada", owner()).assertRefused(404, "admin_not_found");
        assertThat(post("/api/v1/administrators", owner(), admin("ada", "auditor")).status())
                .as("the name is free again").isEqualTo(201);
    }

    @Test
    void anAdministratorAndAnApiKeyNeverShareAName() {
        assertThat(post("/api/v1/api-keys", owner(), Map.of("name", "shared-name", "queries", List.of("film")))
                .status()).isEqualTo(201);
        post("/api/v1/administrators", owner(), admin("shared-name", "owner")).assertRefused(409, "name_taken");
        TestingAdmins.create(http(), owner(), "taken-by-admin", "auditor");
        post("/api/v1/api-keys", owner(), Map.of("name", "taken-by-admin", "queries", List.of("film")))
                .assertRefused(409, "name_taken");
    }

    @Test
    void aTokenIsShownOnceKeptAsItsHashListedRevokedAndExpires() {
        TestingAdmins.create(http(), owner(), "tom", "admin");
        Reply issued = post("/api/v1/administrators/tom/tokens", owner(), Map.of("label", "laptop",
                "expires_at", "2099-12-31"));
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        assertThat(issued.header("Cache-Control")).isEqualTo("no-store");
        JsonNode token = issued.json();
        String secret = token.get("secret").asText();
        assertThat(secret).matches("qagadm_[A-Za-z0-9_-]{43}");
        assertThat(token.get("id").asText()).matches("tok_[0-9]+");
        assertThat(token.get("admin").asText()).isEqualTo("tom");
        assertThat(token.get("label").asText()).isEqualTo("laptop");
        assertThat(token.get("expires_at").asText()).isEqualTo("2099-12-31");
        assertThat(token.get("expired").asBoolean()).isFalse();

        List<Map<String, Object>> rows = store().withHandle(h -> h.createQuery(
                "SELECT t.* FROM admin_tokens t JOIN administrators a ON a.id = t.admin_id WHERE a.name = 'tom'")
                .mapToMap().list());
        assertThat(rows).hasSize(2);
        assertThat(rows.toString()).doesNotContain(secret.substring(7, 30));
        assertThat(rows).extracting(r -> r.get("token_hash")).contains(KeyHasher.hashHex(secret));

        Reply listed = http().get("/api/v1/administrators/tom/tokens", owner());
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).as("the secret is never shown again").doesNotContain(secret)
                .doesNotContain("secret");
        assertThat(listed.json().get("items")).hasSize(2);
        assertThat(http().get("/api/v1/administrators/tom", owner()).json().get("tokens").asInt()).isEqualTo(2);

        JsonNode me = http().get("/api/v1/me", secret).json();
        assertThat(me.get("name").asText()).isEqualTo("tom");
        assertThat(me.get("via").asText()).isEqualTo("token");
        assertThat(http().request("GET", "/api/v1/me", null, null, "Authorization", "Bearer " + secret).status())
                .as("as a bearer token too").isEqualTo(200);
        JsonNode used = http().get("/api/v1/administrators/tom/tokens", owner()).json().get("items");
        JsonNode laptop = used.get(0).get("label").asText("").equals("laptop") ? used.get(0) : used.get(1);
        assertThat(laptop.get("last_used_at").isNull()).as("its use is recorded").isFalse();
        assertThat(http().get("/api/v1/administrators/tom", owner()).json().get("last_seen_at").isNull()).isFalse();

        for (String bad : List.of("{\"label\": 5}", "{\"label\": \"" + "x".repeat(101) + "\"}",
                "{\"expires_at\": \"2030-02-30\"}", "{\"expires_at\": \"tomorrow\"}")) {
            http().post("/api/v1/administrators/tom/tokens", owner(), bad).assertRefused(400, "invalid_body");
        }
        http().post("/api/v1/administrators/tom/tokens", owner(), "{\"x\": 1}").assertRefused(400, "unknown_field");
        http().post("/api/v1/administrators/nobody/tokens", owner(), "{}").assertRefused(404, "admin_not_found");
        http().get("/api/v1/administrators/nobody/tokens", owner()).assertRefused(404, "admin_not_found");

        assertThat(http().delete("/api/v1/administrators/tom/tokens/" + token.get("id").asText(), owner()).status())
                .isEqualTo(204);
        http().get("/api/v1/me", secret).assertRefused(401, "unauthorized");
        http().delete("/api/v1/administrators/tom/tokens/" + token.get("id").asText(), owner())
                .assertRefused(404, "token_not_found");
        http().delete("/api/v1/administrators/tom/tokens/tok_nope", owner()).assertRefused(404, "token_not_found");
        String other = TestingAdmins.create(http(), owner(), "tim", "admin");
        String timsId = http().get("/api/v1/administrators/tim/tokens", owner()).json().get("items").get(0)
                .get("id").asText();
        http().delete("/api/v1/administrators/tom/tokens/" + timsId, owner())
                .assertRefused(404, "token_not_found");
        assertThat(http().get("/api/v1/me", other).status()).as("another's token id revokes nothing").isEqualTo(200);

        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String lastDayToday = post("/api/v1/administrators/tom/tokens", owner(), Map.of("expires_at",
                today.toString())).json().get("secret").asText();
        assertThat(http().get("/api/v1/me", lastDayToday).status()).as("works through its last day").isEqualTo(200);
        Reply yesterday = post("/api/v1/administrators/tom/tokens", owner(), Map.of("expires_at",
                today.minusDays(1).toString()));
        assertThat(yesterday.json().get("expired").asBoolean()).isTrue();
        http().get("/api/v1/me", yesterday.json().get("secret").asText()).assertRefused(401, "unauthorized");
        http().get("/api/v1/me", secret.substring(0, secret.length() - 1) + "A").assertRefused(401,
                "unauthorized");
        http().get("/api/v1/me", "qagadm_").assertRefused(401, "unauthorized");
    }

    @Test
    void deactivationStopsEveryTokenAndSessionAtOnceAndDeletionRemovesThem() {
        String first = TestingAdmins.create(http(), owner(), "dee", "developer");
        String second = TestingAdmins.token(http(), owner(), "dee");
        long id = store().withHandle(h -> h.createQuery("SELECT id FROM administrators WHERE name = 'dee'")
                .mapTo(Long.class).one());
        store().useHandle(h -> {
            h.execute("INSERT INTO admin_sessions (id_hash, admin_id, csrf_hash, created_at, expires_at,"
                    + " last_seen_at) VALUES (?, ?, ?, 0, 9999999999999, 0)", "a".repeat(64), id, "b".repeat(64));
            h.execute("INSERT INTO workspace_members (workspace, admin_id, role, created_at) VALUES"
                    + " ('default', ?, 'auditor', 0)", id);
        });
        assertThat(http().get("/api/v1/me", first).status()).isEqualTo(200);

        Reply off = http().patch("/api/v1/administrators/dee", owner(), "{\"active\": false}");
        assertThat(off.status()).as(off.body()).isEqualTo(200);
        assertThat(off.json().get("active").asBoolean()).isFalse();
        http().get("/api/v1/me", first).assertRefused(401, "unauthorized");
        http().get("/api/v1/me", second).assertRefused(401, "unauthorized");
        assertThat(sessions(id)).as("its console sessions end with it").isZero();

        assertThat(http().patch("/api/v1/administrators/dee", owner(), "{\"active\": true}").status())
                .isEqualTo(200);
        assertThat(http().get("/api/v1/me", first).status()).as("reactivated, its tokens work again")
                .isEqualTo(200);

        store().useHandle(h -> h.execute("INSERT INTO admin_sessions (id_hash, admin_id, csrf_hash, created_at,"
                + " expires_at, last_seen_at) VALUES (?, ?, ?, 0, 9999999999999, 0)", "c".repeat(64), id,
                "d".repeat(64)));
        assertThat(http().delete("/api/v1/administrators/dee", owner()).status()).isEqualTo(204);
        http().get("/api/v1/me", first).assertRefused(401, "unauthorized");
        int left = store().withHandle(h -> h.createQuery("SELECT (SELECT COUNT(*) FROM admin_tokens WHERE"
                + " admin_id = :id) + (SELECT COUNT(*) FROM workspace_members WHERE admin_id = :id)")
                .bind("id", id).mapTo(Integer.class).one());
        assertThat(left).as("its tokens and memberships are gone").isZero();
        assertThat(sessions(id)).isZero();
    }

    private int sessions(long adminId) {
        return store().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM admin_sessions WHERE admin_id = :id")
                .bind("id", adminId).mapTo(Integer.class).one());
    }

    @Test
    void everyoneManagesTheirOwnTokensAndOnlyOwnersAnyoneElses() {
        String dev = TestingAdmins.create(http(), owner(), "devi", "developer");
        String aud = TestingAdmins.create(http(), owner(), "audi", "auditor");
        String none = TestingAdmins.create(http(), owner(), "nobody-role", null);
        String adm = TestingAdmins.create(http(), owner(), "addy", "admin");
        for (Map.Entry<String, String> self : Map.of("devi", dev, "audi", aud, "nobody-role", none, "addy", adm)
                .entrySet()) {
            String path = "/api/v1/administrators/" + self.getKey() + "/tokens";
            assertThat(http().get(path, self.getValue()).status()).as(self.getKey()).isEqualTo(200);
            Reply mine = http().request("POST", path, self.getValue(), null);
            assertThat(mine.status()).as(mine.body()).isEqualTo(201);
            assertThat(http().delete(path + "/" + mine.json().get("id").asText(), self.getValue()).status())
                    .isEqualTo(204);
        }
        TestingAdmins.create(http(), owner(), "target", "auditor");
        String theirs = "/api/v1/administrators/target/tokens";
        String tokenId = http().get(theirs, owner()).json().get("items").get(0).get("id").asText();
        for (String caller : List.of(dev, aud, none, adm)) {
            String code = caller.equals(none) ? "workspace_required" : "role_forbidden";
            http().get(theirs, caller).assertRefused(403, code);
            http().post(theirs, caller, "{}").assertRefused(403, code);
            http().delete(theirs + "/" + tokenId, caller).assertRefused(403, code);
        }
        assertThat(http().get(theirs, owner()).json().get("items")).as("nothing was issued or revoked").hasSize(1);
    }

    @Test
    void meSaysWhoEachKindOfAdministratorIs() {
        JsonNode breakGlass = http().get("/api/v1/me", owner()).json();
        assertThat(breakGlass.get("role").asText()).isEqualTo("owner");
        assertThat(breakGlass.get("capabilities")).hasSize(24);
        assertThat(breakGlass.get("data_access").asBoolean()).isTrue();

        JsonNode auditor = http().get("/api/v1/me", TestingAdmins.create(http(), owner(), "ora", "auditor")).json();
        assertThat(auditor.get("name").asText()).isEqualTo("ora");
        assertThat(auditor.get("role").asText()).isEqualTo("auditor");
        assertThat(auditor.get("via").asText()).isEqualTo("token");
        assertThat(auditor.get("capabilities").toString()).isEqualTo("[\"access.read\",\"connections.read\","
                + "\"exports.read\",\"observe\",\"queries.read\",\"self\",\"settings.read\",\"workspaces.read\"]");
        assertThat(auditor.get("data_access").asBoolean()).isFalse();
        assertThat(auditor.get("workspace").asText()).isEqualTo("default");
        assertThat(auditor.get("server_wide").asBoolean()).isTrue();
        assertThat(auditor.get("workspaces").toString()).isEqualTo("{}");

        String memberToken = TestingAdmins.create(http(), owner(), "mem", null);
        store().useHandle(h -> h.execute("INSERT INTO workspace_members (workspace, admin_id, role, created_at)"
                + " SELECT 'default', id, 'developer', 0 FROM administrators WHERE name = 'mem'"));
        JsonNode member = http().get("/api/v1/me", memberToken).json();
        assertThat(member.get("role").asText()).isEqualTo("developer");
        assertThat(member.get("server_wide").asBoolean()).isFalse();
        assertThat(member.get("workspaces").toString()).isEqualTo("{\"default\":\"developer\"}");
        assertThat(member.get("capabilities").toString()).isEqualTo("[\"connections.read\",\"exports.read\","
                + "\"exports.run\",\"observe\",\"queries.read\",\"queries.write\",\"self\"]");

        JsonNode nothing = http().get("/api/v1/me", TestingAdmins.create(http(), owner(), "nil", null)).json();
        assertThat(nothing.get("role").isNull()).isTrue();
        assertThat(nothing.get("capabilities")).isEmpty();
        assertThat(nothing.get("data_access").asBoolean()).isFalse();

        String key = http().post("/api/v1/api-keys", owner(), Http.json(Map.of("name", "me-key", "queries",
                List.of("film")))).json().get("secret").asText();
        http().get("/api/v1/me", key).assertRefused(403, "admin_only");
        http().get("/api/v1/me", null).assertRefused(401, "unauthorized");
    }

    @Test
    void administratorsWithADataRoleRunSqlAndAnAuditorDoesNot() {
        for (String role : List.of("owner", "admin", "developer")) {
            String token = TestingAdmins.create(http(), owner(), "runs-" + role, role);
            Reply call = http().get("/q/film?film_id=1", token);
            assertThat(call.status()).as(role + ": " + call.body()).isEqualTo(200);
            assertThat(http().sql(token, "demo", "SELECT 1 AS one").status()).as(role).isEqualTo(200);
        }
        String auditor = TestingAdmins.create(http(), owner(), "reads-only", "auditor");
        assertThat(http().get("/q/film?film_id=1", auditor).status()).isEqualTo(403);
        assertThat(http().sql(auditor, "demo", "SELECT 1 AS one").status()).isEqualTo(403);
        String nobody = TestingAdmins.create(http(), owner(), "runs-nothing", null);
        assertThat(http().get("/q/film?film_id=1", nobody).status()).isEqualTo(403);
    }
}
