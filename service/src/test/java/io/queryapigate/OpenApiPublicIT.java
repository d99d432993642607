package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code security.publicSpec}: callers without a key read the generic document, never a saved query. */
@ExtendWith(DropwizardExtensionsSupport.class)
class OpenApiPublicIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    TestingConfig.filmSeed() + "security:\n  publicSpec: true\n").toString());

    @Test
    void withoutAKeyOnlyTheGenericRoutes() {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        JsonNode anonymous = http.get("/openapi.json", null).json();
        List<String> paths = new ArrayList<>();
        anonymous.get("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(paths).containsExactlyInAnyOrder("/health", "/catalog", "/events", "/openapi.json", "/openapi.yaml");
        assertThat(http.get("/openapi.yaml", null).status()).isEqualTo(200);
        assertThat(http.get("/openapi.json", TestingConfig.ADMIN_KEY).json().get("paths").has("/q/film")).isTrue();
        http.get("/openapi.json", "wrong-key").assertRefused(401, "unauthorized");
        http.get("/catalog", null).assertRefused(401, "unauthorized");
        http.get("/q/film?film_id=1", null).assertRefused(401, "unauthorized");
    }
}
