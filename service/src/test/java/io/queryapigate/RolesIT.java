package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * API-key roles on the embedded SQLite store, with a metadata cache that keeps entries for 30 s: a change made
 * through this instance reaches its keys at once all the same.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RolesIT extends RolesContract {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed(),
                    "30s").toString());

    @Override
    Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @Override
    Jdbi store() {
        return Jdbi.create("jdbc:sqlite:" + APP.getConfiguration().getHome() + "/queryapigate.db");
    }
}
