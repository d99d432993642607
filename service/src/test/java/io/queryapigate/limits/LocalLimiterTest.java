package io.queryapigate.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalLimiterTest {
    @Test
    void aBucketIsExactUnderEightThreads() throws Exception {
        LocalLimiter limiter = new LocalLimiter();
        Rate rate = Rate.parse("50/hour");
        AtomicInteger allowed = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 50; i++) {
                    if (limiter.tryAcquire("k", rate).allowed()) {
                        allowed.incrementAndGet();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(allowed.get()).isEqualTo(50);
        Limiter.Decision refused = limiter.tryAcquire("k", rate);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.retryAfterMillis()).isBetween(1L, Duration.ofHours(1).toMillis() / 50 + 1);
        assertThat(limiter.tryAcquire("other", rate).allowed()).as("buckets are independent").isTrue();
    }

    @Test
    void ratesParseOrNameTheForms() {
        assertThat(Rate.parse("100 / minutes").period()).isEqualTo(Duration.ofMinutes(1));
        for (String bad : List.of("fast", "0/minute", "10/week", "-5/second", "60", "/minute", "5 per minute")) {
            assertThatThrownBy(() -> Rate.parse(bad)).hasMessageContaining("N/second");
        }
    }
}
