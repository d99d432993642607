package io.queryapigate.limits;

import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A key's {@code max_concurrent}: how many of its calls run at once on this instance, counted from the moment one
 * goes to the database until its last row is written (a stream holds its slot while it streams). One more is refused
 * with 429 {@code too_many_concurrent}. Each slot is a lease that ends on its own after the call's time limit (for a
 * stream, at least an hour) plus a margin, so a slot never released cannot lock a key out.
 */
public final class Concurrency {
    private static final long STREAM_LEASE_NANOS = Duration.ofHours(1).toNanos();

    private final ConcurrentMap<Long, Running> byKey = new ConcurrentHashMap<>();
    private final long marginNanos;

    /** Leases of the call's time limit plus 30 seconds. */
    public Concurrency() {
        this(Duration.ofSeconds(30));
    }

    /** Leases of the call's time limit plus {@code margin}. */
    Concurrency(Duration margin) {
        this.marginNanos = margin.toNanos();
    }

    /** A call's place among its key's running calls; releasing it twice is harmless. */
    public interface Slot {
        Slot NONE = () -> {};

        void release();
    }

    /**
     * Takes a slot for one call of this caller, or refuses it.
     *
     * @param timeLimit the call's time limit, which bounds the lease
     * @param stream whether the call streams (its rows are written after the database answered)
     * @throws ApiException 429 {@code too_many_concurrent} when the key's calls are all running
     */
    public Slot acquire(Caller caller, Duration timeLimit, boolean stream) {
        Integer max = caller.grants().maxConcurrent();
        if (max == null || caller.admin()) {
            return Slot.NONE;
        }
        long lease = Math.max(timeLimit.toNanos(), stream ? STREAM_LEASE_NANOS : 0) + marginNanos;
        Running running = byKey.computeIfAbsent(caller.keyId(), k -> new Running());
        Slot slot = running.tryAcquire(max, System.nanoTime() + lease);
        if (slot == null) {
            throw new ApiException(429, "too_many_concurrent", "This caller already has " + max
                    + " queries running, its max_concurrent - retry when one finishes")
                    .with("max_concurrent", max).retryAfter(1);
        }
        return slot;
    }

    /** One key's running calls, by the end of their leases. */
    private static final class Running {
        private final List<Lease> leases = new ArrayList<>(4);

        synchronized Slot tryAcquire(int max, long until) {
            long now = System.nanoTime();
            leases.removeIf(l -> l.until - now < 0);
            if (leases.size() >= max) {
                return null;
            }
            Lease lease = new Lease(until);
            leases.add(lease);
            return () -> release(lease);
        }

        private synchronized void release(Lease lease) {
            leases.remove(lease);
        }
    }

    private static final class Lease {
        final long until;

        Lease(long until) {
            this.until = until;
        }
    }
}
