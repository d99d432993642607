package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.TestingConfig;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /events} on the SQLite store, its reader polling every 100 ms. */
@ExtendWith(DropwizardExtensionsSupport.class)
class LiveEventsIT extends LiveEventsContract {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.withEvents(TestingConfig.write(TestingConfig.demoConnection(),
                    TestingConfig.filmSeed()), live("100ms")).toString());

    @Override
    String base() {
        return "http://127.0.0.1:" + APP.getLocalPort();
    }

    @Override
    IntSupplier streams() {
        return () -> gauge(APP.getEnvironment());
    }

    @Override
    com.codahale.metrics.MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }
}
