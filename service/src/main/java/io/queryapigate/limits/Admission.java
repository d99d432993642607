package io.queryapigate.limits;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.errors.ApiException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load shedding per connection: at most as many of a connection's calls run at once as it has sessions (its {@code
 * poolSize}; see ConnectionRegistry's {@code concurrentCalls}), at most {@code maxWaiting} more wait for one of them, each at most {@code maxWait} (and never past its
 * own time limit). A call beyond the waiting bound, or one that waited its longest, is refused at once with 503
 * {@code overloaded} and {@code Retry-After}, so an overloaded connection answers quickly instead of queueing
 * without bound; the refusals are counted ({@code calls.overloaded}). A stream holds its place until it ends, as it
 * holds its session. Gates are per connection object, so a replaced connection starts with a gate of its own.
 */
public final class Admission {
    /** No gate: every call goes straight to its connection's pool (tests, embedded uses). */
    public static final Admission NONE = new Admission(-1, Duration.ZERO, null);

    private final int maxWaiting;
    private final long maxWaitNanos;
    private final Meter refused;
    private final Map<Object, Gate> gates = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * @param maxWaiting calls of one connection that may wait for a session; 0: none waits
     * @param maxWait the longest one waits
     * @param metrics where {@code calls.overloaded} is counted
     */
    public Admission(int maxWaiting, Duration maxWait, MetricRegistry metrics) {
        this.maxWaiting = maxWaiting;
        this.maxWaitNanos = maxWait.toNanos();
        this.refused = metrics == null ? new Meter() : metrics.meter("calls.overloaded");
    }

    /** A call's place on its connection; releasing it twice is harmless. */
    public interface Ticket {
        Ticket NONE = () -> {};

        void release();
    }

    /**
     * Takes a place for one call on a connection, waiting for it when all its sessions are busy.
     *
     * @param connection the connection's identity (its dialect object: a replacement gets a new gate)
     * @param name the connection's name, for the message
     * @param poolSize how many of its calls may run at once; below 1: not gated
     * @param timeLimit the call's time limit, which bounds the wait too
     * @throws ApiException 503 {@code overloaded} with Retry-After when no place frees up in time
     */
    public Ticket enter(Object connection, String name, int poolSize, Duration timeLimit) {
        if (maxWaiting < 0 || poolSize < 1) {
            return Ticket.NONE;
        }
        Gate gate = gates.computeIfAbsent(connection, c -> new Gate(poolSize));
        try {
            // with a timeout, even of 0, the fair semaphore serves the calls already waiting first
            if (!gate.sessions.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                if (gate.waiting.incrementAndGet() > maxWaiting) {
                    gate.waiting.decrementAndGet();
                    throw refuse(name, "all " + poolSize + " sessions are busy and " + maxWaiting
                            + " calls are waiting for one");
                }
                try {
                    long wait = Math.min(maxWaitNanos, timeLimit.toNanos());
                    if (!gate.sessions.tryAcquire(wait, TimeUnit.NANOSECONDS)) {
                        throw refuse(name, "no session of its " + poolSize + " freed up within "
                                + TimeUnit.NANOSECONDS.toMillis(wait) + " ms");
                    }
                } finally {
                    gate.waiting.decrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw refuse(name, "interrupted while waiting for a session");
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                gate.sessions.release();
            }
        };
    }

    /** Calls waiting for a session of this connection now. */
    public int waiting(Object connection) {
        Gate g = gates.get(connection);
        return g == null ? 0 : g.waiting.get();
    }

    private ApiException refuse(String name, String why) {
        refused.mark();
        return new ApiException(503, "overloaded", "The connection '" + name + "' is overloaded: " + why
                + " - retry shortly.").with("connection", name).retryAfter(1);
    }

    private static final class Gate {
        final Semaphore sessions;
        final AtomicInteger waiting = new AtomicInteger();

        Gate(int poolSize) {
            this.sessions = new Semaphore(poolSize, true);
        }
    }
}
