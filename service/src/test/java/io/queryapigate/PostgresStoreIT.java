package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.cli.MigrateStoreCommand;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two gateway instances sharing one real PostgreSQL store. */
@ExtendWith(DropwizardExtensionsSupport.class)
class PostgresStoreIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_store");
    private static final String STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\n";
    /** Both instances trust what they read for 1 s: changes made on the other instance arrive within that. */
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE, "1s").toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE, "1s").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Http a() {
        return new Http("http://127.0.0.1:" + A.getLocalPort());
    }

    private static Http b() {
        return new Http("http://127.0.0.1:" + B.getLocalPort());
    }

    @Test
    void aKeyAndAQueryCreatedOnOneInstanceWorkOnTheOther() throws Exception {
        Reply q = a().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "shared", "sql",
                "SELECT :n * 2 AS doubled", "parameters", Map.of("n", "int"), "connection_name", "demo",
                "publish", true)));
        assertThat(q.status()).as(q.body()).isEqualTo(201);
        Reply k = a().post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "shared-key", "queries",
                List.of("shared"))));
        String secret = k.json().get("secret").asText();

        Reply onB = b().get("/q/shared?n=21", secret);
        assertThat(onB.status()).as(onB.body()).isEqualTo(200);
        assertThat(onB.json().get(0).get("doubled").asInt()).isEqualTo(42);

        a().post("/api/v1/queries/shared/versions", ADMIN, Http.json(Map.of("sql", "SELECT :n * 3 AS tripled",
                "parameters", Map.of("n", "int"), "publish", true)));
        assertThat(a().get("/q/shared?n=2", secret).json().get(0).has("tripled"))
                .as("the publishing instance serves the new version at once").isTrue();
        long published = System.nanoTime();
        while (!b().get("/q/shared?n=2", secret).json().get(0).has("tripled")) {
            assertThat(System.nanoTime() - published).as("B serves it within the 1 s TTL")
                    .isLessThan(3_000_000_000L);
            Thread.sleep(50);
        }
        assertThat(b().get("/q/shared?n=2", secret).json().get(0).get("tripled").asInt()).isEqualTo(6);

        assertThat(b().delete("/api/v1/api-keys/shared-key", ADMIN).status()).isEqualTo(204);
        assertThat(b().get("/q/shared?n=2", secret).status()).as("revoked at once where revoked").isEqualTo(401);
        long revoked = System.nanoTime();
        while (a().get("/q/shared?n=2", secret).status() != 401) {
            assertThat(System.nanoTime() - revoked).as("revocation reaches A within the TTL")
                    .isLessThan(3_000_000_000L);
            Thread.sleep(50);
        }
        String again = a().key("shared-key", Map.of("queries", List.of("shared")));
        assertThat(a().get("/q/shared?n=2", again).status()).as("a deleted key's name is free on PostgreSQL too")
                .isEqualTo(200);
    }

    @Test
    void schemaThreeOnPostgresql() throws Exception {
        Reply q = a().post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "pg tagged", "sql",
                "SELECT :n AS n", "parameters", Map.of("n", "int"), "connection_name", "demo", "tags",
                List.of("pg", "three"), "collection", "pg-reports", "columns", Map.of("n", "the number"), "mcp", false,
                "publish", true)));
        assertThat(q.status()).as(q.body()).isEqualTo(201);
        a().post("/api/v1/queries/pg%20tagged/versions", ADMIN, Http.json(Map.of("sql", "SELECT :n + 1 AS n",
                "parameters", Map.of("n", "int"), "publish", true)));
        assertThat(a().patch("/api/v1/queries/pg%20tagged/versions/1", ADMIN, "{\"cache_ttl\": 30}").status())
                .isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            assertThat(b().get("/q/pg%20tagged?n=" + i, ADMIN).status()).isEqualTo(200);
        }
        assertThat(b().get("/q/pg%20tagged?n=x", ADMIN).status()).isEqualTo(400);
        b().post("/execute_sql", ADMIN, "{\"sql\": \"SELECT 2 AS two\", \"connection_name\": \"demo\"}");

        com.fasterxml.jackson.databind.JsonNode detail = b().get("/api/v1/queries/pg%20tagged", ADMIN).json();
        assertThat(detail.get("tags")).as("the published version's: 2, saved without").isEmpty();
        assertThat(detail.get("versions").get(0).get("tags").toString()).isEqualTo("[\"pg\",\"three\"]");
        assertThat(detail.get("collection").asText()).isEqualTo("pg-reports");
        assertThat(detail.get("versions").get(0).get("cache_ttl").asInt()).isEqualTo(30);
        assertThat(detail.get("versions").get(0).get("mcp").asBoolean()).isFalse();
        assertThat(detail.get("versions").get(0).get("columns").get("n").asText()).isEqualTo("the number");
        assertThat(detail.get("versions").get(1).get("run_count").asInt()).isEqualTo(4);
        assertThat(detail.get("last_used_at").isTextual()).isTrue();
        assertThat(b().get("/api/v1/queries?collection=pg-reports&search=TAGGED", ADMIN).json().get("items"))
                .hasSize(1);

        com.fasterxml.jackson.databind.JsonNode runs = a().get("/api/v1/queries/pg%20tagged/history?status=error",
                ADMIN).json().get("items");
        assertThat(runs).hasSize(1);
        assertThat(runs.get(0).get("code").asText()).isEqualTo("param_invalid");
        assertThat(a().get("/api/v1/queries/pg%20tagged/history?status=success&version=2&key=admin&limit=2", ADMIN)
                .json().get("next_cursor").isTextual()).isTrue();
        assertThat(a().get("/api/v1/history?kind=adhoc&query=&since=2020-01-01", ADMIN).json().get("items").size())
                .isGreaterThanOrEqualTo(1);
        assertThat(a().get("/api/v1/history?query=pg%20tagged&kind=saved", ADMIN).json().get("items")).hasSize(4);
        assertThat(a().request("DELETE", "/api/v1/history?caller=nobody&dry_run=true", ADMIN, null).json()
                .get("events").asInt()).isZero();

        Reply fellBack = a().delete("/api/v1/queries/pg%20tagged/versions/2", ADMIN);
        assertThat(fellBack.json().get("published_version").asInt()).isEqualTo(1);
        Reply renamed = a().patch("/api/v1/collections/pg-reports", ADMIN, "{\"name\": \"pg-renamed\"}");
        assertThat(renamed.json().get("moved").get("queries").toString()).isEqualTo("[\"pg tagged\"]");

        Reply examples = a().post("/api/v1/examples", ADMIN, "");
        assertThat(examples.status()).as(examples.body()).isEqualTo(200);
        assertThat(a().get("/api/v1/queries/example_film_search/history", ADMIN).json().get("items").size())
                .as("seeded runs").isGreaterThanOrEqualTo(8);
        assertThat(a().request("DELETE", "/api/v1/examples", ADMIN, null).json().get("removed").get("keys"))
                .hasSize(5);
    }

    @Test
    void bothInstancesWriteEventsWithoutConflicts() throws Exception {
        Jdbi store = Jdbi.create(PG.url(), PG.user(), PG.password());
        // events are written in batches, so an earlier test's last calls may land now: count this test's calls only
        long start = System.currentTimeMillis() + 1;
        Thread.sleep(2);
        String ours = "SELECT count(*) FROM events WHERE at_ms >= " + start;
        long before = 0;
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            Http http = t % 2 == 0 ? a() : b();
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 25; i++) {
                    assertThat(http.post("/execute_sql", ADMIN, "{\"sql\": \"SELECT 1 AS one\", \"connection_name\":"
                            + " \"demo\"}").status()).isEqualTo(200);
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        long deadline = System.currentTimeMillis() + 10_000;
        long after = before;
        while (after < before + 100 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            after = store.withHandle(h -> h.createQuery(ours).mapTo(Long.class).one());
        }
        Thread.sleep(200); // a few flush intervals more: nothing is written twice
        after = store.withHandle(h -> h.createQuery(ours).mapTo(Long.class).one());
        assertThat(after - before).isEqualTo(100);
    }

    @Test
    void migrateStoreCopiesASqliteStoreSoItsKeysKeepWorking() throws Exception {
        Path sqliteHome = TestingConfig.write(TestingConfig.demoConnection(), "").getParent();
        String sqliteUrl = "jdbc:sqlite:" + sqliteHome.resolve("queryapigate.db");
        io.queryapigate.store.Store.migrate(sqliteUrl, null, null);
        String secret = io.queryapigate.auth.KeyHasher.newSecret();
        Jdbi sqlite = Jdbi.create(sqliteUrl);
        sqlite.useHandle(h -> {
            h.execute("INSERT INTO api_keys (name, key_hash, key_prefix, grants, expires_at, active, created_at)"
                    + " VALUES ('migrated', ?, 'qag_x', '{\"connections\":[],\"queries\":[\"moved\"],"
                    + "\"adhoc_sql\":false}', NULL, 1, 0)", io.queryapigate.auth.KeyHasher.hashHex(secret));
            h.execute("INSERT INTO saved_queries (name, published_version, created_at, updated_at)"
                    + " VALUES ('moved', 1, 0, 0)");
            h.execute("INSERT INTO query_versions (query_id, version, sql_text, parameters, connection_name,"
                    + " description, author, cache_ttl, created_at) SELECT id, 1, 'SELECT 7 AS seven', '{}', 'demo',"
                    + " NULL, 'test', 0, 0 FROM saved_queries WHERE name = 'moved'");
        });
        TestingPostgres.Database target = TestingPostgres.freshDatabase("qag_migrated");
        try {
            long rows = MigrateStoreCommand.copy(sqliteUrl, null, null, target.url(), target.user(),
                    target.password());
            assertThat(rows).isEqualTo(3);
            Path config = TestingConfig.write(TestingConfig.demoConnection(), "store:\n  url: " + target.url()
                    + "\n  user: " + target.user() + "\n  password: " + target.password() + "\n");
            DropwizardAppExtension<GatewayConfiguration> app =
                    new DropwizardAppExtension<>(GatewayApplication.class, config.toString());
            app.before();
            try {
                Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
                Reply r = http.get("/q/moved", secret);
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                assertThat(r.json().get(0).get("seven").asInt()).isEqualTo(7);
                Reply created = http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"after-migration\"}");
                assertThat(created.status()).as("identity continues after the copied ids").isEqualTo(201);
            } finally {
                app.after();
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> MigrateStoreCommand.copy(sqliteUrl, null,
                    null, target.url(), target.user(), target.password())).hasMessageContaining("not empty");
        } finally {
            target.dropDatabase();
        }
    }
}
