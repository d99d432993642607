package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Configuration as code over {@code /api/v1/config} on a real server with a SQLite store: every problem of a
 * directory at its file and line with nothing applied, all or nothing when the store refuses a change midway,
 * objects a directory owns refused through the API (409 naming the file), and pruning what it no longer declares;
 * connections declared by reference, in service only once their apply committed.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConfigCodeIT {
    /** Where the connections' {@code ${file:...}} password references point. */
    private static final Path SECRETS = secretsDirectory();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "secrets:\n  fileDirectories: [\"" + SECRETS + "\"]\n").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static Path secretsDirectory() {
        try {
            return Files.createTempDirectory("qag-config-secrets-").toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A DuckDB connection in memory whose table {@code t} holds one row, {@code v = value}. */
    private static String connection(String name, String value, String password) throws IOException {
        Path script = Files.createTempFile("qag-config-conn-", ".sql");
        Files.writeString(script, "CREATE TABLE t AS SELECT '" + value + "' AS v;\n");
        return "name: " + name + "\ndialect: duckdb\nurl: ':memory:'\n"
                + (password == null ? "" : "password: '" + password + "'\n")
                + "pool_size: 2\nproperties:\n  duckdb.init_script: " + script + "\n  duckdb.read_only: 'false'\n"
                + "description: Declared in a directory\n";
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static String files(Map<String, String> files) {
        return Http.json(Map.of("files", files));
    }

    private static String query(String name, String sql) {
        return "name: " + name + "\nconnection_name: demo\nsql: " + sql + "\n";
    }

    private static String key(String name, String secret, String grants) {
        return "name: " + name + "\nsecret_sha256: " + KeyHasher.hashHex(secret) + "\n" + grants;
    }

    private static List<String> names(JsonNode items) {
        List<String> out = new ArrayList<>();
        items.forEach(i -> out.add(i.get("kind").asText() + "/" + i.get("name").asText()));
        return out;
    }

    @Test
    void everyProblemIsReportedAtItsFileAndLineAndNothingIsApplied() {
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("queries/fine.yaml", query("fine", "SELECT 1 AS one"));
        dir.put("queries/nowhere.yaml", "name: nowhere\ndescription: on a connection that does not exist\n"
                + "connection_name: missing\nsql: SELECT 1\n");
        dir.put("queries/renamed.yaml", "name: other\nconnection_name: demo\nsql: SELECT 1\n");
        dir.put("queries/unparsed.yaml", "name: unparsed\nsql: [SELECT\n");
        dir.put("queries/markers.yaml", "name: markers\nconnection_name: demo\nparameters:\n  id: int\n"
                + "sql: SELECT :id AS id, :other AS other\n");
        dir.put("api_keys/careless.yaml", "name: careless\nsecret_sha256: qag_the-secret-itself\nqueries: [fine]\n"
                + "max_rows: 0\ncolour: red\nconnections: [nowhere]\n");
        dir.put("api_keys/unhashed.yaml", "name: unhashed\nqueries: [fine]\n");
        dir.put("notes.yaml", "a: 1\n");

        Reply r = http().post("/api/v1/config/apply", ADMIN, files(dir));
        r.assertRefused(400, "invalid_config");
        JsonNode errors = r.json().get("errors");
        assertThat(errors.get("queries/nowhere.yaml:3").asText()).contains("No connection named 'missing'");
        assertThat(errors.get("queries/renamed.yaml:1").asText()).contains("name must be the file's name (renamed)");
        assertThat(errors.get("queries/unparsed.yaml:2").asText()).startsWith("is not valid YAML");
        assertThat(errors.get("queries/markers.yaml:5").asText()).as("an undeclared marker: the SQL line")
                .contains("other");
        assertThat(errors.get("api_keys/careless.yaml:2").asText()).contains("64 lowercase hex digits");
        assertThat(errors.get("api_keys/careless.yaml:4").asText()).startsWith("max_rows must be a whole number");
        assertThat(errors.get("api_keys/careless.yaml:5").asText()).isEqualTo("colour is not a known field of a key");
        assertThat(errors.get("api_keys/careless.yaml:6").asText()).contains("unknown connection 'nowhere'");
        assertThat(errors.get("notes.yaml:1").asText()).contains("queries/NAME.yaml");
        assertThat(r.json().get("problems")).hasSize(errors.size());
        assertThat(errors.has("queries/fine.yaml:1")).isFalse();

        // only once the file-level problems are gone is the store consulted: a new key without its secret's hash
        Map<String, String> second = Map.of("queries/fine.yaml", query("fine", "SELECT 1 AS one"),
                "api_keys/unhashed.yaml", "name: unhashed\nqueries: [fine]\n");
        Reply r2 = http().post("/api/v1/config/diff", ADMIN, files(second));
        r2.assertRefused(400, "invalid_config");
        assertThat(r2.json().get("errors").get("api_keys/unhashed.yaml:1").asText())
                .startsWith("a new key needs secret_sha256");

        assertThat(http().get("/api/v1/queries/fine", ADMIN).status()).as("nothing applied").isEqualTo(404);
        assertThat(names(http().get("/api/v1/config/managed", ADMIN).json().get("items")))
                .doesNotContain("queries/fine", "api_keys/unhashed");
    }

    @Test
    void aFailureMidwayLeavesTheStoreAsItWas() {
        // the store itself refuses one insert: a real trigger in the real SQLite store, after the queries went in
        Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db").useHandle(h ->
                h.execute("CREATE TRIGGER refuse_boom BEFORE INSERT ON api_keys WHEN NEW.name = 'zz-boom'"
                        + " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("queries/atomic-one.yaml", query("atomic-one", "SELECT 1 AS one"));
        dir.put("queries/atomic-two.yaml", query("atomic-two", "SELECT 2 AS two"));
        dir.put("api_keys/atomic-key.yaml", key("atomic-key", "qag_atomic", "queries: [atomic-one]\n"));
        dir.put("api_keys/zz-boom.yaml", key("zz-boom", "qag_boom", "queries: [atomic-two]\n"));

        Reply plan = http().post("/api/v1/config/diff", ADMIN, files(dir));
        assertThat(plan.status()).as(plan.body()).isEqualTo(200);
        assertThat(plan.json().get("summary").get("create").asInt()).isEqualTo(4);

        Reply r = http().post("/api/v1/config/apply", ADMIN, files(dir));
        r.assertRefused(500, "config_apply_failed");
        assertThat(r.json().get("error").asText()).contains("api_keys/zz-boom.yaml").contains("Nothing was changed")
                .doesNotContain("refused by the test");

        assertThat(http().get("/api/v1/queries/atomic-one", ADMIN).status()).as("created, then rolled back")
                .isEqualTo(404);
        assertThat(http().get("/api/v1/queries/atomic-two", ADMIN).status()).isEqualTo(404);
        assertThat(http().get("/api/v1/api-keys/atomic-key", ADMIN).status()).isEqualTo(404);
        assertThat(http().get("/q/atomic-one", "qag_atomic").status()).isEqualTo(401);
        assertThat(names(http().get("/api/v1/config/managed", ADMIN).json().get("items")))
                .noneMatch(n -> n.contains("atomic"));

        dir.remove("api_keys/zz-boom.yaml");
        Reply ok = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("applied").asBoolean()).isTrue();
        Reply call = http().get("/q/atomic-one", "qag_atomic");
        assertThat(call.status()).as(call.body()).isEqualTo(200);
        assertThat(call.json().get(0).get("one").asInt()).isEqualTo(1);
    }

    @Test
    void whatADirectoryOwnsIsRefusedThroughTheApiNamingItsFile() {
        Map<String, String> dir = Map.of("queries/owned.yaml", query("owned", "SELECT 1 AS one"),
                "api_keys/owned-key.yaml", key("owned-key", "qag_owned", "queries: [owned]\n"));
        Reply applied = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);

        Reply patch = http().patch("/api/v1/api-keys/owned-key", ADMIN, "{\"max_rows\": 5}");
        patch.assertRefused(409, "managed_by_file");
        assertThat(patch.json().get("file").asText()).isEqualTo("api_keys/owned-key.yaml");
        assertThat(patch.json().get("error").asText()).contains("api_keys/owned-key.yaml");
        http().post("/api/v1/api-keys/owned-key/rotate", ADMIN, "{}").assertRefused(409, "managed_by_file");
        http().delete("/api/v1/api-keys/owned-key", ADMIN).assertRefused(409, "managed_by_file");
        Reply version = http().post("/api/v1/queries/owned/versions", ADMIN,
                Http.json(Map.of("sql", "SELECT 2 AS two", "publish", true)));
        version.assertRefused(409, "managed_by_file");
        assertThat(version.json().get("file").asText()).isEqualTo("queries/owned.yaml");
        http().patch("/api/v1/queries/owned", ADMIN, "{\"collection\": \"elsewhere\"}")
                .assertRefused(409, "managed_by_file");
        http().post("/api/v1/queries/owned/unpublish", ADMIN, "{}").assertRefused(409, "managed_by_file");
        http().delete("/api/v1/queries/owned", ADMIN).assertRefused(409, "managed_by_file");

        assertThat(http().get("/q/owned", "qag_owned").json().get(0).get("one").asInt()).as("all still as declared")
                .isEqualTo(1);
        JsonNode managed = http().get("/api/v1/config/managed", ADMIN).json();
        assertThat(managed.get("locked").asBoolean()).isTrue();
        assertThat(names(managed.get("items"))).contains("api_keys/owned-key", "queries/owned");
        Reply again = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(again.json().get("applied").asBoolean()).as("nothing to do the second time").isFalse();
        assertThat(again.json().get("changes")).isEmpty();
        assertThat(http().patch("/api/v1/api-keys/unowned", ADMIN, "{}").status()).as("others as before")
                .isEqualTo(404);
    }

    @Test
    void aNewSecretIsARotationAndAMoveIsNoNewVersion() {
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("queries/moving.yaml", query("moving", "SELECT 1 AS one") + "collection: before\n");
        dir.put("api_keys/rotating.yaml", key("rotating", "qag_first", "queries: [moving]\n"));
        assertThat(http().post("/api/v1/config/apply", ADMIN, files(dir)).status()).isEqualTo(200);

        dir.put("queries/moving.yaml", query("moving", "SELECT 1 AS one") + "collection: after\n");
        dir.put("api_keys/rotating.yaml", key("rotating", "qag_second", "queries: [moving]\n"));
        Reply r = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode changes = r.json().get("changes");
        assertThat(changes.get(0).get("fields").fieldNames()).toIterable().containsExactly("collection");
        assertThat(changes.get(0).get("notes").get(0).asText()).isEqualTo("moved to another collection");
        assertThat(changes.get(1).get("fields").get("secret_sha256").get("to").asText())
                .isEqualTo(KeyHasher.hashHex("qag_second"));

        JsonNode detail = http().get("/api/v1/queries/moving", ADMIN).json();
        assertThat(detail.get("collection").asText()).isEqualTo("after");
        assertThat(detail.get("versions")).as("moving is no new version").hasSize(1);
        assertThat(http().get("/q/moving", "qag_second").status()).as("the new secret works").isEqualTo(200);
        assertThat(http().get("/q/moving", "qag_first").status()).as("the old one for its grace period")
                .isEqualTo(200);
        assertThat(http().get("/api/v1/api-keys/rotating", ADMIN).json().get("previous_expires_at").isTextual())
                .isTrue();
    }

    @Test
    void aConnectionsDescriptionsAreDeclaredOwnedAndPruned() {
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("descriptions/demo.yaml", "name: demo\nitems:\n- table: film\n  description: Every film we rent\n"
                + "- table: film\n  column: title\n  description: The title, in capitals\n"
                + "- table: actor\n  description: People in films\n");
        Reply r = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode items = http().get("/api/v1/connections/demo/descriptions", ADMIN).json().get("items");
        List<String> described = new ArrayList<>();
        items.forEach(i -> described.add(i.get("table").asText() + "." + i.get("column").asText() + "="
                + i.get("description").asText()));
        assertThat(described).contains("film.null=Every film we rent", "film.title=The title, in capitals",
                "actor.null=People in films");

        Reply patch = http().patch("/api/v1/connections/demo/descriptions", ADMIN,
                "{\"items\": [{\"table\": \"film\", \"description\": \"changed by hand\"}]}");
        patch.assertRefused(409, "managed_by_file");
        assertThat(patch.json().get("file").asText()).isEqualTo("descriptions/demo.yaml");

        dir.put("descriptions/demo.yaml", "name: demo\nitems:\n- table: film\n  description: Every film we rent\n"
                + "- table: film\n  column: title\n  description: The title\n");
        JsonNode kept = http().post("/api/v1/config/apply", ADMIN, files(dir)).json();
        assertThat(kept.get("changes").get(0).get("fields").fieldNames()).toIterable().containsExactly("film.title");
        assertThat(kept.get("changes").get(0).get("notes").get(0).asText()).contains("--prune removes them");
        JsonNode pruned = http().post("/api/v1/config/apply?prune=true", ADMIN, files(dir)).json();
        JsonNode demo = null;
        for (JsonNode c : pruned.get("changes")) {
            demo = c.get("kind").asText().equals("descriptions") ? c : demo;
        }
        assertThat(demo).as(pruned.toString()).isNotNull();
        assertThat(demo.get("fields").get("actor").get("to").isNull()).isTrue();
        assertThat(http().get("/api/v1/connections/demo/descriptions", ADMIN).json().get("items").toString())
                .doesNotContain("People in films").contains("The title");

        Reply unknown = http().post("/api/v1/config/diff", ADMIN, files(Map.of("descriptions/nowhere.yaml",
                "name: nowhere\nitems:\n- table: t\n  description: d\n")));
        unknown.assertRefused(400, "invalid_config");
        assertThat(unknown.json().get("errors").get("descriptions/nowhere.yaml:1").asText())
                .contains("No connection named 'nowhere'");
    }

    @Test
    void pruneDeletesOnlyWhatADirectoryOwnedAndNoLongerDeclares() {
        http().saveQuery(ADMIN, "prune-loose", "SELECT 3 AS three", Map.of(), true, null, Map.of());
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("queries/prune-kept.yaml", query("prune-kept", "SELECT 1 AS one"));
        dir.put("queries/prune-gone.yaml", query("prune-gone", "SELECT 2 AS two"));
        dir.put("api_keys/prune-key.yaml", key("prune-key", "qag_prune", "queries: [prune-gone]\n"));
        assertThat(http().post("/api/v1/config/apply", ADMIN, files(dir)).status()).isEqualTo(200);

        dir.remove("queries/prune-gone.yaml");
        dir.remove("api_keys/prune-key.yaml");
        // what other directories applied on this server own is pruned too: the store has one set of owned objects
        List<String> ownedElsewhere = names(http().get("/api/v1/config/managed", ADMIN).json().get("items"));
        ownedElsewhere.removeAll(List.of("queries/prune-kept", "queries/prune-gone", "api_keys/prune-key"));
        Reply without = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(without.json().get("changes")).as(without.body()).isEmpty();
        assertThat(names(without.json().get("not_in_directory")))
                .contains("queries/prune-gone", "api_keys/prune-key", "queries/prune-loose");
        without.json().get("not_in_directory").forEach(r -> assertThat(r.get("file").isNull())
                .as("a file only for what a directory owned: %s", r)
                .isEqualTo(r.get("name").asText().equals("prune-loose")));
        assertThat(http().get("/api/v1/queries/prune-gone", ADMIN).status()).as("left alone without prune")
                .isEqualTo(200);

        Reply pruned = http().post("/api/v1/config/apply?prune=true", ADMIN, files(dir));
        assertThat(pruned.status()).as(pruned.body()).isEqualTo(200);
        List<String> deleted = new ArrayList<>();
        pruned.json().get("changes").forEach(c -> {
            assertThat(c.get("action").asText()).isEqualTo("delete");
            deleted.add(c.get("kind").asText() + "/" + c.get("name").asText());
        });
        List<String> expected = new ArrayList<>(ownedElsewhere);
        expected.addAll(List.of("api_keys/prune-key", "queries/prune-gone"));
        assertThat(deleted).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(http().get("/api/v1/queries/prune-gone", ADMIN).status()).isEqualTo(404);
        assertThat(http().get("/q/prune-kept", "qag_prune").status()).as("its key is gone too").isEqualTo(401);
        assertThat(http().get("/api/v1/queries/prune-loose", ADMIN).status())
                .as("never owned by a directory: not pruned").isEqualTo(200);
        assertThat(names(http().get("/api/v1/config/managed", ADMIN).json().get("items")))
                .contains("queries/prune-kept").doesNotContain("queries/prune-gone", "api_keys/prune-key");

        dir.put("api_keys/prune-key.yaml", key("prune-key", "qag_prune", "queries: [prune-kept]\n"));
        Reply revived = http().post("/api/v1/config/apply", ADMIN, files(dir));
        revived.assertRefused(400, "invalid_config");
        assertThat(revived.json().get("errors").get("api_keys/prune-key.yaml:2").asText())
                .contains("secret of a deleted key");
    }

    @Test
    void aConnectionIsDeclaredByReferenceAndInServiceOnlyOnceItsApplyCommitted() throws Exception {
        Path secret = SECRETS.resolve("cc-password");
        Files.writeString(secret, "pw-cc-4f1e\n");
        String reference = "${file:" + secret + "}";

        Map<String, String> wrong = new LinkedHashMap<>();
        wrong.put("connections/cc-literal.yaml", connection("cc-literal", "x", "hunter2"));
        wrong.put("connections/cc-masked.yaml", connection("cc-masked", "x", "********"));
        wrong.put("connections/demo.yaml", connection("demo", "x", null));
        wrong.put("connections/cc-nowhere.yaml", connection("cc-nowhere", "x", "${file:" + SECRETS + "/none}"));
        Reply refused = http().post("/api/v1/config/diff", ADMIN, files(wrong));
        refused.assertRefused(400, "invalid_config");
        JsonNode errors = refused.json().get("errors");
        assertThat(errors.get("connections/cc-literal.yaml:4").asText()).as(refused.body())
                .contains("never holds one - use a reference").doesNotContain("hunter2");
        assertThat(errors.get("connections/cc-masked.yaml:4").asText()).contains("no password is stored to keep");
        assertThat(errors.get("connections/demo.yaml:1").asText()).contains("managed_by: config");
        assertThat(errors.get("connections/cc-nowhere.yaml:4").asText()).contains("could not be resolved");

        // the connection, a query on it and a key: the store refuses the key, last, so nothing stays
        Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db").useHandle(h ->
                h.execute("CREATE TRIGGER refuse_cc_boom BEFORE INSERT ON api_keys WHEN NEW.name = 'zz-cc-boom'"
                        + " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
        // a PostgreSQL pool shows while open: its Hikari threads are named after the connection
        TestingPostgres.Database pg = TestingPostgres.server();
        Path pgSecret = SECRETS.resolve("cc-pg-password");
        Files.writeString(pgSecret, pg.password());
        String pgConnection = "name: cc-pg\ndialect: postgres\nurl: '" + pg.url() + "'\nuser: " + pg.user()
                + "\npassword: '${file:" + pgSecret + "}'\npool_size: 1\n";
        Map<String, String> dir = new LinkedHashMap<>();
        dir.put("connections/cc-pg.yaml", pgConnection);
        dir.put("connections/cc-sales.yaml", connection("cc-sales", "first", reference));
        dir.put("queries/cc-sales-v.yaml", "name: cc-sales-v\nconnection_name: cc-sales\nsql: SELECT v FROM t\n");
        dir.put("api_keys/zz-cc-boom.yaml", key("zz-cc-boom", "qag_cc_boom", "queries: [cc-sales-v]\n"));
        Reply plan = http().post("/api/v1/config/diff", ADMIN, files(dir));
        assertThat(plan.status()).as(plan.body()).isEqualTo(200);
        assertThat(names(plan.json().get("changes"))).containsExactly("connections/cc-pg",
                "connections/cc-sales", "queries/cc-sales-v", "api_keys/zz-cc-boom");
        assertThat(http().get("/api/v1/connections/cc-sales", ADMIN).status()).as("a diff stores nothing")
                .isEqualTo(404);
        assertThat(poolThreadsGone("cc-pg")).as("a diff closes what it opened").isTrue();

        Reply failed = http().post("/api/v1/config/apply", ADMIN, files(dir));
        failed.assertRefused(500, "config_apply_failed");
        assertThat(http().get("/api/v1/connections/cc-sales", ADMIN).status()).as("no row").isEqualTo(404);
        assertThat(http().get("/api/v1/connections/cc-sales/schema", ADMIN).status()).as("no pool in service")
                .isEqualTo(404);
        assertThat(http().sql(ADMIN, "cc-sales", "SELECT v FROM t").status()).isEqualTo(404);
        assertThat(poolThreadsGone("cc-pg")).as("no pool left open").isTrue();

        dir.remove("api_keys/zz-cc-boom.yaml");
        Reply ok = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        Reply call = http().get("/q/cc-sales-v", ADMIN);
        assertThat(call.status()).as("callable at once: " + call.body()).isEqualTo(200);
        assertThat(call.json().get(0).get("v").asText()).isEqualTo("first");
        JsonNode stored = http().get("/api/v1/connections/cc-sales", ADMIN).json();
        assertThat(stored.get("managed_by").asText()).isEqualTo("file:connections/cc-sales.yaml");
        assertThat(stored.get("password").asText()).as("a reference is answered as written").isEqualTo(reference);
        assertThat(stored.get("description").asText()).isEqualTo("Declared in a directory");
        assertThat(http().sql(ADMIN, "cc-pg", "SELECT 1 AS one").status()).isEqualTo(200);
        assertThat(poolThreadsGone("cc-pg")).as("the check sees a pool in service").isFalse();

        Reply patch = http().patch("/api/v1/connections/cc-sales", ADMIN, "{\"pool_size\": 3}");
        patch.assertRefused(409, "managed_by_file");
        assertThat(patch.json().get("file").asText()).isEqualTo("connections/cc-sales.yaml");
        http().delete("/api/v1/connections/cc-sales?reason=test", ADMIN).assertRefused(409, "managed_by_file");

        // a change replaces the pool once committed; applying the same directory again changes nothing
        dir.put("connections/cc-sales.yaml", connection("cc-sales", "second", reference));
        Reply changed = http().post("/api/v1/config/apply", ADMIN, files(dir));
        assertThat(names(changed.json().get("changes"))).as(changed.body()).containsExactly("connections/cc-sales");
        assertThat(http().get("/q/cc-sales-v", ADMIN).json().get(0).get("v").asText()).isEqualTo("second");
        assertThat(http().post("/api/v1/config/apply", ADMIN, files(dir)).json().get("applied").asBoolean())
                .isFalse();

        // pruned only once no published query runs on it
        dir.remove("connections/cc-sales.yaml");
        Reply inUse = http().post("/api/v1/config/apply?prune=true", ADMIN, files(dir));
        inUse.assertRefused(400, "invalid_config");
        assertThat(inUse.json().get("errors").get("connections/cc-sales.yaml:1").asText()).contains("cc-sales-v");
        assertThat(http().get("/q/cc-sales-v", ADMIN).status()).isEqualTo(200);
        dir.remove("queries/cc-sales-v.yaml");
        dir.remove("connections/cc-pg.yaml");
        Reply pruned = http().post("/api/v1/config/apply?prune=true", ADMIN, files(dir));
        assertThat(pruned.status()).as(pruned.body()).isEqualTo(200);
        assertThat(http().get("/api/v1/connections/cc-sales", ADMIN).status()).isEqualTo(404);
        JsonNode deleted = http().get("/api/v1/connections/deleted", ADMIN).json().get("items");
        assertThat(deleted.findValuesAsText("reason"))
                .contains("pruned by configuration as code (connections/cc-sales.yaml)");
        assertThat(http().sql(ADMIN, "cc-sales", "SELECT v FROM t").status()).isEqualTo(404);
        assertThat(poolThreadsGone("cc-pg")).as("pruned too: its pool closed").isTrue();
    }

    /** Whether no thread of connection {@code name}'s PostgreSQL pool runs (waiting up to 5 s for a closing one). */
    private static boolean poolThreadsGone(String name) throws InterruptedException {
        String pool = "queryapigate-postgres-" + name; // its threads: "<pool> housekeeper", "<pool>:connection-adder"
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().startsWith(pool))) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
