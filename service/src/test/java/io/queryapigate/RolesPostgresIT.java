package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * API-key roles on a real PostgreSQL store shared by two instances that trust what they read for 1 s: the contract on
 * one, and a role changed on one reaching its keys on the other within that TTL.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RolesPostgresIT extends RolesContract {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_roles");
    private static final String STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\n";
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                    + STORE, "1s").toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE, "1s").toString());

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    @Override
    Http http() {
        return new Http("http://127.0.0.1:" + A.getLocalPort());
    }

    private static Http b() {
        return new Http("http://127.0.0.1:" + B.getLocalPort());
    }

    @Override
    Jdbi store() {
        return Jdbi.create(PG.url(), PG.user(), PG.password());
    }

    @Test
    void aRoleChangedOnOneInstanceReachesItsKeysOnTheOtherWithinTheTtl() throws Exception {
        assertThat(createRole("shared-role", Map.of("queries", List.of("film"))).status()).isEqualTo(201);
        String key = secret(createKey("shared-role-key", Map.of("role", "shared-role")));
        assertThat(b().get("/q/film?film_id=1", key).status()).isEqualTo(200);

        assertThat(http().patch("/api/v1/roles/shared-role", ADMIN, "{\"queries\": []}").status()).isEqualTo(200);
        assertThat(film(key)).as("at once where it was changed").isEqualTo(403);
        long changed = System.nanoTime();
        while (b().get("/q/film?film_id=1", key).status() != 403) {
            assertThat(System.nanoTime() - changed).as("the other instance within its 1 s TTL (and a margin)")
                    .isLessThan(3_000_000_000L);
            Thread.sleep(50);
        }
    }
}
