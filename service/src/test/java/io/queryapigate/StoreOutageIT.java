package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingLoad;
import io.queryapigate.testing.TestingLoad.Outcome;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The PostgreSQL store going away under load and coming back (a {@link TcpProxy} in front of the shared server, the
 * store in a database of its own): warm calls keep working from the metadata cache (past its TTL, the default 5 s), events wait in their bounded
 * queue and are written when the store is back (exactly: written + {@code events.dropped} = answered), management
 * calls answer 503 {@code store_unavailable} with {@code Retry-After} at once, never 500 and never a hang.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StoreOutageIT {
    private static final int QUEUE = 100;
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_storeout");
    private static final TcpProxy PROXY = proxy();
    private static final Path CONFIG = TestingConfig.withEvents(TestingConfig.write(TestingConfig.demoConnection(),
            "store:\n  url: " + PG.url().replaceFirst("//[^/]+/", "//" + PROXY.hostPort() + "/") + "\n  user: "
                    + PG.user() + "\n  password: " + PG.password() + "\n" + TestingConfig.filmSeed(), "5s"),
            "  queueCapacity: " + QUEUE + "\n");
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final java.util.concurrent.atomic.AtomicLong PROXY_RESTORED =
            new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);

    private static TcpProxy proxy() {
        try {
            return new TcpProxy(TestServers.postgres().host(), TestServers.postgres().port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void drop() {
        PROXY.close();
        PG.dropDatabase();
    }

    private static Http http() {
        return new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    private static Counter dropped() {
        return APP.getEnvironment().metrics().counter("events.dropped");
    }

    /** Events in the store whose request id starts with {@code prefix}, read directly (not through the proxy). */
    private static long eventsStored(String prefix) {
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM events WHERE request_id LIKE ?")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String warmKey() {
        String key = http().key("k" + UUID.randomUUID().toString().substring(0, 8),
                Map.of("connections", List.of("demo"), "queries", List.of("film")));
        for (int i = 0; i < 3; i++) {
            Reply r = http().get("/q/film?film_id=1", key);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        return key;
    }

    private static Reply call(String key, String requestId) {
        return http().request("GET", "/q/film?film_id=" + (1 + Math.floorMod(requestId.hashCode(), 100)), key, null,
                "X-Request-Id", requestId);
    }

    @Test
    @Order(1)
    void withinTheBoundNothingIsLostAndManagementAnswers503() throws Exception {
        String key = warmKey();
        long droppedBefore = dropped().getCount();
        String run = "so1-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        int perCaller = (QUEUE - 20) / 3;
        List<Outcome> management = new ArrayList<>();
        long cutAt;
        long restoredAt;
        List<Outcome> calls;
        TestingLoad load = TestingLoad.start(3, n -> {
            if (n >= 3L * perCaller) {
                return sleepThenNothing();
            }
            sleep(250); // paced, so the calls span the outage and the bound is not reached
            return call(key, run + n);
        });
        try (TestingLoad admin = TestingLoad.start(1, n -> {
            sleep(100);
            return http().get("/api/v1/queries", ADMIN);
        })) {
            Thread.sleep(300);
            PROXY.cut();
            cutAt = System.currentTimeMillis();
            Thread.sleep(7_000); // longer than the metadata cache's TTL (5 s, the default)
            PROXY.restore();
            restoredAt = System.currentTimeMillis();
            PROXY_RESTORED.set(restoredAt);
            waitFor(() -> admin.outcomes().stream().anyMatch(o -> o.startMs() >= PROXY_RESTORED.get()
                    && o.status() == 200), 30_000);
            management.addAll(admin.stop());
            calls = load.stop().stream().filter(o -> o.status() != 0).toList();
        }
        List<Outcome> during = calls.stream().filter(o -> o.startMs() >= cutAt && o.endMs() <= restoredAt).toList();
        List<Outcome> managementDuring = management.stream()
                .filter(o -> o.startMs() >= cutAt + 50 && o.endMs() <= restoredAt).toList();
        long firstOk = management.stream().filter(o -> o.startMs() >= restoredAt && o.status() == 200)
                .mapToLong(Outcome::endMs).min().orElse(Long.MAX_VALUE);
        long answered = TestingLoad.count(calls, o -> o.status() == 200);
        System.out.printf("store outage within the bound: calls %s (during the outage %s, longest %d ms);"
                + " management during %s (longest %d ms); first management 200 %d ms after the store returned%n",
                TestingLoad.tally(calls), TestingLoad.tally(during), TestingLoad.longest(calls),
                TestingLoad.tally(managementDuring), TestingLoad.longest(managementDuring), firstOk - restoredAt);
        assertThat(calls).as("every warm call answered 200").allMatch(o -> o.status() == 200);
        assertThat(APP.getEnvironment().metrics().counter("metadata.stale_served").getCount())
                .as("calls served from the metadata cache past its TTL").isPositive();
        assertThat(during).as("calls during the outage, past the metadata cache's TTL")
                .anyMatch(o -> o.startMs() > cutAt + 5_500);
        assertThat(managementDuring).as("management calls during the outage").isNotEmpty()
                .allMatch(o -> o.status() == 503 && "store_unavailable".equals(o.code()), "503 store_unavailable")
                .allMatch(o -> o.millis() < 10_000, "answered within 10 s");
        Reply refused = null;
        // one more refusal, to read its headers
        PROXY.cut();
        try {
            refused = http().get("/api/v1/queries", ADMIN);
        } finally {
            PROXY.restore();
        }
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("5");
        assertThat(refused.json().path("request_id").asText()).isNotEmpty();
        waitFor(() -> eventsStored(run) == answered, 20_000);
        assertThat(eventsStored(run)).as("events written after the store returned").isEqualTo(answered);
        assertThat(dropped().getCount() - droppedBefore).as("events.dropped").isZero();
        waitFor(() -> http().get("/api/v1/queries", ADMIN).status() == 200, 20_000);
        Reply alerts = http().get("/api/v1/alerts", ADMIN);
        assertThat(alerts.body()).contains("store_unavailable");
    }

    @Test
    @Order(2)
    void beyondTheBoundEveryEventIsWrittenOrCountedAsDropped() throws Exception {
        String key = warmKey();
        http().get("/api/v1/queries", ADMIN);
        long droppedBefore = dropped().getCount();
        String run = "so2-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        List<Outcome> calls;
        long restoredAt;
        try (TestingLoad load = TestingLoad.start(4, n -> call(key, run + n))) {
            Thread.sleep(300);
            PROXY.cut();
            waitFor(() -> TestingLoad.count(load.outcomes(), o -> o.status() == 200) > QUEUE * 2L + 50, 40_000);
            Thread.sleep(500);
            PROXY.restore();
            restoredAt = System.currentTimeMillis();
            Thread.sleep(1_000);
            calls = load.stop();
        }
        long answered = TestingLoad.count(calls, o -> o.status() == 200);
        for (int i = 0; i < 200 && eventsStored(run) + dropped().getCount() - droppedBefore != answered; i++) {
            sleep(100);
        }
        long written = eventsStored(run);
        long lost = dropped().getCount() - droppedBefore;
        System.out.printf("store outage beyond the bound (queue %d): calls %s, longest %d ms; events answered %d,"
                + " written %d, dropped %d%n", QUEUE, TestingLoad.tally(calls), TestingLoad.longest(calls), answered,
                written, lost);
        assertThat(calls).allMatch(o -> o.status() == 200);
        assertThat(lost).as("some events beyond the bound were dropped").isPositive();
        assertThat(written + lost).as("written + dropped = answered").isEqualTo(answered);
        assertThat(restoredAt).isPositive();
    }

    private static Reply sleepThenNothing() {
        sleep(50);
        return new Reply(0, "", null);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, long millis) {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out after " + millis + " ms");
            }
            sleep(50);
        }
    }
}
