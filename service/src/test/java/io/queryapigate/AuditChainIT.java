package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.util.JarLocation;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The audit chain in running gateways: two instances on one PostgreSQL store writing at once make one gapless chain;
 * tampering with the real SQLite file or PostgreSQL store is reported by the API and by {@code audit verify} (exit
 * 1); a change whose entry cannot be written is rolled back; retention trims with the anchor; a workspace's
 * administrator reads only its workspace's entries and may not verify.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AuditChainIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_audit_chain");
    private static final String PG_STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user()
            + "\n  password: " + PG.password() + "\n  maxConnections: 4\n";
    private static final Path SQLITE_CONFIG = TestingConfig.write(TestingConfig.demoConnection(),
            "audit:\n  maxEntries: 1000\n", "0s");
    private static final DropwizardAppExtension<GatewayConfiguration> SQLITE = new DropwizardAppExtension<>(
            GatewayApplication.class, SQLITE_CONFIG.toString());
    private static final Path PG_CONFIG = TestingConfig.write(TestingConfig.demoConnection(), PG_STORE, "0s");
    private static final DropwizardAppExtension<GatewayConfiguration> PG_A = new DropwizardAppExtension<>(
            GatewayApplication.class, PG_CONFIG.toString());
    private static final DropwizardAppExtension<GatewayConfiguration> PG_B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), PG_STORE, "0s").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Http http(DropwizardAppExtension<GatewayConfiguration> app) {
        return new Http("http://127.0.0.1:" + app.getLocalPort());
    }

    private static DropwizardAppExtension<GatewayConfiguration> app(String store) {
        return store.equals("sqlite") ? SQLITE : PG_A;
    }

    private static Store store(DropwizardAppExtension<GatewayConfiguration> app) {
        GatewayConfiguration c = app.getConfiguration();
        return Store.connect(Store.resolveUrl(c.getStore().getUrl(), Path.of(c.getHome()).toAbsolutePath()),
                c.getStore().getUser(), c.getStore().getPassword());
    }

    /** {@code audit verify CONFIG} through Dropwizard's command line in this JVM: exit status and output. */
    private static TestingAdmins.Run verifyCommand(Path config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        Bootstrap<GatewayConfiguration> bootstrap = new Bootstrap<>(new GatewayApplication());
        bootstrap.addCommand(new io.queryapigate.cli.AuditCommand(print, System.getenv()));
        try {
            boolean failed = new Cli(new JarLocation(GatewayApplication.class), bootstrap, print, print)
                    .run("audit", "verify", config.toString()).isPresent();
            return new TestingAdmins.Run(failed ? 1 : 0, out.toString(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void roles(Http http, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            Reply r = http.post("/api/v1/roles", ADMIN, "{\"name\": \"" + prefix + i + "\", \"queries\": [\"x\"]}");
            assertThat(r.status()).as(r.body()).isEqualTo(201);
        }
    }

    @Test
    void twoInstancesWritingAtOnceOnOnePostgresStoreMakeOneGaplessChain() throws Exception {
        long before = http(PG_A).get("/api/v1/audit/verify", ADMIN).json().get("last_seq").asLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                Http http = http(w % 2 == 0 ? PG_A : PG_B);
                String prefix = "conc-" + w + "-";
                writers.add(pool.submit((Callable<Void>) () -> {
                    roles(http, prefix, 15);
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        JsonNode verified = http(PG_B).get("/api/v1/audit/verify", ADMIN).json();
        assertThat(verified.get("intact").asBoolean()).as(verified.toString()).isTrue();
        assertThat(verified.get("last_seq").asLong()).isEqualTo(before + 60);
        List<Long> seqs = new ArrayList<>();
        http(PG_A).get("/api/v1/audit?action=create_role&q=conc-&limit=1000", ADMIN).json().get("items")
                .forEach(i -> seqs.add(i.get("seq").asLong()));
        assertThat(seqs).hasSize(60).doesNotHaveDuplicates();
        long stored = store(PG_A).jdbi().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM audit_log")
                .mapTo(Long.class).one());
        assertThat(stored).isEqualTo(before + 60);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgres"})
    void tamperingWithTheStoreIsReportedByTheApiAndTheCommand(String kind) {
        DropwizardAppExtension<GatewayConfiguration> app = app(kind);
        Path config = kind.equals("sqlite") ? SQLITE_CONFIG : PG_CONFIG;
        Http http = http(app);
        roles(http, "tamper-" + kind + "-", 3);
        TestingAdmins.Run intact = verifyCommand(config);
        assertThat(intact.exit()).as(intact.output()).isZero();
        assertThat(intact.output()).contains("\"intact\" : true").contains("Intact:");
        long target = http.get("/api/v1/audit?limit=3", ADMIN).json().get("items").get(1).get("seq").asLong();
        Store store = store(app);
        String saved = store.jdbi().withHandle(h -> h.createQuery("SELECT entry_json FROM audit_log WHERE seq = :s")
                .bind("s", target).mapTo(String.class).one());
        try {
            store.jdbi().useHandle(h -> h.createUpdate("UPDATE audit_log SET entry_json = REPLACE(entry_json,"
                    + " 'tamper', 'TAMPER') WHERE seq = :s").bind("s", target).execute());
            JsonNode report = http.get("/api/v1/audit/verify", ADMIN).json();
            assertThat(report.get("intact").asBoolean()).isFalse();
            assertThat(report.get("break").get("seq").asLong()).isEqualTo(target);
            assertThat(report.get("break").get("problem").asText()).isEqualTo("edited");
            TestingAdmins.Run broken = verifyCommand(config);
            assertThat(broken.exit()).as(broken.output()).isEqualTo(1);
            assertThat(broken.output()).contains("\"seq\" : " + target).contains("\"problem\" : \"edited\"")
                    .contains("broken at seq " + target);
        } finally {
            store.jdbi().useHandle(h -> h.createUpdate("UPDATE audit_log SET entry_json = :j WHERE seq = :s")
                    .bind("j", saved).bind("s", target).execute());
        }
        assertThat(http.get("/api/v1/audit/verify", ADMIN).json().get("intact").asBoolean()).isTrue();
    }

    @Test
    void aChangeWhoseEntryCannotBeWrittenIsRolledBackAndAFailedChangeLeavesNoEntry() {
        Http http = http(SQLITE);
        Store store = store(SQLITE);
        store.jdbi().useHandle(h -> h.execute("CREATE TRIGGER audit_refuses BEFORE INSERT ON audit_log"
                + " WHEN NEW.target = 'refused-role' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
        try {
            Reply r = http.post("/api/v1/roles", ADMIN, "{\"name\": \"refused-role\", \"queries\": [\"x\"]}");
            assertThat(r.status()).as(r.body()).isEqualTo(500);
            assertThat(r.body()).doesNotContain("refused by the test");
            http.get("/api/v1/roles/refused-role", ADMIN).assertRefused(404, "role_not_found");
        } finally {
            store.jdbi().useHandle(h -> h.execute("DROP TRIGGER audit_refuses"));
        }
        long before = http.get("/api/v1/audit/verify", ADMIN).json().get("last_seq").asLong();
        store.jdbi().useHandle(h -> h.execute("CREATE TRIGGER keys_refuse BEFORE INSERT ON api_keys"
                + " WHEN NEW.name = 'refused-key' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"));
        try {
            Reply r = http.post("/api/v1/api-keys", ADMIN, "{\"name\": \"refused-key\", \"queries\": [\"x\"]}");
            assertThat(r.status()).as(r.body()).isEqualTo(500);
        } finally {
            store.jdbi().useHandle(h -> h.execute("DROP TRIGGER keys_refuse"));
        }
        JsonNode after = http.get("/api/v1/audit/verify", ADMIN).json();
        assertThat(after.get("last_seq").asLong()).as("no entry for a change that failed").isEqualTo(before);
        assertThat(after.get("intact").asBoolean()).isTrue();
    }

    @Test
    void aWorkspaceAdministratorReadsItsWorkspaceEntriesAndMayNotVerify() {
        Http http = http(SQLITE);
        assertThat(http.post("/api/v1/workspaces", ADMIN, "{\"name\": \"audit-team\"}").status()).isEqualTo(201);
        String lead = TestingAdmins.create(http, ADMIN, "audit-lead", null);
        assertThat(http.request("PUT", "/api/v1/workspaces/audit-team/members/audit-lead", ADMIN,
                "{\"role\": \"admin\"}").status()).isEqualTo(200);
        assertThat(http.post("/w/audit-team/api/v1/roles", lead, "{\"name\": \"team-role\", \"queries\": [\"x\"]}")
                .status()).isEqualTo(201);
        JsonNode seen = http.get("/w/audit-team/api/v1/audit", lead).json();
        List<String> workspaces = new ArrayList<>();
        seen.get("items").forEach(i -> workspaces.add(i.get("workspace").asText()));
        assertThat(workspaces).isNotEmpty().containsOnly("audit-team");
        assertThat(seen.get("items").get(0).get("target").asText()).isEqualTo("team-role");
        assertThat(seen.get("items").get(0).get("actor").asText()).isEqualTo("audit-lead");
        http.get("/w/audit-team/api/v1/audit/verify", lead).assertRefused(403, "role_forbidden");
        JsonNode all = http.get("/api/v1/audit?workspace=audit-team", ADMIN).json();
        assertThat(all.get("total").asLong()).isEqualTo(seen.get("total").asLong());
        http.get("/api/v1/audit?limit=0", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/audit?since=yesterday", ADMIN).assertRefused(400, "invalid_filter");
        http.get("/api/v1/audit?cursor=nope", ADMIN).assertRefused(400, "invalid_filter");
    }

    @Test
    void pagesFollowTheCursorNewestFirst() {
        Http http = http(SQLITE);
        roles(http, "paged-", 5);
        JsonNode first = http.get("/api/v1/audit?q=paged-&limit=2", ADMIN).json();
        JsonNode second = http.get("/api/v1/audit?q=paged-&limit=2&cursor=" + first.get("next_cursor").asText(),
                ADMIN).json();
        JsonNode third = http.get("/api/v1/audit?q=paged-&limit=2&cursor=" + second.get("next_cursor").asText(),
                ADMIN).json();
        List<String> targets = new ArrayList<>();
        for (JsonNode page : List.of(first, second, third)) {
            page.get("items").forEach(i -> targets.add(i.get("target").asText()));
        }
        assertThat(targets).containsExactly("paged-4", "paged-3", "paged-2", "paged-1", "paged-0");
        assertThat(third.get("next_cursor").isNull()).isTrue();
        assertThat(first.get("actions").toString()).contains("create_role");
        assertThat(first.get("retention").asInt()).isEqualTo(1000);
        assertThat(Map.of("n", http.get("/api/v1/audit?action=create_role&actor=nobody", ADMIN).json()
                .get("items").size())).containsEntry("n", 0);
    }
}
