package io.queryapigate.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.queryapigate.errors.ApiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdmissionTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private final MetricRegistry metrics = new MetricRegistry();
    private final Object connection = new Object();

    @Test
    void callsBeyondThePoolWaitAndOneMoreThanTheWaitingBoundIsRefusedAtOnce() throws Exception {
        Admission a = new Admission(1, Duration.ofSeconds(10), metrics);
        Admission.Ticket first = a.enter(connection, "maria", 1, LIMIT);
        CompletableFuture<Admission.Ticket> second = CompletableFuture.supplyAsync(
                () -> a.enter(connection, "maria", 1, LIMIT));
        while (a.waiting(connection) == 0) {
            Thread.sleep(5);
        }
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> a.enter(connection, "maria", 1, LIMIT)).isInstanceOfSatisfying(ApiException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.code()).isEqualTo("overloaded");
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                    assertThat(e.getMessage()).contains("'maria'");
                });
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5)); // at once, not after a wait
        assertThat(second).isNotDone();
        first.release();
        first.release(); // twice is harmless: it must not free a second place
        second.get(5, TimeUnit.SECONDS);
        assertThatThrownBy(() -> a.enter(connection, "maria", 1, Duration.ofMillis(50)))
                .isInstanceOf(ApiException.class);
        assertThat(metrics.meter("calls.overloaded").getCount()).isEqualTo(2);
    }

    @Test
    void aCallThatWaitedItsLongestIsRefusedAndTheWaitIsBoundedByItsTimeLimit() {
        Admission a = new Admission(10, Duration.ofMillis(200), metrics);
        a.enter(connection, "c", 1, LIMIT);
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> a.enter(connection, "c", 1, LIMIT)).hasMessageContaining("within 200 ms");
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        assertThatThrownBy(() -> a.enter(connection, "c", 1, Duration.ofMillis(20)))
                .hasMessageContaining("within 20 ms");
        assertThat(a.waiting(connection)).isZero();
    }

    @Test
    void eachConnectionObjectHasAGateOfItsOwnAndNoneAndMinusOneLetEverythingThrough() {
        Admission a = new Admission(0, Duration.ofSeconds(1), metrics);
        a.enter(connection, "c", 1, LIMIT);
        a.enter(new Object(), "c", 1, LIMIT); // a replacement of the connection: its own gate
        assertThatThrownBy(() -> a.enter(connection, "c", 1, LIMIT)).isInstanceOf(ApiException.class);
        Admission off = new Admission(-1, Duration.ofSeconds(1), metrics);
        for (int i = 0; i < 5; i++) {
            off.enter(connection, "c", 1, LIMIT);
            Admission.NONE.enter(connection, "c", 1, LIMIT);
        }
        a.enter(new Object(), "unpooled", 0, LIMIT); // a connection without a pool size (tests) is not gated
    }
}
