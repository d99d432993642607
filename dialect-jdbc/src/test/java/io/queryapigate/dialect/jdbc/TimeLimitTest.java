package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TimeLimitTest {

    @Test
    void firesAfterTheLimitAndRemembersItWasTheTimeout() throws InterruptedException {
        CountDownLatch cancelled = new CountDownLatch(1);
        long start = System.nanoTime();
        try (TimeLimit limit = TimeLimit.start(Duration.ofMillis(100), cancelled::countDown)) {
            assertThat(limit.stopped()).isFalse();
            assertThat(cancelled.await(5, TimeUnit.SECONDS)).isTrue();
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).isBetween(90L, 2_000L);
            assertThat(limit.timedOut()).isTrue();
            assertThat(limit.stopped()).isTrue();
            assertThat(limit.stopReason()).isEqualTo(TimeLimit.StopReason.TIMEOUT);
        }
    }

    @Test
    void doesNotFireWhenClosedInTime() throws InterruptedException {
        AtomicInteger cancels = new AtomicInteger();
        TimeLimit limit = TimeLimit.start(Duration.ofMillis(150), cancels::incrementAndGet);
        limit.close();
        Thread.sleep(400);
        assertThat(cancels).hasValue(0);
        assertThat(limit.stopped()).isFalse();
        assertThat(limit.stopReason()).isEqualTo(TimeLimit.StopReason.NONE);
    }

    @Test
    void anExplicitCancelIsNotATimeoutAndWinsOverALaterTimeout() throws InterruptedException {
        AtomicInteger cancels = new AtomicInteger();
        try (TimeLimit limit = TimeLimit.start(Duration.ofMillis(200), cancels::incrementAndGet)) {
            limit.cancel();
            assertThat(cancels).hasValue(1);
            Thread.sleep(350);
            assertThat(limit.stopReason()).isEqualTo(TimeLimit.StopReason.CANCELLED);
            assertThat(limit.timedOut()).isFalse();
        }
    }

    @Test
    void keepsCancellingUntilClosedThenNeverAgain() throws InterruptedException {
        AtomicInteger cancels = new AtomicInteger();
        TimeLimit limit = TimeLimit.start(Duration.ofMillis(10), cancels::incrementAndGet);
        Thread.sleep(10 + 3 * TimeLimit.REPEAT_MILLIS + 80);
        assertThat(cancels.get()).isGreaterThanOrEqualTo(3);
        limit.close();
        int afterClose = cancels.get();
        Thread.sleep(3 * TimeLimit.REPEAT_MILLIS);
        assertThat(cancels).hasValue(afterClose);
    }

    @Test
    void cancelAfterCloseDoesNothing() {
        AtomicInteger cancels = new AtomicInteger();
        TimeLimit limit = TimeLimit.start(Duration.ofSeconds(30), cancels::incrementAndGet);
        limit.close();
        limit.cancel();
        limit.close();
        assertThat(cancels).hasValue(0);
        assertThat(limit.stopped()).isFalse();
    }

    @Test
    void closeWaitsForACancelInProgress() throws InterruptedException {
        CountDownLatch inCancel = new CountDownLatch(1);
        AtomicInteger finished = new AtomicInteger();
        TimeLimit limit = TimeLimit.start(Duration.ofMillis(1), () -> {
            inCancel.countDown();
            sleep(300);
            finished.incrementAndGet();
        });
        assertThat(inCancel.await(5, TimeUnit.SECONDS)).isTrue();
        limit.close();
        assertThat(finished).hasValue(1);
    }

    @Test
    void aFailingCancellerIsRecordedNotThrown() throws InterruptedException {
        SQLException failure = new SQLException("driver says no");
        try (TimeLimit limit = TimeLimit.start(Duration.ofSeconds(30), () -> {
            throw failure;
        })) {
            limit.cancel();
            assertThat(limit.stopped()).isTrue();
            assertThat(limit.lastCancelFailure()).isSameAs(failure);
        }
    }

    @Test
    void aZeroOrNegativeLimitFiresAtOnce() throws InterruptedException {
        CountDownLatch cancelled = new CountDownLatch(1);
        try (TimeLimit limit = TimeLimit.start(Duration.ofSeconds(-1), cancelled::countDown)) {
            assertThat(cancelled.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(limit.timedOut()).isTrue();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
