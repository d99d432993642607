package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingConfig;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** Agents' writes on the SQLite store. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AgentWritesIT extends AgentWritesContract {
    private static final Targets TARGETS = new Targets();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TARGETS.connections(), extraYaml()).toString());

    @AfterAll
    static void drop() {
        TARGETS.drop();
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
        return Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db");
    }
}
