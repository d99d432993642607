package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The {@code poolSize} of a dialect that opens a session per call (an embedded engine: SQLite, DuckDB): a fair
 * semaphore of that many permits, taken for a call within its time limit, with the deadline arithmetic such calls
 * share. Thread-safe.
 *
 * <p>Usage: {@code long deadline = SessionPermits.deadline(request.timeout()); permits.acquire(deadline,
 * request.timeout()); try { ... } finally { permits.release(); }}
 */
public final class SessionPermits {
    private final Semaphore permits;
    private final String engine;
    private final String connectionName;
    private final int poolSize;

    /**
     * Permits for one connection.
     *
     * @param engine the engine's name for messages, such as {@code SQLite}
     * @param connectionName the connection's name for messages
     * @param poolSize the number of permits; at least 1
     */
    public SessionPermits(String engine, String connectionName, int poolSize) {
        this.engine = requireNonNull(engine, "engine is null");
        this.connectionName = requireNonNull(connectionName, "connectionName is null");
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be at least 1");
        }
        this.poolSize = poolSize;
        this.permits = new Semaphore(poolSize, true);
    }

    /**
     * Takes one permit, waiting until {@code deadline} at most.
     *
     * @param deadline the call's deadline on {@link System#nanoTime()}'s clock
     * @param limit the call's time limit, for the message
     * @throws DialectException with {@link DialectError#UNAVAILABLE} when none freed up in time, {@link
     *     DialectError#CANCELLED} when the thread was interrupted
     */
    public void acquire(long deadline, Duration limit) {
        try {
            if (!permits.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.UNAVAILABLE, "no " + engine + " session of connection '"
                        + connectionName + "' (pool size " + poolSize + ") freed up within " + limit.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for a " + engine + " session");
        }
    }

    /** Gives a permit back; once per successful {@link #acquire}. */
    public void release() {
        permits.release();
    }

    /**
     * The deadline of a call that starts now.
     *
     * @param limit the call's time limit
     * @return {@link System#nanoTime()} plus the limit, saturated for limits too long for a {@code long}
     */
    public static long deadline(Duration limit) {
        long nanos;
        try {
            nanos = limit.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE / 4;
        }
        return System.nanoTime() + Math.min(nanos, Long.MAX_VALUE / 4);
    }

    /**
     * What is left of a call's time until {@code deadline}.
     *
     * @param deadline the deadline on {@link System#nanoTime()}'s clock
     * @return the time left; at least one nanosecond, so that it is a valid limit
     */
    public static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }
}
