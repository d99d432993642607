package io.queryapigate.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.lang.management.ManagementFactory;

/**
 * {@code jvm.allocated.bytes}: the bytes allocated on the heap by every thread since the JVM started (HotSpot's
 * per-thread counters, exited threads included). Its difference over a number of calls is the allocation per call,
 * which the benchmark reports; reading it costs a walk over the live threads, so it is meant for scrapes, not for the
 * call path.
 */
public final class AllocationGauge {
    private AllocationGauge() {}

    /** Registers the gauge when the JVM can count allocations (HotSpot can); otherwise does nothing. */
    public static void register(MetricRegistry metrics) {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()) {
            threads.setThreadAllocatedMemoryEnabled(true);
            metrics.register("jvm.allocated.bytes", (Gauge<Long>) threads::getTotalThreadAllocatedBytes);
        }
    }
}
