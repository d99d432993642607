package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Per-key rates and quotas, exact under concurrency, shared across two instances through Redis; per-address limits. */
@ExtendWith(DropwizardExtensionsSupport.class)
class RateLimitIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_limits");
    private static final String REDIS = TestServers.redis().url();
    private static final String SHARED = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\nredis:\n  url: " + REDIS + "\n  keyPrefix: \"qagtest:" + UUID.randomUUID() + ":\"\n";
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), SHARED).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), SHARED).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> LOCAL = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "limits:\n  perAddress: 30/hour\n").toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    private static Http http(DropwizardAppExtension<GatewayConfiguration> app) {
        return new Http("http://127.0.0.1:" + app.getLocalPort());
    }

    private static String key(DropwizardAppExtension<GatewayConfiguration> app, Map<String, Object> limits) {
        Map<String, Object> body = new java.util.HashMap<>(limits);
        body.put("name", "k" + UUID.randomUUID().toString().substring(0, 8));
        body.put("connections", List.of("demo"));
        body.put("adhoc_sql", true);
        Reply r = http(app).post("/api/v1/api-keys", ADMIN, Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("secret").asText();
    }

    private static Reply call(DropwizardAppExtension<GatewayConfiguration> app, String key) {
        return http(app).post("/execute_sql", key, "{\"sql\": \"SELECT 1 AS one\", \"connection_name\": \"demo\"}");
    }

    @Test
    void aKeysRateIsExactUnderEightConcurrentThreads() throws Exception {
        String k = key(A, Map.of("rate_limit", "20/hour"));
        ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 5; i++) {
                    replies.add(call(A, k));
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long ok = replies.stream().filter(r -> r.status() == 200).count();
        List<Reply> limited = replies.stream().filter(r -> r.status() == 429).toList();
        assertThat(ok).isEqualTo(20);
        assertThat(limited).hasSize(20);
        Reply one = limited.get(0);
        assertThat(one.json().get("code").asText()).isEqualTo("rate_limited");
        assertThat(Long.parseLong(one.header("Retry-After"))).isPositive();
        assertThat(one.json().get("retry_after").asLong()).isPositive();
    }

    @Test
    void oneBudgetAcrossTwoInstancesThroughRedis() {
        String k = key(A, Map.of("rate_limit", "10/hour"));
        int ok = 0;
        for (int i = 0; i < 8; i++) {
            ok += call(A, k).status() == 200 ? 1 : 0;
            ok += call(B, k).status() == 200 ? 1 : 0;
        }
        assertThat(ok).isEqualTo(10);
        String fresh = key(A, Map.of("rate_limit", "10/hour"));
        Reply first = call(B, fresh);
        assertThat(first.header("X-RateLimit-Key-Limit")).isEqualTo("10");
        assertThat(first.header("X-RateLimit-Key-Remaining")).isEqualTo("9");
    }

    @Test
    void quotasCountCallsPerDayAcrossInstancesThroughRedis() throws Exception {
        String k = key(A, Map.of("quota", "3/day"));
        assertThat(List.of(call(A, k).status(), call(B, k).status(), call(A, k).status())).containsOnly(200);
        Reply over = call(B, k);
        assertThat(over.status()).isEqualTo(429);
        over.assertRefused(429, "quota_exceeded");
        assertThat(over.json().get("error").asText()).contains("daily quota of 3 calls");
        // and each instance wrote its own counts to the shared PostgreSQL store
        org.jdbi.v3.core.Jdbi store = org.jdbi.v3.core.Jdbi.create(PG.url(), PG.user(), PG.password());
        String stored = "SELECT COALESCE(SUM(calls), 0) FROM usage_counters u JOIN api_keys k ON k.id = u.key_id"
                + " WHERE k.key_hash = '" + io.queryapigate.auth.KeyHasher.hashHex(k) + "'";
        long deadline = System.currentTimeMillis() + 10_000;
        while (store.withHandle(h -> h.createQuery(stored).mapTo(Long.class).one()) < 3) {
            assertThat(System.currentTimeMillis()).as("the counts reach the store within seconds")
                    .isLessThan(deadline);
            Thread.sleep(50);
        }
        long total = store.withHandle(h -> h.createQuery(stored).mapTo(Long.class).one());
        assertThat(total).isEqualTo(3);
    }

    @Test
    void theAddressLimitRunsBeforeTheKeyIsChecked() {
        Http http = http(LOCAL);
        int limitedBeforeAuth = 0;
        for (int i = 0; i < 40; i++) {
            Reply r = http.get("/q/anything", "wrong-key-" + i);
            if (r.status() == 429) {
                limitedBeforeAuth++;
            } else {
                assertThat(r.status()).isEqualTo(401);
            }
        }
        assertThat(limitedBeforeAuth).as("wrong keys are throttled too").isPositive();
        assertThat(http.get("/health", null).status()).as("health is never limited").isEqualTo(200);
    }

    @Test
    void badLimitsAreRefusedNamingThem() throws Exception {
        Reply bad = http(A).post("/api/v1/api-keys", ADMIN, "{\"name\": \"bad-rate\", \"rate_limit\": \"fast\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("errors").has("rate_limit")).isTrue();
        DropwizardTestSupport<GatewayConfiguration> app = new DropwizardTestSupport<>(GatewayApplication.class,
                TestingConfig.write(TestingConfig.demoConnection(), "limits:\n  perAddress: 10/week\n").toString());
        try {
            assertThatThrownBy(app::before).hasStackTraceContaining("limits.perAddress");
        } finally {
            app.after();
        }
    }
}
