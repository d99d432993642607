package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link AdministratorsContract} on a fresh PostgreSQL store shared by two gateway instances that have no
 * {@code auth.adminKey}: the first owner made by the {@code admins} command (startup refused before it), a token
 * revoked or an administrator deactivated through one instance refused by the other on its very next request, and no
 * change leaving the server without an active owner, even two racing on the two instances.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdministratorsPostgresIT extends AdministratorsContract {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_admins");
    private static final Path CONFIG = TestingAdmins.withoutAdminKey(TestingConfig.demoConnection(),
            TestingConfig.filmSeed() + "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
                    + PG.password() + "\n", "1s");
    private static final String ROOT_TOKEN = firstOwner();
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, CONFIG.toString());
    private static Http a;
    private static Http b;
    private static Jdbi store;

    /** Startup is refused while the store has no owner; the command line makes the first and prints its token. */
    private static String firstOwner() {
        assertThatThrownBy(() -> TestingConfig.startAndStop(CONFIG)).hasStackTraceContaining("auth.adminKey")
                .hasStackTraceContaining("admins create NAME --role owner");
        TestingAdmins.Run list = TestingAdmins.cli(CONFIG, "list");
        assertThat(list.output()).contains("No administrators yet");
        TestingAdmins.cli(CONFIG, "create", "root", "--role", "developer");
        assertThatThrownBy(() -> TestingConfig.startAndStop(CONFIG)).as("a developer is not an owner")
                .hasStackTraceContaining("auth.adminKey");
        TestingAdmins.Run refused = TestingAdmins.cli(CONFIG, "create", "root", "--role", "owner");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.output()).contains("already exists");
        TestingAdmins.Run created = TestingAdmins.cli(CONFIG, "create", "root-owner", "--role", "owner", "--label",
                "bootstrap", "--expires", "never");
        assertThat(created.exit()).as(created.output()).isZero();
        assertThat(created.output()).contains("Created administrator root-owner (owner).", "never expires");
        assertThat(TestingAdmins.cli(CONFIG, "list").output()).contains("root-owner  owner", "root  developer");
        return created.token();
    }

    @BeforeAll
    static void connect() {
        a = new Http("http://127.0.0.1:" + A.getLocalPort());
        b = new Http("http://127.0.0.1:" + B.getLocalPort());
        store = Jdbi.create(PG.url(), PG.user(), PG.password());
    }

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    @Override
    Http http() {
        return a;
    }

    @Override
    String owner() {
        return ROOT_TOKEN;
    }

    @Override
    String ownerName() {
        return "root-owner";
    }

    @Override
    Jdbi store() {
        return store;
    }

    @Test
    void aRevokedTokenOrADeactivatedAdministratorFailsOnTheOtherInstanceAtOnce() {
        String first = TestingAdmins.create(a, ROOT_TOKEN, "two-sites", "developer");
        String second = TestingAdmins.token(a, ROOT_TOKEN, "two-sites");
        assertThat(b.get("/api/v1/me", first).status()).isEqualTo(200);
        String id = b.get("/api/v1/administrators/two-sites/tokens", ROOT_TOKEN).json().get("items").get(0)
                .get("id").asText();
        assertThat(a.delete("/api/v1/administrators/two-sites/tokens/" + id, ROOT_TOKEN).status()).isEqualTo(204);
        b.get("/api/v1/me", first).assertRefused(401, "unauthorized");
        assertThat(b.get("/api/v1/me", second).status()).as("its other token still works").isEqualTo(200);

        assertThat(a.patch("/api/v1/administrators/two-sites", ROOT_TOKEN, "{\"active\": false}").status())
                .isEqualTo(200);
        b.get("/api/v1/me", second).assertRefused(401, "unauthorized");
        assertThat(b.patch("/api/v1/administrators/two-sites", ROOT_TOKEN, "{\"active\": true}").status())
                .isEqualTo(200);
        assertThat(a.get("/api/v1/me", second).status()).isEqualTo(200);
        assertThat(a.patch("/api/v1/administrators/two-sites", ROOT_TOKEN, "{\"role\": \"auditor\"}").status())
                .isEqualTo(200);
        assertThat(b.get("/api/v1/me", second).json().get("role").asText()).as("a new role at once too")
                .isEqualTo("auditor");
    }

    @Test
    void noChangeLeavesTheServerWithoutAnActiveOwner() {
        demoteEveryOwnerBut("root-owner");
        a.patch("/api/v1/administrators/root-owner", ROOT_TOKEN, "{\"role\": \"admin\"}").assertRefused(409,
                "last_owner");
        a.patch("/api/v1/administrators/root-owner", ROOT_TOKEN, "{\"active\": false}").assertRefused(409,
                "last_owner");
        a.delete("/api/v1/administrators/root-owner", ROOT_TOKEN).assertRefused(409, "last_owner");
        assertThat(a.get("/api/v1/me", ROOT_TOKEN).json().get("role").asText()).as("nothing changed")
                .isEqualTo("owner");

        String other = TestingAdmins.create(a, ROOT_TOKEN, "second-owner", "owner");
        assertThat(b.patch("/api/v1/administrators/root-owner", other, "{\"active\": false}").status())
                .as("with another owner it may go").isEqualTo(200);
        a.get("/api/v1/me", ROOT_TOKEN).assertRefused(401, "unauthorized");
        b.patch("/api/v1/administrators/second-owner", other, "{\"role\": \"developer\"}").assertRefused(409,
                "last_owner");
        assertThat(b.patch("/api/v1/administrators/root-owner", other, "{\"active\": true}").status())
                .isEqualTo(200);

        // the last two owners demote each other at the same moment through the two instances: one of them stays
        for (int round = 0; round < 5; round++) {
            CompletableFuture<Http.Reply> one = CompletableFuture.supplyAsync(() -> a.patch(
                    "/api/v1/administrators/second-owner", ROOT_TOKEN, "{\"role\": \"admin\"}"));
            CompletableFuture<Http.Reply> two = CompletableFuture.supplyAsync(() -> b.patch(
                    "/api/v1/administrators/root-owner", other, "{\"role\": \"admin\"}"));
            List<Integer> statuses = List.of(one.join().status(), two.join().status());
            assertThat(activeOwners()).as("round " + round + ": " + statuses).hasSize(1);
            assertThat(statuses.stream().filter(s -> s == 200).count()).as(statuses.toString()).isEqualTo(1);
            String left = activeOwners().get(0);
            String leftToken = left.equals("root-owner") ? ROOT_TOKEN : other;
            String demoted = left.equals("root-owner") ? "second-owner" : "root-owner";
            assertThat(a.patch("/api/v1/administrators/" + demoted, leftToken, "{\"role\": \"owner\"}").status())
                    .isEqualTo(200);
        }
        assertThat(a.delete("/api/v1/administrators/second-owner", ROOT_TOKEN).status()).isEqualTo(204);
        assertThat(activeOwners()).containsExactly("root-owner");
    }

    private List<String> activeOwners() {
        return store.withHandle(h -> h.createQuery("SELECT name FROM administrators WHERE role = 'owner' AND active"
                + " ORDER BY name").mapTo(String.class).list());
    }

    private void demoteEveryOwnerBut(String kept) {
        List<String> others = new ArrayList<>(activeOwners());
        others.remove(kept);
        for (String name : others) {
            assertThat(a.patch("/api/v1/administrators/" + name, ROOT_TOKEN, "{\"role\": \"admin\"}").status())
                    .isEqualTo(200);
        }
    }
}
