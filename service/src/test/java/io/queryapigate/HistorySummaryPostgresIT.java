package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /api/v1/history/summary} on a PostgreSQL store: {@link HistorySummaryContract}. */
@ExtendWith(DropwizardExtensionsSupport.class)
class HistorySummaryPostgresIT extends HistorySummaryContract {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_summary");
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                    + "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: " + PG.password()
                    + "\n").toString());

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    @Override
    String base() {
        return "http://127.0.0.1:" + APP.getLocalPort();
    }
}
