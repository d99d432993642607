package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The time limit of one call: cancels the running statement when the limit passes, and remembers why the call was
 * stopped, so that the dialect reports {@link io.queryapigate.dialect.spi.DialectError#TIMEOUT} rather than
 * {@link io.queryapigate.dialect.spi.DialectError#CANCELLED} (most drivers throw the same exception for both).
 *
 * <p>All limits share one scheduler with one daemon thread, which also runs the cancels; a cancel should
 * therefore be quick (DuckDB's is a flag, PostgreSQL's one short connection). Once the limit has fired, or {@link
 * #cancel()} was called, the canceller is called again every {@value #REPEAT_MILLIS} ms until the call ends,
 * because a cancel that lands just before the driver starts executing is a no-op in some drivers.
 *
 * <p>Usage, on the thread running the call:
 *
 * <pre>{@code
 * try (TimeLimit limit = TimeLimit.start(remaining, statement)) {
 *     sink.onCancellable(limit::cancel);
 *     ... execute, read with limit::stopped ...
 *     if (limit.stopped()) throw ... limit.stopReason() ...
 * } catch (SQLException e) {
 *     ... limit.stopReason() decides TIMEOUT or CANCELLED before the SQLSTATE does ...
 * }
 * }</pre>
 *
 * <p>After {@link #close()} returns the canceller is never called again, so the statement and its connection may
 * be closed right after. Thread-safe.
 */
public final class TimeLimit implements AutoCloseable {

    /** How often a fired limit calls the canceller again until the call ends, in milliseconds. */
    public static final long REPEAT_MILLIS = 100;

    private static final ScheduledThreadPoolExecutor TIMER = createTimer();

    private final Canceller canceller;
    private final Object lock = new Object();
    private volatile StopReason reason = StopReason.NONE;
    private ScheduledFuture<?> timeoutTask; // guarded by lock
    private boolean closed; // guarded by lock
    private ScheduledFuture<?> repeatTask; // guarded by lock
    private Exception lastCancelFailure; // guarded by lock

    private TimeLimit(Canceller canceller) {
        this.canceller = canceller;
    }

    private TimeLimit arm(Duration limit) {
        long nanos = Math.max(1, saturatedNanos(limit));
        ScheduledFuture<?> task = TIMER.schedule(() -> stop(StopReason.TIMEOUT), nanos, TimeUnit.NANOSECONDS);
        synchronized (lock) {
            timeoutTask = task;
        }
        return this;
    }

    /**
     * Arms a limit that calls {@code canceller} when {@code limit} has passed.
     *
     * @param limit the time left for the call; zero or negative fires at once
     * @param canceller stops the running statement; called from the timer thread, or from the thread calling
     *     {@link #cancel()}
     * @return the armed limit; close it when the call ends
     */
    public static TimeLimit start(Duration limit, Canceller canceller) {
        requireNonNull(limit, "limit is null");
        requireNonNull(canceller, "canceller is null");
        return new TimeLimit(canceller).arm(limit);
    }

    /**
     * Arms a limit that calls {@link Statement#cancel()} when {@code limit} has passed.
     *
     * @param limit the time left for the call
     * @param statement the statement to cancel
     * @return the armed limit; close it when the call ends
     */
    public static TimeLimit start(Duration limit, Statement statement) {
        requireNonNull(statement, "statement is null");
        return start(limit, statement::cancel);
    }

    /**
     * Stops the call now, for a reason other than the time limit (for example the caller went away). Does
     * nothing when the call was already stopped or has ended. May be called from any thread, any number of times.
     */
    public void cancel() {
        stop(StopReason.CANCELLED);
    }

    /**
     * Whether the call was stopped, by the time limit or by {@link #cancel()}.
     *
     * @return true once stopped
     */
    public boolean stopped() {
        return reason != StopReason.NONE;
    }

    /**
     * Whether the time limit stopped the call.
     *
     * @return true when the limit fired before the call ended (and before any {@link #cancel()})
     */
    public boolean timedOut() {
        return reason == StopReason.TIMEOUT;
    }

    /**
     * Why the call was stopped; the first reason wins.
     *
     * @return the reason, {@link StopReason#NONE} while running normally
     */
    public StopReason stopReason() {
        return reason;
    }

    /**
     * The last exception the canceller threw, for diagnostics.
     *
     * @return the exception, or null
     */
    public Exception lastCancelFailure() {
        synchronized (lock) {
            return lastCancelFailure;
        }
    }

    /** Disarms the limit. After it returns the canceller is not running and will not run again. Idempotent. */
    @Override
    public void close() {
        ScheduledFuture<?> timeout;
        ScheduledFuture<?> repeat;
        synchronized (lock) {
            closed = true;
            timeout = timeoutTask;
            repeat = repeatTask;
        }
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (repeat != null) {
            repeat.cancel(false);
        }
    }

    private void stop(StopReason why) {
        synchronized (lock) {
            if (closed || reason != StopReason.NONE) {
                return;
            }
            reason = why;
            cancelNow();
            repeatTask = TIMER.scheduleWithFixedDelay(this::repeat, REPEAT_MILLIS, REPEAT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void repeat() {
        synchronized (lock) {
            if (!closed) {
                cancelNow();
            }
        }
    }

    // holds lock: close() waits for a cancel in progress, so no cancel reaches a closed statement
    private void cancelNow() {
        try {
            canceller.cancel();
        } catch (SQLException | RuntimeException e) {
            lastCancelFailure = e;
        }
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return duration.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    private static ScheduledThreadPoolExecutor createTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "queryapigate-statement-timer");
            thread.setDaemon(true);
            return thread;
        });
        // cancelled limits leave the queue at once instead of when they would have fired
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** Why a call was stopped. */
    public enum StopReason {
        /** Not stopped. */
        NONE,
        /** The time limit passed. */
        TIMEOUT,
        /** {@link TimeLimit#cancel()} was called first. */
        CANCELLED
    }

    /** Stops a running statement. */
    @FunctionalInterface
    public interface Canceller {
        /**
         * Cancels, or does nothing if there is nothing to cancel.
         *
         * @throws SQLException when the driver fails; recorded, not rethrown
         */
        void cancel() throws SQLException;
    }
}
