package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** Agents' writes on a PostgreSQL store (write_requests in schema 20 there). */
@ExtendWith(DropwizardExtensionsSupport.class)
class AgentWritesPostgresIT extends AgentWritesContract {
    private static final TestingPostgres.Database STORE_DB = TestingPostgres.freshDatabase("qag_aw_store");
    private static final Targets TARGETS = new Targets();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TARGETS.connections(), extraYaml() + "store:\n  url: "
                    + STORE_DB.url() + "\n  user: " + STORE_DB.user() + "\n  password: " + STORE_DB.password()
                    + "\n").toString());

    @AfterAll
    static void drop() {
        TARGETS.drop();
        STORE_DB.dropDatabase();
    }

    @Override
    Targets targets() {
        return TARGETS;
    }

    @Override
    DropwizardAppExtension<GatewayConfiguration> app() {
        return APP;
    }

    @Override
    Jdbi store() {
        return Jdbi.create(STORE_DB.url(), STORE_DB.user(), STORE_DB.password());
    }
}
