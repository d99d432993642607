package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Load shedding on the real MariaDB: a connection with a pool of 2 (and 2 writers: 4 calls at once), at most 4 calls
 * waiting and 1 s of wait, under 40 callers at once running half-second statements. The calls beyond the bound are refused at once with 503
 * {@code overloaded} and {@code Retry-After}, the others run; no call is answered later than its time limit (5 s)
 * plus 2 s; calls on another connection and {@code /health} keep answering meanwhile; the refusals are counted;
 * once the load stops the connection serves again at once.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OverloadIT {
    private static final TestServers.Server SERVER = TestServers.mariadb();
    private static final long TIME_LIMIT_MS = 5_000;
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.write("  maria:\n    dialect: mysql\n    url: " + SERVER.url()
                    + "\n    user: " + SERVER.user() + "\n    password: " + SERVER.password() + "\n    poolSize: 2\n"
                    + TestingConfig.demoConnection(),
                    "limits:\n  queryTimeout: " + TIME_LIMIT_MS + "ms\n  maxWaitingCalls: 4\n  maxWait: 1s\n")
                    .toString());
    private static Http http;
    private static String reader;

    @BeforeAll
    static void key() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        reader = http.key("overload-reader", Map.of("connections", List.of("maria", "demo"), "adhoc_sql", true));
    }

    private record Answer(Reply reply, long millis) {}

    @Test
    void beyondThePoolAndItsWaitingBoundCallsAreRefusedAtOnceWithRetryAfterAndOthersAreServed() throws Exception {
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < 40; t++) {
            callers.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 4; i++) {
                    long t0 = System.nanoTime();
                    Reply r = http.sql(reader, "maria", "SELECT SLEEP(0.5) AS slept");
                    answers.add(new Answer(r, (System.nanoTime() - t0) / 1_000_000));
                }
            }));
        }
        // meanwhile: the other connection and /health answer
        AtomicBoolean loaded = new AtomicBoolean(true);
        List<Answer> others = new ArrayList<>();
        Thread other = Thread.ofVirtual().start(() -> {
            while (loaded.get()) {
                long t0 = System.nanoTime();
                Reply r = http.sql(reader, "demo", "SELECT 1 AS one");
                others.add(new Answer(r, (System.nanoTime() - t0) / 1_000_000));
                others.add(new Answer(http.get("/health", null), 0));
            }
        });
        for (Thread t : callers) {
            t.join();
        }
        loaded.set(false);
        other.join();

        List<Answer> ok = answers.stream().filter(a -> a.reply().status() == 200).toList();
        List<Answer> refused = answers.stream().filter(a -> a.reply().status() != 200).toList();
        assertThat(answers).hasSize(160);
        assertThat(ok).isNotEmpty();
        assertThat(refused).as("40 callers on 4 sessions and 4 places to wait").isNotEmpty();
        for (Answer a : refused) {
            a.reply().assertRefused(503, "overloaded");
            assertThat(a.reply().header("Retry-After")).as(a.reply().body()).isEqualTo("1");
            assertThat(a.reply().json().path("connection").asText()).isEqualTo("maria");
        }
        for (Answer a : answers) {
            assertThat(a.millis()).as("answered within its time limit + 2 s").isLessThan(TIME_LIMIT_MS + 2_000);
        }
        assertThat(others).isNotEmpty().allSatisfy(a -> assertThat(a.reply().status()).as(a.reply().body())
                .isEqualTo(200));

        long counted = new Http("http://127.0.0.1:" + APP.getAdminPort()).get("/metrics/json", null).json()
                .path("meters").path("calls.overloaded").path("count").asLong();
        assertThat(counted).isGreaterThanOrEqualTo(refused.size());
        // the load gone, the connection serves at once
        for (int i = 0; i < 3; i++) {
            Reply r = http.sql(reader, "maria", "SELECT 1 AS one");
            assertThat(r.status()).as(r.body()).isEqualTo(200);
        }
        System.out.printf("OverloadIT: %d answered 200, %d refused 503 overloaded (%d of them within 200 ms);"
                + " slowest answer %d ms%n", ok.size(), refused.size(), refused.stream().filter(a -> a.millis() < 200)
                .count(), answers.stream().mapToLong(Answer::millis).max().orElse(0));
    }
}
