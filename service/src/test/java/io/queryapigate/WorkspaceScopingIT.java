package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static io.queryapigate.testing.TestingConfig.duckdbConnection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An attack on workspace isolation, on SQLite and on PostgreSQL: team-a's connection, saved query, key, collection,
 * descriptions, history, cache entry and deleted connection exist; callers of team-b (the break-glass key through
 * {@code /w/team-b/...} and a team-b API key) try every operation of the management API's document and the runtime
 * routes ({@code /q}, {@code /execute_sql}, {@code /openapi.json}, {@code /catalog}) naming team-a's objects. Every
 * answer that names one is 404, the same body code as for a name nobody has; every list leaves team-a's out; and at
 * the end team-a's objects are as they were. An operation the document adds that this test does not know fails it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WorkspaceScopingIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_scoping");
    private static final DropwizardAppExtension<GatewayConfiguration> SQLITE = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "", "0s").toString());
    private static final DropwizardAppExtension<GatewayConfiguration> POSTGRES = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "store:\n  url: "
                    + PG.url() + "\n  user: " + PG.user() + "\n  password: " + PG.password() + "\n", "1s")
                    .toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final String MISSING = "zz_missing";
    /** What of team-a's must never appear in a team-b answer. */
    private static final List<String> TEAM_A = List.of("a_q", "a_conn", "a_key", "a_coll", "a_gone", "secret-a",
            "team a table", "a_role", "wr_0a0a0a0a0a0a");
    private static final Pattern PARAM = Pattern.compile("\\{(\\w+)}");
    /** Team-a's write request (an AI agent's, written to the store as the agent-writes service writes one). */
    private static final String A_WRITE = "wr_0a0a0a0a0a0a";
    /**
     * Management operations that are the server's or one workspace's own, tested elsewhere (WorkspacesIT,
     * AdministratorsIT); {@code /api/v1/workspaces} and {@code /api/v1/administrators} are the server's too.
     */
    private static final Set<String> NOT_SCOPED = Set.of("GET /api/v1/me", "GET /api/v1/settings",
            "POST /api/v1/settings/rekey", "GET /api/v1/examples", "POST /api/v1/examples",
            "DELETE /api/v1/examples", "POST /api/v1/config/diff", "POST /api/v1/config/apply");

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Http http(String store) {
        return new Http("http://127.0.0.1:" + (store.equals("sqlite") ? SQLITE : POSTGRES).getLocalPort());
    }

    /** Team-a's objects and team-b's, made once per store. */
    private record Teams(String aKey, String bKey, String cacheKey, String memberToken) {}

    private static final Map<String, Teams> MADE = new LinkedHashMap<>();

    private static synchronized Teams teams(Http http, String store) throws IOException {
        Teams made = MADE.get(store);
        if (made != null) {
            return made;
        }
        for (String team : List.of("team-a", "team-b")) {
            created(http.post("/api/v1/workspaces", ADMIN, Http.json(Map.of("name", team))));
        }
        created(http.post("/w/team-a/api/v1/connections", ADMIN, Http.json(duckdbConnection("a_conn", "secret-a"))));
        created(http.post("/w/team-a/api/v1/connections", ADMIN, Http.json(duckdbConnection("a_gone", "secret-a"))));
        assertThat(http.request("DELETE", "/w/team-a/api/v1/connections/a_gone", ADMIN, "{\"reason\": \"old\"}")
                .status()).isEqualTo(204);
        created(http.post("/w/team-a/api/v1/queries", ADMIN, Http.json(Map.of("name", "a_q", "sql",
                "SELECT v FROM t", "connection_name", "a_conn", "publish", true, "cache_ttl", 600,
                "collection", "a_coll"))));
        created(http.post("/w/team-a/api/v1/roles", ADMIN, Http.json(Map.of("name", "a_role", "queries",
                List.of("a_q"), "description", "team a role"))));
        Reply aKey = http.post("/w/team-a/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "a_key", "queries",
                "*", "connections", "*", "adhoc_sql", true)));
        created(aKey);
        Reply described = http.patch("/w/team-a/api/v1/connections/a_conn/descriptions", ADMIN,
                Http.json(Map.of("items", List.of(Map.of("table", "t", "description", "team a table")))));
        assertThat(described.status()).as(described.body()).isEqualTo(200);

        created(http.post("/w/team-b/api/v1/connections", ADMIN, Http.json(duckdbConnection("b_conn", "secret-b"))));
        created(http.post("/w/team-b/api/v1/queries", ADMIN, Http.json(Map.of("name", "b_q", "sql",
                "SELECT v FROM t", "connection_name", "b_conn", "publish", true, "collection", "b_coll"))));
        Reply bKey = http.post("/w/team-b/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "b_key", "queries",
                "*", "connections", "*", "adhoc_sql", true)));
        created(bKey);

        Jdbi jdbi = store.equals("sqlite")
                ? Jdbi.create("jdbc:sqlite:" + SQLITE.getConfiguration().getHome() + "/queryapigate.db")
                : Jdbi.create(PG.url(), PG.user(), PG.password());
        jdbi.useHandle(h -> h.execute("INSERT INTO write_requests (id, workspace, caller_key_id, caller, query_id,"
                + " query_name, version, connection_name, mode, sql_text, arguments, arguments_hash,"
                + " max_affected_rows, status, created_at, expires_at) VALUES (?, 'team-a', 1, 'a_key', 1, 'a_q', 1,"
                + " 'a_conn', 'approval', 'SELECT v FROM t', '{}', ?, 1, 'pending', ?, ?)", A_WRITE, "0".repeat(64),
                System.currentTimeMillis(), System.currentTimeMillis() + 3_600_000));
        assertThat(http.get("/w/team-a/api/v1/write-requests/" + A_WRITE, ADMIN).status())
                .as("team-a's write request (the positive control)").isEqualTo(200);

        String a = aKey.json().get("secret").asText();
        Reply ran = http.get("/q/a_q", a);
        assertThat(ran.status()).as(ran.body()).isEqualTo(200);
        assertThat(ran.body()).contains("secret-a");
        JsonNode entries = http.get("/w/team-a/api/v1/cache/entries", ADMIN).json().get("items");
        assertThat(entries).as("team-a's cached answer (the positive control)").hasSize(1);
        // a named administrator whose only role is owner of team-b, with a personal token
        created(http.post("/api/v1/administrators", ADMIN, "{\"name\": \"tb-owner\", \"role\": null}"));
        assertThat(http.request("PUT", "/api/v1/workspaces/team-b/members/tb-owner", ADMIN,
                "{\"role\": \"owner\"}").status()).isEqualTo(200);
        Reply token = http.post("/api/v1/administrators/tb-owner/tokens", ADMIN, "{}");
        created(token);
        made = new Teams(a, bKey.json().get("secret").asText(), entries.get(0).get("key").asText(),
                token.json().get("secret").asText());
        MADE.put(store, made);
        return made;
    }

    private static void created(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    /** Every operation of the management API's document, as {@code "METHOD /path"}. */
    private static List<String> operations() throws IOException {
        try (InputStream in = WorkspaceScopingIT.class.getResourceAsStream(
                "/io/queryapigate/openapi/management-api.yaml")) {
            JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(in);
            List<String> out = new ArrayList<>();
            for (Iterator<String> it = doc.get("operations").fieldNames(); it.hasNext(); ) {
                out.add(it.next());
            }
            return out;
        }
    }

    /** The object each path parameter names: team-a's, or {@code missing} for the comparison. */
    private static String fill(String path, Teams teams, boolean missing) {
        Matcher m = PARAM.matcher(path);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value;
            if (m.group(1).equals("version")) {
                value = "1";
            } else if (missing) {
                value = MISSING;
            } else if (path.startsWith("/api/v1/queries/")) {
                value = "a_q";
            } else if (path.startsWith("/api/v1/connections/{name}/restore")) {
                value = "a_gone";
            } else if (path.startsWith("/api/v1/connections/")) {
                value = "a_conn";
            } else if (path.startsWith("/api/v1/api-keys/")) {
                value = "a_key";
            } else if (path.startsWith("/api/v1/roles/")) {
                value = "a_role";
            } else if (path.startsWith("/api/v1/collections/")) {
                value = "a_coll";
            } else if (path.startsWith("/api/v1/write-requests/")) {
                value = A_WRITE;
            } else if (path.startsWith("/api/v1/cache/entries/")) {
                value = teams.cacheKey();
            } else {
                throw new AssertionError("no team-a object for " + m.group() + " in " + path);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A body the operation accepts, so that only the named object can make it fail. */
    private static String body(String operation) {
        return switch (operation) {
            case "PATCH /api/v1/queries/{name}" -> "{\"collection\": \"b_coll\"}";
            case "POST /api/v1/queries/{name}/versions" -> "{\"sql\": \"SELECT v FROM t\"}";
            case "PATCH /api/v1/queries/{name}/versions/{version}" -> "{\"cache_ttl\": 5}";
            case "POST /api/v1/queries/{name}/publish" -> "{\"version\": 1}";
            case "PATCH /api/v1/api-keys/{name}" -> "{\"active\": false}";
            case "PATCH /api/v1/roles/{name}" -> "{\"description\": \"taken over\"}";
            case "PATCH /api/v1/connections/{name}" -> "{\"description\": \"taken over\"}";
            case "DELETE /api/v1/connections/{name}" -> "{\"reason\": \"taken over\"}";
            case "PATCH /api/v1/collections/{name}" -> "{\"name\": \"b_coll\"}";
            case "PATCH /api/v1/connections/{name}/descriptions" ->
                    "{\"items\": [{\"table\": \"t\", \"description\": \"taken over\"}]}";
            case "DELETE /api/v1/queries/{name}", "DELETE /api/v1/queries/{name}/versions/{version}",
                    "DELETE /api/v1/api-keys/{name}", "DELETE /api/v1/api-keys/{name}/previous",
                    "DELETE /api/v1/cache/entries/{key}", "POST /api/v1/queries/{name}/unpublish" -> null;
            default -> operation.startsWith("GET ") ? null : "{}";
        };
    }

    private static void assertNoTeamA(String what, String body, Teams teams) {
        for (String marker : TEAM_A) {
            assertThat(body).as(what + " must not show team-a's " + marker).doesNotContain(marker);
        }
        assertThat(body).as(what + " must not show team-a's cache entry").doesNotContain(teams.cacheKey());
    }

    private static boolean serverWide(String path) {
        return path.startsWith("/api/v1/workspaces") || path.startsWith("/api/v1/administrators")
                || !path.startsWith("/api/v1/"); // and the console's sign-in routes: no workspace's objects
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void theBreakGlassKeyInTeamBFindsNothingOfTeamA(String store) throws IOException {
        Http http = http(store);
        Teams teams = teams(http, store);
        tryEverything(http, teams, ADMIN, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void anOwnerOfTeamBFindsNothingOfTeamA(String store) throws IOException {
        Http http = http(store);
        Teams teams = teams(http, store);
        tryEverything(http, teams, teams.memberToken(), true);
        http.get("/w/team-a/api/v1/queries", teams.memberToken()).assertRefused(404, "workspace_not_found");
        http.get("/api/v1/queries", teams.memberToken()).assertRefused(403, "workspace_required");
        Reply workspaces = http.get("/api/v1/workspaces", teams.memberToken());
        assertThat(workspaces.body()).contains("team-b").doesNotContain("team-a");
        http.get("/api/v1/workspaces/team-a/members", teams.memberToken()).assertRefused(404, "workspace_not_found");
    }

    /**
     * Every operation through {@code /w/team-b/} with {@code secret}; a {@code member} (not server-wide) is refused
     * the server-only capabilities (403 {@code role_forbidden}) for team-a's object as for a missing one.
     */
    private static void tryEverything(Http http, Teams teams, String secret, boolean member) throws IOException {
        List<String> unknown = new ArrayList<>();
        int named = 0;
        for (String operation : operations()) {
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1);
            if (NOT_SCOPED.contains(operation) || serverWide(path)) {
                continue;
            }
            if (path.contains("{")) {
                named++;
                Reply theirs = http.request(method, "/w/team-b" + fill(path, teams, false), secret,
                        body(operation));
                Reply nobodys = http.request(method, "/w/team-b" + fill(path, teams, true), secret,
                        body(operation));
                if (operation.equals("DELETE /api/v1/cache/entries/{key}")) { // a no-op for a gone entry
                    assertThat(theirs.status()).isEqualTo(nobodys.status()).isEqualTo(204);
                    continue;
                }
                assertThat(theirs.status()).as(operation + ": the same status as for a name nobody has")
                        .isEqualTo(nobodys.status());
                assertThat(theirs.status()).as(operation + " naming team-a's object: " + theirs.body())
                        .isIn(member ? List.of(404, 403) : List.of(404));
                assertThat(theirs.json().get("code").asText()).as(operation + ": the same answer as for a name"
                        + " nobody has").isEqualTo(nobodys.json().get("code").asText());
                assertThat(theirs.json().get("error").asText().replace(fill(path, teams, false), "")
                        .replace("a_q", "").replace("a_conn", "").replace("a_key", "").replace("a_coll", "")
                        .replace("a_gone", "").replace("a_role", "").replace(A_WRITE, "")
                        .replace(teams.cacheKey(), ""))
                        .as(operation + ": the same message as for a name nobody has")
                        .isEqualTo(nobodys.json().get("error").asText().replace(MISSING, ""));
                continue;
            }
            if (method.equals("GET")) {
                Reply list = http.get("/w/team-b" + path, secret);
                assertThat(list.status()).as(operation + ": " + list.body()).isIn(member ? List.of(200, 403)
                        : List.of(200));
                if (operation.equals("GET /api/v1/history")) { // team-b's own refused calls name what they named
                    for (JsonNode run : list.json().get("items")) {
                        assertThat(run.get("query").asText()).as(operation).isNotEqualTo("a_q");
                        assertThat(run.get("key_name").asText()).as(operation).isNotEqualTo("a_key");
                        assertThat(run.get("status").asText() + run.get("connection_name").asText())
                                .as(operation).isNotEqualTo("successa_conn");
                    }
                    continue;
                }
                if (operation.equals("GET /api/v1/audit")) { // team-b's own changes name what they named
                    assertThat(list.json().get("items")).as(operation).isNotEmpty();
                    for (JsonNode entry : list.json().get("items")) {
                        assertThat(entry.get("workspace").asText()).as(operation).isEqualTo("team-b");
                        assertThat(TEAM_A).as(operation).doesNotContain(entry.get("target").asText());
                    }
                    continue;
                }
                assertNoTeamA(operation, list.body(), teams);
                continue;
            }
            switch (operation) {
                case "POST /api/v1/queries" -> {
                    // saved as a draft that cannot run, with the warning a connection nobody has gives
                    Reply draft = http.post("/w/team-b" + path, secret, Http.json(Map.of("name", "b_new", "sql",
                            "SELECT v FROM t", "connection_name", "a_conn")));
                    Reply nobodys = http.post("/w/team-b" + path, secret, Http.json(Map.of("name", "b_new2",
                            "sql", "SELECT v FROM t", "connection_name", MISSING)));
                    assertThat(draft.json().get("warnings").toString().replace("a_conn", ""))
                            .isEqualTo(nobodys.json().get("warnings").toString().replace(MISSING, ""));
                    http.post("/w/team-b/api/v1/queries/b_new/publish", secret, "{\"version\": 1}")
                            .assertRefused(400, "connection_not_found");
                    http.post("/w/team-b" + path, secret, Http.json(Map.of("name", "b_new3", "sql",
                            "SELECT v FROM t", "connection_name", "a_conn", "publish", true)))
                            .assertRefused(400, "connection_not_found");
                    http.delete("/w/team-b/api/v1/queries/b_new", secret);
                    http.delete("/w/team-b/api/v1/queries/b_new2", secret);
                }
                case "POST /api/v1/queries/validate" -> {
                    Reply v = http.post("/w/team-b" + path, secret, Http.json(Map.of("sql", "SELECT v FROM t",
                            "connection_name", "a_conn")));
                    Reply nobodys = http.post("/w/team-b" + path, secret, Http.json(Map.of("sql",
                            "SELECT v FROM t", "connection_name", MISSING)));
                    assertThat(v.json().get("valid").asBoolean()).as(operation).isFalse();
                    assertThat(v.body().replace("a_conn", "")).as(operation)
                            .isEqualTo(nobodys.body().replace(MISSING, ""));
                }
                case "POST /api/v1/queries/preview" -> {
                    Reply run = http.post("/w/team-b" + path, secret, Http.json(Map.of("sql", "SELECT v FROM t",
                            "connection_name", "a_conn")));
                    Reply nobodys = http.post("/w/team-b" + path, secret, Http.json(Map.of("sql",
                            "SELECT v FROM t", "connection_name", MISSING)));
                    assertThat(run.status()).as(operation + ": " + run.body()).isIn(403, 404);
                    assertThat(run.json().get("code").asText()).as(operation)
                            .isEqualTo(nobodys.json().get("code").asText());
                    assertThat(run.json().get("error").asText().replace("a_conn", "")).as(operation)
                            .isEqualTo(nobodys.json().get("error").asText().replace(MISSING, ""));
                }
                case "POST /api/v1/api-keys" -> {
                    http.post("/w/team-b" + path, secret, Http.json(Map.of("name", "b_new", "connections",
                            List.of("a_conn")))).assertRefused(400, "invalid_body");
                    Reply taken = http.post("/w/team-b" + path, secret, Http.json(Map.of("name", "a_key")));
                    taken.assertRefused(409, "key_exists");
                    assertNoTeamA("a taken name", taken.body().replace("a_key", ""), teams);
                }
                case "POST /api/v1/roles" -> {
                    Reply taken = http.post("/w/team-b" + path, secret, "{\"name\": \"a_role\"}");
                    assertThat(taken.status()).as(taken.body()).isEqualTo(409);
                    assertThat(taken.body()).doesNotContain("team-a");
                }
                case "POST /api/v1/connections" -> {
                    Reply taken = http.post("/w/team-b" + path, secret, Http.json(duckdbConnection("a_conn", "x")));
                    taken.assertRefused(409, "connection_exists");
                    assertThat(taken.body()).doesNotContain("team-a");
                }
                case "POST /api/v1/connections/test", "POST /api/v1/connections/databases" ->
                        http.post("/w/team-b" + path, secret, "{\"name\": \"a_conn\"}")
                                .assertRefused(404, "connection_not_found");
                case "DELETE /api/v1/history" -> {
                    if (member) { // history.forget is server-only
                        http.request("DELETE", "/w/team-b" + path + "?caller=a_key&dry_run=true", secret, null)
                                .assertRefused(403, "role_forbidden");
                        continue;
                    }
                    Reply counted = http.request("DELETE", "/w/team-b" + path + "?caller=a_key&dry_run=true",
                            secret, null);
                    assertThat(counted.status()).as(counted.body()).isEqualTo(200);
                    assertThat(counted.json().get("runs").asLong() + counted.json().get("events").asLong())
                            .as("team-a's key's runs, counted from team-b").isZero();
                    assertThat(http.request("DELETE", "/w/team-a" + path + "?caller=a_key&dry_run=true", ADMIN,
                            null).json().get("events").asLong()).as("the positive control").isPositive();
                }
                case "DELETE /api/v1/cache/entries" -> {
                    assertThat(http.request("DELETE", "/w/team-b" + path, secret, null).status()).isEqualTo(204);
                    assertThat(http.get("/w/team-a/api/v1/cache/entries", ADMIN).body())
                            .as("team-b's clearing leaves team-a's entry").contains(teams.cacheKey());
                }
                default -> unknown.add(operation);
            }
        }
        assertThat(unknown).as("operations this test does not know: say what team-b tries with each").isEmpty();
        assertThat(named).as("operations naming an object").isGreaterThan(20);

        // filters naming team-a's objects find nothing
        for (String filtered : List.of("/api/v1/history?query=a_q", "/api/v1/history?key=a_key",
                "/api/v1/queries?connection=a_conn", "/api/v1/queries?collection=a_coll",
                "/api/v1/queries/b_q/history?key=a_key")) {
            Reply r = http.get("/w/team-b" + filtered, secret);
            assertThat(r.status()).as(filtered + ": " + r.body()).isEqualTo(200);
            assertThat(r.json().get("items")).as(filtered).isEmpty();
        }
        http.get("/w/team-b/api/v1/connections/b_conn/schema?key=a_key", secret)
                .assertRefused(404, "key_not_found");
        http.get("/w/team-b/api/v1/mcp/tools?key=a_key", secret).assertRefused(404, "key_not_found");
        // the lists through team-a's prefix do show them: the test can fail
        assertThat(http.get("/w/team-a/api/v1/queries", ADMIN).body()).contains("a_q");
        assertThat(http.get("/w/team-a/api/v1/history", ADMIN).body()).contains("a_q");
        assertThat(http.get("/w/team-a/api/v1/connections/deleted", ADMIN).body()).contains("a_gone");

        // the runtime routes
        http.get("/w/team-b/q/a_q", secret).assertRefused(404, "query_not_found");
        http.get("/w/team-b/q/" + MISSING, secret).assertRefused(404, "query_not_found");
        http.get("/w/team-b/q/b_q?connection_name=a_conn", secret).assertRefused(404, "connection_not_found");
        http.sql(ADMIN, "a_conn", "SELECT v FROM t").assertRefused(404, "connection_not_found");
        Reply ownRun = http.post("/w/team-a/execute_sql", ADMIN, Http.json(Map.of("sql", "SELECT v FROM t",
                "connection_name", "a_conn")));
        assertThat(ownRun.body()).as("the break-glass key in team-a runs SQL there").contains("secret-a");
        http.post("/w/team-b/execute_sql", secret, Http.json(Map.of("sql", "SELECT v FROM t", "connection_name",
                "a_conn"))).assertRefused(404, "connection_not_found");
        assertTeamAIntact(http, teams);
    }

    /** One MCP request, as JSON-RPC over the Streamable HTTP transport. */
    private static Reply mcp(Http http, String path, String key, String method, String params) {
        return http.request("POST", path, key, "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"" + method
                + "\", \"params\": " + params + "}", "Accept", "application/json, text/event-stream");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void aTeamBKeyFindsNothingOfTeamA(String store) throws IOException {
        Http http = http(store);
        Teams teams = teams(http, store);
        String b = teams.bKey();
        http.get("/q/a_q", b).assertRefused(404, "query_not_found");
        http.get("/q/" + MISSING, b).assertRefused(404, "query_not_found");
        http.post("/q/a_q", b, "{}").assertRefused(404, "query_not_found");
        http.get("/q/a_q?version=1", b).assertRefused(404, "query_not_found");
        http.get("/q/b_q?connection_name=a_conn", b).assertRefused(404, "connection_not_found");
        http.sql(b, "a_conn", "SELECT v FROM t").assertRefused(404, "connection_not_found");
        http.sql(b, MISSING, "SELECT v FROM t").assertRefused(404, "connection_not_found");
        http.sql(b, "demo", "SELECT 1").assertRefused(404, "connection_not_found");
        Reply own = http.get("/q/b_q", b);
        assertThat(own.status()).as(own.body()).isEqualTo(200);
        assertThat(own.body()).contains("secret-b");
        assertThat(http.get("/w/team-b/q/b_q", b).status()).as("its own workspace named").isEqualTo(200);
        for (String other : List.of("team-a", "default", "no-such-team")) {
            Reply r = http.get("/w/" + other + "/q/b_q", b);
            r.assertRefused(404, "workspace_not_found");
            assertThat(r.json().get("error").asText().replace(other, ""))
                    .as("the same answer for a workspace that exists and one that does not")
                    .isEqualTo("No workspace named ''.");
        }
        for (String doc : List.of("/openapi.json", "/catalog")) {
            Reply r = http.get(doc, b);
            assertThat(r.status()).as(doc + ": " + r.body()).isEqualTo(200);
            assertThat(r.body()).as(doc).contains("b_q");
            assertNoTeamA(doc, r.body(), teams);
        }
        assertThat(http.get("/openapi.json", teams.aKey()).body()).as("the positive control").contains("a_q");
        // the MCP server: the key's own workspace's tools only, another workspace's path refused
        Reply tools = mcp(http, "/mcp", b, "tools/list", "{}");
        assertThat(tools.status()).as(tools.body()).isEqualTo(200);
        assertThat(tools.body()).contains("b_q");
        assertNoTeamA("MCP tools/list", tools.body(), teams);
        Reply called = mcp(http, "/mcp", b, "tools/call", "{\"name\": \"a_q\", \"arguments\": {}}");
        assertThat(called.json().get("result").get("structuredContent").get("code").asText())
                .isEqualTo("query_not_found");
        mcp(http, "/w/team-a/mcp", b, "tools/list", "{}").assertRefused(404, "workspace_not_found");
        assertThat(mcp(http, "/mcp", teams.aKey(), "tools/list", "{}").body()).as("the positive control")
                .contains("a_q");
        // the management API is not a key's, whatever it names
        for (String operation : operations()) {
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1);
            if (path.startsWith("/api/v1/me") || !path.startsWith("/api/v1/")) {
                continue;
            }
            Reply r = http.request(method, serverWide(path) ? PARAM.matcher(path).replaceAll("x")
                    : fill(path, teams, false), b, body(operation));
            assertThat(r.status()).as(operation + ": " + r.body()).isEqualTo(403);
            assertNoTeamA(operation, r.body(), teams);
        }
        assertTeamAIntact(http, teams);
    }

    /** Team-a's objects are as team-a made them, and its key still runs its query. */
    private static void assertTeamAIntact(Http http, Teams teams) {
        JsonNode q = http.get("/w/team-a/api/v1/queries/a_q", ADMIN).json();
        assertThat(q.get("name").asText()).isEqualTo("a_q");
        assertThat(q.get("collection").asText()).isEqualTo("a_coll");
        assertThat(q.get("versions")).hasSize(1);
        assertThat(http.get("/w/team-a/api/v1/api-keys/a_key", ADMIN).json().get("active").asBoolean()).isTrue();
        assertThat(http.get("/w/team-a/api/v1/roles/a_role", ADMIN).json().get("description").asText())
                .isEqualTo("team a role");
        assertThat(http.get("/w/team-a/api/v1/connections/a_conn", ADMIN).json().path("description").isNull())
                .isTrue();
        assertThat(http.get("/w/team-a/api/v1/connections/a_conn/descriptions", ADMIN).body())
                .contains("team a table");
        assertThat(http.get("/w/team-a/api/v1/cache/entries/" + teams.cacheKey(), ADMIN).status()).isEqualTo(200);
        assertThat(http.get("/q/a_q", teams.aKey()).body()).contains("secret-a");
    }
}
