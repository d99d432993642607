package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.Store;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /api/v1/usage/agents} on the SQLite store: {@link AgentUsageContract}. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AgentUsageIT extends AgentUsageContract {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class,
            TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()).toString());

    @Override
    GatewayApplication app() {
        return APP.getApplication();
    }

    @Override
    String base() {
        return "http://127.0.0.1:" + APP.getLocalPort();
    }

    @Override
    String[] store() {
        return new String[] {Store.resolveUrl(APP.getConfiguration().getStore().getUrl(),
                Path.of(APP.getConfiguration().getHome())), null, null};
    }
}
