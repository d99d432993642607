package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * API-key roles over HTTP, on a real store (the SQLite and the PostgreSQL subclasses): the CRUD in the original's
 * shapes, every bad field named, keys made from a role and narrowed (and every way to widen one tried), role changes
 * reaching keys, delete while in use, a role of another workspace invisible, key claims, and roles in configuration
 * as code.
 */
abstract class RolesContract {
    static final String ADMIN = TestingConfig.ADMIN_KEY;

    /** The instance under test. */
    abstract Http http();

    /** The instance's store, for what the API cannot do (a role in another workspace). */
    abstract Jdbi store();

    static String json(Object o) {
        return Http.json(o);
    }

    Reply createRole(String name, Map<String, Object> fields) {
        Map<String, Object> body = new LinkedHashMap<>(fields);
        body.put("name", name);
        return http().post("/api/v1/roles", ADMIN, json(body));
    }

    Reply createKey(String name, Map<String, Object> fields) {
        Map<String, Object> body = new LinkedHashMap<>(fields);
        body.put("name", name);
        return http().post("/api/v1/api-keys", ADMIN, json(body));
    }

    String secret(Reply created) {
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().get("secret").asText();
    }

    int film(String secret) {
        return http().get("/q/film?film_id=1", secret).status();
    }

    int films(String secret) {
        return http().get("/q/films", secret).status();
    }

    void savedFilms() {
        if (http().get("/api/v1/queries/films", ADMIN).status() == 404) {
            http().saveQuery(ADMIN, "films", "SELECT film_id, title FROM film ORDER BY film_id LIMIT 20", Map.of(),
                    true, "Twenty films", Map.of());
        }
    }

    @Test
    void aRoleLivesItsLifeInTheOriginalsShapes() {
        Reply created = createRole("reporting", Map.of("queries", List.of("film"), "max_rows", 10, "description",
                "What the reporting apps read"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode role = created.json();
        assertThat(role.get("name").asText()).isEqualTo("reporting");
        assertThat(role.get("workspace").asText()).isEqualTo("default");
        assertThat(role.get("description").asText()).isEqualTo("What the reporting apps read");
        assertThat(role.get("connections").isArray() && role.get("connections").isEmpty())
                .as("least privilege: no connection unless granted").isTrue();
        assertThat(role.get("queries").toString()).isEqualTo("[\"film\"]");
        assertThat(role.get("collections").isEmpty()).isTrue();
        assertThat(role.get("allow_writes").asBoolean()).isFalse();
        assertThat(role.get("max_rows").asInt()).isEqualTo(10);
        assertThat(role.get("require_claim_binding").asBoolean()).isFalse();
        assertThat(role.get("keys_created").asInt()).isZero();
        assertThat(role.get("created_at").asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
        assertThat(role.get("created_by").asText()).isEqualTo("admin");
        String etag = created.header("ETag");
        assertThat(etag).matches("\"[0-9a-f]{32}\"");

        assertThat(http().get("/api/v1/roles/reporting", ADMIN).json()).isEqualTo(role);
        assertThat(http().get("/api/v1/roles", ADMIN).json().get("items")).anySatisfy(r ->
                assertThat(r.get("name").asText()).isEqualTo("reporting"));

        createRole("reporting", Map.of()).assertRefused(409, "role_exists");
        createRole("no/slash", Map.of()).assertRefused(400, "invalid_name");
        createRole("no/slash", Map.of("max_rows", 0)).assertRefused(400, "invalid_name");
        http().post("/api/v1/roles", ADMIN, "{\"queries\": [\"film\"]}").assertRefused(400, "invalid_name");
        createRole("colourful", Map.of("colour", "red")).assertRefused(400, "unknown_field");
        http().get("/api/v1/roles/nobody", ADMIN).assertRefused(404, "role_not_found");
        http().patch("/api/v1/roles/nobody", ADMIN, "{\"max_rows\": 5}").assertRefused(404, "role_not_found");
        http().delete("/api/v1/roles/nobody", ADMIN).assertRefused(404, "role_not_found");
        http().patch("/api/v1/roles/reporting", ADMIN, "{\"name\": \"renamed\"}").assertRefused(400,
                "unknown_field");
        http().request("PATCH", "/api/v1/roles/reporting", ADMIN, "{\"max_rows\": 5}", "If-Match", "\"stale\"")
                .assertRefused(412, "precondition_failed");

        Reply changed = http().request("PATCH", "/api/v1/roles/reporting", ADMIN,
                "{\"max_rows\": null, \"rate_limit\": \"5/second\"}", "If-Match", etag);
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().get("max_rows").isNull()).as("null clears").isTrue();
        assertThat(changed.json().get("rate_limit").asText()).isEqualTo("5/second");
        assertThat(changed.json().get("queries").toString()).as("absent fields are kept").isEqualTo("[\"film\"]");
        assertThat(changed.header("ETag")).isNotEqualTo(etag);
        http().request("DELETE", "/api/v1/roles/reporting", ADMIN, null, "If-Match", etag).assertRefused(412,
                "precondition_failed");

        String reader = http().key("role-reader", Map.of("queries", List.of("film")));
        http().get("/api/v1/roles", reader).assertRefused(403, "admin_only");
        http().post("/api/v1/roles", reader, json(Map.of("name", "by-a-key"))).assertRefused(403, "admin_only");

        assertThat(http().delete("/api/v1/roles/reporting", ADMIN).status()).isEqualTo(204);
        http().get("/api/v1/roles/reporting", ADMIN).assertRefused(404, "role_not_found");
    }

    @Test
    void everyBadFieldIsNamedAtOnce() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("connections", List.of("nowhere"));
        body.put("max_rows", 0);
        body.put("rate_limit", "fast");
        body.put("allowed_ips", List.of("not-an-address"));
        body.put("quota", Map.of("calls", 5, "per", "week"));
        body.put("description", 7);
        body.put("require_claim_binding", true);
        body.put("allowed_write_ops", List.of("explode"));
        body.put("adhoc_sql", "yes");
        Reply r = createRole("broken", body);
        r.assertRefused(400, "invalid_body");
        assertThat(r.json().get("errors").properties()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder(
                "connections", "max_rows", "rate_limit", "allowed_ips", "quota", "description",
                "require_claim_binding", "allowed_write_ops", "adhoc_sql");
        http().get("/api/v1/roles/broken", ADMIN).assertRefused(404, "role_not_found");

        assertThat(createRole("fine", Map.of()).status()).isEqualTo(201);
        Reply p = http().patch("/api/v1/roles/fine", ADMIN, json(Map.of("max_concurrent", 0, "query_timeout",
                "slow")));
        p.assertRefused(400, "invalid_body");
        assertThat(p.json().get("errors").has("max_concurrent") && p.json().get("errors").has("query_timeout"))
                .as(p.body()).isTrue();

        Reply k = createKey("bad-key-fields", Map.of("max_rows", -1, "claims", List.of("x"), "expires_at", "soon"));
        k.assertRefused(400, "invalid_body");
        assertThat(k.json().get("errors").properties()).extracting(Map.Entry::getKey)
                .as("a key's bad fields are named at once too").containsExactlyInAnyOrder("max_rows", "claims",
                        "expires_at");
    }

    @Test
    void aKeyMadeFromARoleIsNarrowedByItsOwnFieldsAndCannotWidenIt() {
        savedFilms();
        assertThat(createRole("analysts", Map.of("queries", List.of("film", "films"), "max_rows", 3,
                "allowed_ips", List.of("127.0.0.0/8"))).status()).isEqualTo(201);
        Reply whole = createKey("analyst-all", Map.of("role", "analysts"));
        String all = secret(whole);
        assertThat(whole.json().get("role").asText()).isEqualTo("analysts");
        assertThat(whole.json().get("created_from_role").asText()).isEqualTo("analysts");
        assertThat(whole.json().get("effective_grants").get("queries").toString()).isEqualTo("[\"film\",\"films\"]");
        assertThat(whole.json().get("effective_limits").get("max_rows").get("page").asInt())
                .as("effective limits are the role's").isEqualTo(3);
        assertThat(List.of(film(all), films(all))).containsExactly(200, 200);
        assertThat(http().get("/q/films", all).json().size()).as("the role's max_rows").isEqualTo(3);
        assertThat(http().sql(all, "demo", "SELECT 1").status()).as("the role has no connection").isEqualTo(403);

        Reply narrowed = createKey("analyst-film", Map.of("role", "analysts", "queries", List.of("film"),
                "max_rows", 2));
        String one = secret(narrowed);
        assertThat(narrowed.json().get("effective_grants").get("queries").toString()).isEqualTo("[\"film\"]");
        assertThat(List.of(film(one), films(one))).containsExactly(200, 403);

        Reply beyond = createKey("analyst-more", Map.of("role", "analysts", "queries", List.of("film", "secret"),
                "connections", List.of("demo"), "allowed_ips", List.of("0.0.0.0/0")));
        beyond.assertRefused(400, "invalid_body");
        assertThat(beyond.json().get("errors").properties()).extracting(Map.Entry::getKey)
                .containsExactlyInAnyOrder("queries", "connections", "allowed_ips");
        http().get("/api/v1/api-keys/analyst-more", ADMIN).assertRefused(404, "key_not_found");
        http().patch("/api/v1/api-keys/analyst-film", ADMIN, json(Map.of("queries", "*", "connections",
                List.of("demo")))).assertRefused(400, "invalid_body");

        Reply loosened = http().patch("/api/v1/api-keys/analyst-film", ADMIN, "{\"queries\": \"*\", \"connections\":"
                + " \"*\", \"adhoc_sql\": true, \"allow_writes\": true, \"max_rows\": 1000, \"allowed_ips\": null}");
        assertThat(loosened.status()).as("'*' means 'as the role': accepted, and no wider").isEqualTo(200);
        JsonNode effective = loosened.json().get("effective_grants");
        assertThat(effective.get("connections").isEmpty()).isTrue();
        assertThat(effective.get("adhoc_sql").asBoolean()).isFalse();
        assertThat(effective.get("allow_writes").asBoolean()).isFalse();
        assertThat(effective.get("max_rows").asInt()).isEqualTo(3);
        assertThat(effective.get("allowed_ips").toString()).isEqualTo("[\"127.0.0.0/8\"]");
        assertThat(http().sql(one, "demo", "SELECT 1").status()).isEqualTo(403);
        assertThat(http().get("/q/films", one).json().size()).isEqualTo(3);

        createKey("ghost-role", Map.of("role", "nobody")).assertRefused(404, "role_not_found");
        http().patch("/api/v1/api-keys/analyst-film", ADMIN, json(Map.of("role", "nobody"))).assertRefused(404,
                "role_not_found");
    }

    @Test
    void aChangeToARoleReachesItsKeys() {
        savedFilms();
        assertThat(createRole("growing", Map.of("queries", List.of("film"))).status()).isEqualTo(201);
        String key = secret(createKey("growing-key", Map.of("role", "growing")));
        secret(createKey("growing-narrow", Map.of("role", "growing", "queries", List.of("film"), "quota",
                Map.of("calls", 100, "per", "day"))));
        assertThat(List.of(film(key), films(key))).containsExactly(200, 403);
        assertThat(http().patch("/api/v1/roles/growing", ADMIN, json(Map.of("queries", List.of("film", "films"))))
                .status()).isEqualTo(200);
        assertThat(List.of(film(key), films(key))).as("at once on the instance that changed it")
                .containsExactly(200, 200);
        assertThat(http().patch("/api/v1/roles/growing", ADMIN, json(Map.of("queries", List.of()))).status())
                .isEqualTo(200);
        assertThat(List.of(film(key), films(key))).containsExactly(403, 403);
        assertThat(http().patch("/api/v1/roles/growing", ADMIN, json(Map.of("quota", Map.of("calls", 5, "per",
                "month")))).status()).isEqualTo(200);
        Reply revoked = http().patch("/api/v1/api-keys/growing-narrow", ADMIN, "{\"active\": false}");
        assertThat(revoked.status()).as("a role that shrank never blocks revoking a key: " + revoked.body())
                .isEqualTo(200);
        http().patch("/api/v1/api-keys/growing-narrow", ADMIN, "{\"queries\": [\"film\", \"films\"]}")
                .assertRefused(400, "invalid_body");
        assertThat(http().get("/api/v1/roles/growing", ADMIN).json().get("keys").toString())
                .isEqualTo("[\"growing-key\",\"growing-narrow\"]");
    }

    @Test
    void aRoleKeysAreMadeFromIsNotDeleted() {
        assertThat(createRole("in-use", Map.of("queries", List.of("film"), "max_rows", 4)).status()).isEqualTo(201);
        String first = secret(createKey("in-use-1", Map.of("role", "in-use")));
        secret(createKey("in-use-2", Map.of("role", "in-use")));
        Reply refused = http().delete("/api/v1/roles/in-use", ADMIN);
        refused.assertRefused(409, "role_in_use");
        assertThat(refused.json().get("keys").toString()).isEqualTo("[\"in-use-1\",\"in-use-2\"]");
        assertThat(film(first)).isEqualTo(200);

        Reply left = http().patch("/api/v1/api-keys/in-use-1", ADMIN, "{\"role\": null}");
        assertThat(left.status()).as(left.body()).isEqualTo(200);
        assertThat(left.json().get("role").isNull()).isTrue();
        assertThat(left.json().get("queries").toString()).as("it keeps what it had through the role, no more")
                .isEqualTo("[\"film\"]");
        assertThat(left.json().get("connections").isEmpty()).isTrue();
        assertThat(left.json().get("max_rows").asInt()).isEqualTo(4);
        assertThat(http().delete("/api/v1/api-keys/in-use-2", ADMIN).status()).isEqualTo(204);
        assertThat(http().delete("/api/v1/roles/in-use", ADMIN).status()).isEqualTo(204);
        assertThat(film(first)).isEqualTo(200);
    }

    @Test
    void aRoleOfAnotherWorkspaceIsNotFoundAndGrantsNothing() {
        long now = System.currentTimeMillis();
        store().useHandle(h -> h.execute("INSERT INTO roles (name, workspace, description, grants, created_at,"
                + " updated_at) VALUES ('team-b-role', 'team-b', 'TOP-SECRET-DESCRIPTION', ?, ?, ?)",
                "{\"connections\":[\"*\"],\"queries\":[\"*\"],\"adhoc_sql\":true,\"allow_writes\":true,\"mask\":[]}",
                now, now));
        for (Reply r : List.of(http().get("/api/v1/roles/team-b-role", ADMIN),
                http().patch("/api/v1/roles/team-b-role", ADMIN, "{\"max_rows\": 1}"),
                http().delete("/api/v1/roles/team-b-role", ADMIN),
                createKey("team-b-key", Map.of("role", "team-b-role")))) {
            r.assertRefused(404, "role_not_found");
            assertThat(r.body()).doesNotContain("TOP-SECRET").doesNotContain("team-b\"");
        }
        assertThat(http().get("/api/v1/roles", ADMIN).body()).doesNotContain("team-b-role");

        String key = http().key("smuggled", Map.of("queries", List.of("film")));
        store().useHandle(h -> h.execute("UPDATE api_keys SET role_name = 'team-b-role', grants = ? WHERE name ="
                + " 'smuggled'", "{\"connections\":[\"*\"],\"queries\":[\"*\"],\"adhoc_sql\":true,"
                + "\"allow_writes\":true,\"mask\":[]}"));
        assertThat(List.of(film(key), http().sql(key, "demo", "SELECT 1").status()))
                .as("a key naming another workspace's role reaches nothing").containsExactly(403, 403);
        store().useHandle(h -> h.execute("DELETE FROM roles WHERE name = 'team-b-role'"));
    }

    @Test
    void aKeysClaimsRoundTrip() {
        Reply created = createKey("tenant-key", Map.of("queries", List.of("film"), "claims",
                Map.of("org_id", "acme", "tier", 3, "beta", true, "ratio", 0.5)));
        secret(created);
        assertThat(created.json().get("claims").toString())
                .isEqualTo("{\"beta\":true,\"org_id\":\"acme\",\"ratio\":0.5,\"tier\":3}");
        assertThat(http().get("/api/v1/api-keys/tenant-key", ADMIN).json().get("claims").get("org_id").asText())
                .isEqualTo("acme");
        Reply changed = http().patch("/api/v1/api-keys/tenant-key", ADMIN, "{\"claims\": {\"org_id\": \"globex\"}}");
        assertThat(changed.json().get("claims").toString()).isEqualTo("{\"org_id\":\"globex\"}");
        assertThat(http().patch("/api/v1/api-keys/tenant-key", ADMIN, "{\"claims\": null}").json().get("claims")
                .isEmpty()).isTrue();
        Map<String, Object> many = new LinkedHashMap<>();
        for (int i = 0; i < 51; i++) {
            many.put("c" + i, i);
        }
        for (String bad : List.of("{\"claims\": {\"org\": {\"nested\": 1}}}", "{\"claims\": {\"org\": [1]}}",
                "{\"claims\": {\"org\": null}}", "{\"claims\": \"org_id=acme\"}", "{\"claims\": {\" org\": \"x\"}}",
                "{\"claims\": {\"org\": \"" + "x".repeat(1001) + "\"}}", json(Map.of("claims", many)))) {
            Reply r = http().patch("/api/v1/api-keys/tenant-key", ADMIN, bad);
            r.assertRefused(400, "invalid_body");
            assertThat(r.json().get("errors").has("claims")).as(bad).isTrue();
        }
    }

    @Test
    void rolesAreDeclaredInConfigurationAsCode() {
        savedFilms();
        String secret = "qag_config-role-key-0123456789";
        String keyFile = "secret_sha256: " + KeyHasher.hashHex(secret) + "\nrole: cc-role\nqueries: [film]\n"
                + "claims:\n  org_id: acme\n";
        Map<String, String> files = new LinkedHashMap<>();
        files.put("roles/cc-role.yaml", "description: Declared in git\nqueries: [film, films]\nmax_rows: 2\n");
        files.put("api_keys/cc-key.yaml", keyFile);
        Reply diff = http().post("/api/v1/config/diff", ADMIN, json(Map.of("files", files)));
        assertThat(diff.status()).as(diff.body()).isEqualTo(200);
        assertThat(diff.json().get("changes").toString()).contains("\"kind\":\"roles\"").contains("cc-role");
        Reply applied = http().post("/api/v1/config/apply", ADMIN, json(Map.of("files", files)));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.json().get("applied").asBoolean()).isTrue();
        assertThat(List.of(film(secret), films(secret))).as("the key narrows its role to film")
                .containsExactly(200, 403);
        JsonNode key = http().get("/api/v1/api-keys/cc-key", ADMIN).json();
        assertThat(key.get("role").asText()).isEqualTo("cc-role");
        assertThat(key.get("claims").toString()).isEqualTo("{\"org_id\":\"acme\"}");
        assertThat(http().get("/api/v1/roles/cc-role", ADMIN).json().get("managed_by").asText())
                .isEqualTo("file:roles/cc-role.yaml");

        Reply refused = http().patch("/api/v1/roles/cc-role", ADMIN, "{\"max_rows\": 100}");
        refused.assertRefused(409, "managed_by_file");
        assertThat(refused.json().get("file").asText()).isEqualTo("roles/cc-role.yaml");
        http().delete("/api/v1/roles/cc-role", ADMIN).assertRefused(409, "managed_by_file");
        assertThat(http().post("/api/v1/config/diff", ADMIN, json(Map.of("files", files))).json().get("summary")
                .get("unchanged").asInt()).isEqualTo(2);

        files.put("roles/cc-role.yaml", "description: Declared in git\nqueries: [films]\nmax_rows: 2\n");
        files.put("api_keys/cc-key.yaml", keyFile.replace("queries: [film]", "queries: '*'"));
        Reply changed = http().post("/api/v1/config/apply", ADMIN, json(Map.of("files", files)));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(List.of(film(secret), films(secret))).containsExactly(403, 200);

        Map<String, String> broken = Map.of("roles/bad-role.yaml", "max_rows: 0\ncolour: red\n",
                "api_keys/bad-key.yaml", "secret_sha256: " + KeyHasher.hashHex("qag_other-0123456789")
                        + "\nrole: nowhere\n");
        Reply problems = http().post("/api/v1/config/apply", ADMIN, json(Map.of("files", broken)));
        problems.assertRefused(400, "invalid_config");
        assertThat(problems.json().get("errors").properties()).extracting(Map.Entry::getKey)
                .contains("roles/bad-role.yaml:1", "roles/bad-role.yaml:2");

        Reply pruned = http().post("/api/v1/config/apply?prune=true", ADMIN, json(Map.of("files", Map.of())));
        assertThat(pruned.status()).as(pruned.body()).isEqualTo(200);
        http().get("/api/v1/roles/cc-role", ADMIN).assertRefused(404, "role_not_found");
        assertThat(film(secret)).isEqualTo(401);
    }
}
