package com.example.qag.derby;

import io.queryapigate.dialect.spi.DialectError;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Stops one running Derby statement at its time limit or when the caller cancels, by interrupting the thread that
 * runs it.
 *
 * <p>Embedded Derby does not implement {@code Statement.cancel()} (it throws {@code SQLFeatureNotSupportedException})
 * and its {@code setQueryTimeout} counts whole seconds, so a 300 ms limit would become 1 s. What Derby does support is
 * an interrupt: at its next check it abandons the statement, throws SQLSTATE 08000 and closes the connection, which
 * the dialect then replaces. The interrupt is only ever sent while the statement runs ({@link #start} to {@link
 * #finish}), and {@link #finish} clears it from the thread, so it never reaches the caller's code.
 */
final class Stopper {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "qag-derby-time-limit");
        thread.setDaemon(true);
        return thread;
    });

    private Thread running;
    private DialectError reason;
    private ScheduledFuture<?> timer;

    /**
     * Arms the time limit for the current thread's statement.
     *
     * @param limit the time left
     */
    synchronized void start(Duration limit) {
        running = Thread.currentThread();
        timer = TIMER.schedule(() -> stop(DialectError.TIMEOUT), Math.max(1, limit.toNanos()), TimeUnit.NANOSECONDS);
    }

    /** Stops the statement as cancelled by the caller; does nothing once it has finished. */
    void cancel() {
        stop(DialectError.CANCELLED);
    }

    private synchronized void stop(DialectError why) {
        if (running != null && reason == null) {
            reason = why;
            running.interrupt();
        }
    }

    /**
     * Ends the statement's watch: no interrupt is sent after this, and one sent before is cleared from the thread.
     *
     * @return why the statement was stopped, or null if it was not
     */
    synchronized DialectError finish() {
        if (timer != null) {
            timer.cancel(false);
        }
        if (running != null && reason != null) {
            Thread.interrupted();
        }
        running = null;
        return reason;
    }

    /** @return why the statement was stopped, or null */
    synchronized DialectError reason() {
        return reason;
    }
}
