package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** With a long TTL: no store read on a cache hit, and changes made through this instance apply at once. */
@ExtendWith(DropwizardExtensionsSupport.class)
class MetadataCacheIT {
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), "", "10m").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static long storeReads() {
        Counter c = APP.getEnvironment().metrics().counter("store.reads");
        return c.getCount();
    }

    @Test
    void aWarmCallReadsNothingFromTheStore() {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "hot", "sql", "SELECT :n + 1 AS m",
                "parameters", Map.of("n", "int"), "connection_name", "demo", "publish", true)));
        String key = http.post("/api/v1/api-keys", ADMIN, Http.json(Map.of("name", "hot-key", "queries",
                List.of("hot")))).json().get("secret").asText();
        assertThat(http.get("/q/hot?n=1", key).status()).isEqualTo(200);
        long before = storeReads();
        for (int i = 0; i < 50; i++) {
            assertThat(http.get("/q/hot?n=" + i, key).json().get(0).get("m").asInt()).isEqualTo(i + 1);
        }
        assertThat(storeReads() - before).as("store reads for 50 warm calls").isZero();

        Http.Reply v2 = http.post("/api/v1/queries/hot/versions", ADMIN, Http.json(Map.of("sql",
                "SELECT :n + 2 AS m", "parameters", Map.of("n", "int"), "publish", true)));
        assertThat(v2.status()).as(v2.body()).isEqualTo(201);
        assertThat(http.get("/q/hot?n=1", key).json().get(0).get("m").asInt())
                .as("a publish through this instance applies at once").isEqualTo(3);
        assertThat(http.delete("/api/v1/api-keys/hot-key", ADMIN).status()).isEqualTo(204);
        assertThat(http.get("/q/hot?n=1", key).status()).as("a revocation through this instance applies at once")
                .isEqualTo(401);
    }
}
