package io.queryapigate;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Path;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link AdministratorsContract} on a SQLite store, managed with the break-glass key ({@code auth.adminKey}). */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdministratorsIT extends AdministratorsContract {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed())
                    .toString());
    private static Http http;
    private static Jdbi store;

    @BeforeAll
    static void connect() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        store = Jdbi.create("jdbc:sqlite:" + Path.of(APP.getConfiguration().getHome()).resolve("queryapigate.db"));
    }

    @Override
    Http http() {
        return http;
    }

    @Override
    String owner() {
        return TestingConfig.ADMIN_KEY;
    }

    @Override
    String ownerName() {
        return "admin";
    }

    @Override
    Jdbi store() {
        return store;
    }
}
