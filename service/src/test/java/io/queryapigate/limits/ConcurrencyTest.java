package io.queryapigate.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.errors.ApiException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {
    private static Caller key(long id, Integer maxConcurrent) {
        return new Caller(id, "k" + id, false, new Grants(List.of("*"), null, false, false, null, null, null, null,
                null, null, null, maxConcurrent, null));
    }

    @Test
    void refusesOneMoreUntilASlotIsReleased() {
        Concurrency c = new Concurrency();
        Caller two = key(1, 2);
        Concurrency.Slot a = c.acquire(two, Duration.ofSeconds(30), false);
        Concurrency.Slot b = c.acquire(two, Duration.ofSeconds(30), true);
        assertThatThrownBy(() -> c.acquire(two, Duration.ofSeconds(30), false)).isInstanceOfSatisfying(
                ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(429);
                    assertThat(e.code()).isEqualTo("too_many_concurrent");
                    assertThat(e.retryAfterSeconds()).isEqualTo(1);
                    assertThat(e.extra()).containsEntry("max_concurrent", 2);
                });
        assertThat(c.acquire(key(2, 2), Duration.ofSeconds(30), false)).as("another key's slots").isNotNull();
        a.release();
        a.release(); // twice is harmless: it frees one slot, not two
        c.acquire(two, Duration.ofSeconds(30), false);
        assertThatThrownBy(() -> c.acquire(two, Duration.ofSeconds(30), false)).isInstanceOf(ApiException.class);
        b.release();
    }

    @Test
    void keysWithoutTheLimitAndTheAdministratorTakeNoSlot() {
        Concurrency c = new Concurrency();
        for (int i = 0; i < 100; i++) {
            assertThat(c.acquire(key(3, null), Duration.ofSeconds(1), false)).isSameAs(Concurrency.Slot.NONE);
        }
        Caller admin = new Caller(Caller.ADMIN_KEY_ID, "admin", true, key(0, 1).grants());
        assertThat(c.acquire(admin, Duration.ofSeconds(1), false)).isSameAs(Concurrency.Slot.NONE);
    }

    @Test
    void aSlotNeverReleasedEndsWithItsLease() throws Exception {
        Concurrency c = new Concurrency(Duration.ofMillis(10));
        Caller one = key(4, 1);
        c.acquire(one, Duration.ofMillis(40), false); // a lease of 50 ms: the time limit and the margin
        assertThatThrownBy(() -> c.acquire(one, Duration.ofSeconds(1), false)).isInstanceOf(ApiException.class);
        Thread.sleep(100);
        assertThat(c.acquire(one, Duration.ofSeconds(1), false)).isNotNull();
    }
}
