package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.cache.RedisResponseCache;
import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.limits.RedisLimiter;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingLoad;
import io.queryapigate.testing.TestingLoad.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/**
 * Redis down and back under load, on a redis-server of the test's own (port {@value #PORT}; the shared one is never
 * touched), killed with SIGKILL and started again empty: the response cache and the rate limits fall back to local
 * ones (each logged once), no call fails, and both use Redis again once it is back. The regression test for the
 * measurement by hand (Redis stopped 10 s under load: 0 of 18,811 requests failed).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RedisOutageIT {
    private static final int PORT = 6390;
    private static final String PREFIX = "qagtest:" + UUID.randomUUID() + ":";
    private static final Path DIR = tempDir();
    private static Process redis = startRedis();
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write(TestingConfig.demoConnection(),
                    "redis:\n  url: redis://127.0.0.1:" + PORT + "\n  retry: 500ms\n  keyPrefix: \"" + PREFIX
                            + "\"\n").toString());

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("qag-rel-storefaults-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Process startRedis() {
        try {
            Process p = new ProcessBuilder(Processes.dieWithUs(List.of("redis-server", "--port",
                    Integer.toString(PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                    DIR.toString()))).redirectErrorStream(true).redirectOutput(DIR.resolve("redis.log").toFile())
                    .start();
            long deadline = System.currentTimeMillis() + 10_000;
            while (true) {
                try (Socket s = new Socket("127.0.0.1", PORT)) {
                    return p;
                } catch (IOException notYet) {
                    if (!p.isAlive() || System.currentTimeMillis() > deadline) {
                        throw new AssertionError("redis-server did not start on " + PORT + ":\n"
                                + Processes.tail(DIR.resolve("redis.log"), 20));
                    }
                    Thread.sleep(50);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @AfterAll
    static void stopRedis() {
        Processes.stop(redis, 5);
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static long redisKeys() {
        try (RedisClient client = RedisClient.create("127.0.0.1", PORT)) {
            return client.keys(PREFIX + "*").size();
        }
    }

    private static ListAppender<ILoggingEvent> capture(Class<?> type) {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger(type)).addAppender(appender);
        return appender;
    }

    @Test
    void noCallFailsWhileRedisIsDownAndRedisIsUsedAgainAfter() throws Exception {
        String q = "cached_" + UUID.randomUUID().toString().substring(0, 8);
        Reply saved = http().post("/api/v1/queries", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", q, "sql",
                "SELECT :n AS n", "parameters", Map.of("n", "int"), "connection_name", "demo", "cache_ttl", 30,
                "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        String key = http().key("k" + UUID.randomUUID().toString().substring(0, 8), Map.of("connections",
                List.of("demo"), "queries", List.of(q), "rate_limit", "1000000/hour"));
        ListAppender<ILoggingEvent> cacheLog = capture(RedisResponseCache.class);
        ListAppender<ILoggingEvent> limitLog = capture(RedisLimiter.class);
        long cacheFailures = APP.getEnvironment().metrics().counter("cache.redis.failures").getCount();
        long limitFailures = APP.getEnvironment().metrics().counter("limits.redis.failures").getCount();
        List<Outcome> outcomes;
        long killedAt;
        long startedAt;
        try (TestingLoad load = TestingLoad.start(4, n -> http().get("/q/" + q + "?n=" + n % 20, key))) {
            Thread.sleep(1_000);
            assertThat(redisKeys()).as("cache entries and rate limits in Redis").isPositive();
            redis.destroyForcibly().waitFor();
            killedAt = System.currentTimeMillis();
            Thread.sleep(5_000);
            redis = startRedis();
            startedAt = System.currentTimeMillis();
            long deadline = startedAt + 10_000;
            while (redisKeys() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            long back = System.currentTimeMillis() - startedAt;
            Thread.sleep(1_000);
            outcomes = load.stop();
            List<Outcome> during = outcomes.stream()
                    .filter(o -> o.startMs() >= killedAt && o.endMs() <= startedAt).toList();
            System.out.printf("redis outage (%d ms): calls %s (during the outage %s); longest %d ms; Redis used"
                    + " again %d ms after it was back; failures counted: cache %d, limits %d; warnings logged:"
                    + " cache %d, limits %d%n", startedAt - killedAt, TestingLoad.tally(outcomes),
                    TestingLoad.tally(during), TestingLoad.longest(outcomes), back,
                    APP.getEnvironment().metrics().counter("cache.redis.failures").getCount() - cacheFailures,
                    APP.getEnvironment().metrics().counter("limits.redis.failures").getCount() - limitFailures,
                    cacheLog.list.size(), limitLog.list.size());
            assertThat(during).as("calls while Redis was down").hasSizeGreaterThan(20);
            assertThat(back).as("Redis used again within 10 s").isLessThan(10_000);
        }
        assertThat(outcomes).as("no call fails because Redis is down").allMatch(o -> o.status() == 200);
        assertThat(APP.getEnvironment().metrics().counter("cache.redis.failures").getCount())
                .isGreaterThan(cacheFailures);
        assertThat(APP.getEnvironment().metrics().counter("limits.redis.failures").getCount())
                .isGreaterThan(limitFailures);
        assertThat(cacheLog.list).as("the cache's fallback logged once").hasSize(1);
        assertThat(limitLog.list).as("the limits' fallback logged once").hasSize(1);
    }
}
