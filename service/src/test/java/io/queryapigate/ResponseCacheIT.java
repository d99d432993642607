package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The response cache: ETag/304 and HIT/MISS on one instance, one Redis shared by two instances on one PostgreSQL
 * store, and an instance whose Redis disappears and comes back (through a proxy this test cuts).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ResponseCacheIT {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_cache");
    private static final TestServers.Server REDIS = TestServers.redis();
    private static final TcpProxy PROXY = proxy();
    private static final String STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\n";
    private static final String PREFIX = "qagtest:" + UUID.randomUUID() + ":";
    private static final String SHARED = "redis:\n  url: " + REDIS.url() + "\n  keyPrefix: \"" + PREFIX + "\"\n";
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE + SHARED).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE + SHARED).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> FLAKY = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(), STORE
                    + "redis:\n  url: redis://127.0.0.1:" + PROXY.port() + "\n  retry: 200ms\n  keyPrefix: \""
                    + PREFIX + "\"\n")
                    .toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    private static TcpProxy proxy() {
        try {
            return new TcpProxy(REDIS.host(), REDIS.port());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @AfterAll
    static void cleanUp() throws Exception {
        PROXY.close();
        PG.dropDatabase();
    }

    private static Http http(DropwizardAppExtension<GatewayConfiguration> app) {
        return new Http("http://127.0.0.1:" + app.getLocalPort());
    }

    private static String cachedQuery() {
        String name = "cached_" + UUID.randomUUID().toString().substring(0, 8);
        Reply r = http(A).post("/api/v1/queries", ADMIN, Http.json(Map.of("name", name, "sql",
                "SELECT :n AS n, random() AS r", "parameters", Map.of("n", "int"), "connection_name", "demo",
                "cache_ttl", 30, "publish", true)));
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return name;
    }

    @Test
    void etagsHitsAndNotModified() {
        String q = cachedQuery();
        Reply miss = http(A).get("/q/" + q + "?n=1", ADMIN);
        assertThat(miss.header("X-Cache")).isEqualTo("MISS");
        assertThat(miss.header("Cache-Control")).isEqualTo("private, max-age=30");
        String etag = miss.header("ETag");
        assertThat(etag).matches("\"[0-9a-f]{32}\"");
        Reply hit = http(A).get("/q/" + q + "?n=1", ADMIN);
        assertThat(hit.header("X-Cache")).isEqualTo("HIT");
        assertThat(hit.body()).as("random() was not run again").isEqualTo(miss.body());
        assertThat(hit.header("ETag")).isEqualTo(etag);
        Reply other = http(A).get("/q/" + q + "?n=2", ADMIN);
        assertThat(other.header("X-Cache")).isEqualTo("MISS");
        Reply notModified = http(A).send(http(A).builder("/q/" + q + "?n=1", ADMIN).header("If-None-Match", etag)
                .GET().build());
        assertThat(notModified.status()).isEqualTo(304);
        assertThat(notModified.body()).isEmpty();
    }

    @Test
    void twoInstancesShareOneRedis() {
        String q = cachedQuery();
        Reply onA = http(A).get("/q/" + q + "?n=7", ADMIN);
        assertThat(onA.header("X-Cache")).isEqualTo("MISS");
        Reply onB = http(B).get("/q/" + q + "?n=7", ADMIN);
        assertThat(onB.status()).as(onB.body()).isEqualTo(200);
        assertThat(onB.header("X-Cache")).as("B never ran it, A's result came through Redis").isEqualTo("HIT");
        assertThat(onB.body()).isEqualTo(onA.body());
    }

    @Test
    void theCacheBrowserSeesAndEvictsRedisEntriesOfEveryInstance() {
        String q = cachedQuery();
        Reply onA = http(A).get("/q/" + q + "?n=5", ADMIN);
        assertThat(onA.header("X-Cache")).isEqualTo("MISS");
        com.fasterxml.jackson.databind.JsonNode entry = null;
        for (com.fasterxml.jackson.databind.JsonNode e : http(B).get("/api/v1/cache/entries", ADMIN).json()
                .get("items")) {
            if (e.get("meta").get("name").asText().equals(q)) {
                entry = e;
            }
        }
        assertThat(entry).as("B lists what A cached in Redis").isNotNull();
        assertThat(entry.get("meta").get("version").asInt()).isEqualTo(1);
        assertThat(entry.get("size_bytes").asInt()).isEqualTo(onA.body().length());
        String key = entry.get("key").asText();
        assertThat(http(B).get("/api/v1/cache/entries/" + key, ADMIN).body()).isEqualTo(onA.body());
        assertThat(http(B).delete("/api/v1/cache/entries/" + key, ADMIN).status()).isEqualTo(204);
        assertThat(http(A).get("/q/" + q + "?n=5", ADMIN).header("X-Cache")).as("evicted from Redis through B")
                .isEqualTo("MISS");
    }

    @Test
    void callsKeepSucceedingWhileRedisIsGoneAndRedisIsUsedAgainAfter() throws Exception {
        String q = cachedQuery();
        Http flaky = http(FLAKY);
        assertThat(flaky.get("/q/" + q + "?n=1", ADMIN).header("X-Cache")).isEqualTo("MISS");
        PROXY.cut();
        for (int i = 0; i < 5; i++) {
            Reply r = flaky.get("/q/" + q + "?n=" + (100 + i), ADMIN);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        assertThat(flaky.get("/q/" + q + "?n=100", ADMIN).header("X-Cache")).as("the local fallback serves")
                .isEqualTo("HIT");
        assertThat(FLAKY.getEnvironment().metrics().counter("cache.redis.failures").getCount()).isPositive();

        PROXY.restore();
        Thread.sleep(300);
        long deadline = System.currentTimeMillis() + 10_000;
        String status;
        int n = 1000;
        do {
            // a value only the flaky instance has run: B can have it only through Redis
            n++;
            Reply fresh = flaky.get("/q/" + q + "?n=" + n, ADMIN);
            assertThat(fresh.status()).isEqualTo(200);
            assertThat(fresh.header("X-Cache")).isEqualTo("MISS");
            status = http(B).get("/q/" + q + "?n=" + n, ADMIN).header("X-Cache");
            Thread.sleep(100);
        } while (!"HIT".equals(status) && System.currentTimeMillis() < deadline);
        assertThat(status).as("after Redis returns, entries written by this instance reach the others").isEqualTo("HIT");
    }
}
