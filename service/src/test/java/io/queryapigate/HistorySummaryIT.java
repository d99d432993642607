package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingConfig;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /api/v1/history/summary} on the SQLite store: {@link HistorySummaryContract}. */
@ExtendWith(DropwizardExtensionsSupport.class)
class HistorySummaryIT extends HistorySummaryContract {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class,
            TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()).toString());

    @Override
    String base() {
        return "http://127.0.0.1:" + APP.getLocalPort();
    }
}
