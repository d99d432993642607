package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SessionPermitsTest {

    @Test
    void aCallWaitsAtMostItsLimitForAPermitAndSaysWhichConnection() {
        SessionPermits permits = new SessionPermits("SQLite", "shop", 1);
        permits.acquire(SessionPermits.deadline(Duration.ofSeconds(1)), Duration.ofSeconds(1));
        long start = System.nanoTime();
        DialectException e = catchThrowableOfType(DialectException.class,
                () -> permits.acquire(SessionPermits.deadline(Duration.ofMillis(200)), Duration.ofMillis(200)));
        long waited = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.getMessage()).isEqualTo("no SQLite session of connection 'shop' (pool size 1) freed up within 200 ms");
        assertThat(waited).isBetween(150L, 5_000L);
        permits.release();
        permits.acquire(SessionPermits.deadline(Duration.ofMillis(10)), Duration.ofMillis(10));
    }

    @Test
    void deadlinesSaturateAndWhatIsLeftIsNeverZero() {
        assertThat(SessionPermits.deadline(Duration.ofSeconds(Long.MAX_VALUE))).isGreaterThan(System.nanoTime());
        assertThat(SessionPermits.left(System.nanoTime() - 1_000)).isEqualTo(Duration.ofNanos(1));
        assertThat(SessionPermits.left(SessionPermits.deadline(Duration.ofSeconds(10)))).isBetween(Duration.ofSeconds(9),
                Duration.ofSeconds(10));
    }
}
