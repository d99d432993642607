package io.queryapigate.cache;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * How a user of Redis rides out a failure: after one, Redis is skipped for the retry period (the caller falls back
 * to what it has locally), each failure is counted in a metric, and logged at most once a minute.
 */
public final class RedisOutage {
    private static final long LOG_EVERY_MILLIS = 60_000;

    private final Clock clock;
    private final long retryMillis;
    private final Counter failures;
    private final Logger log;
    private final String what;
    private final String fallback;
    private final AtomicLong downUntil = new AtomicLong();
    private final AtomicLong lastLog = new AtomicLong();

    /**
     * @param metric the failure counter's name ({@code cache.redis.failures})
     * @param what what is unavailable, for the log ({@code Redis response cache unavailable})
     * @param fallback what is done instead, for the log ({@code serving from the local cache})
     */
    public RedisOutage(Clock clock, long retryMillis, MetricRegistry metrics, String metric, Logger log, String what,
            String fallback) {
        this.clock = clock;
        this.retryMillis = retryMillis;
        this.failures = metrics.counter(metric);
        this.log = log;
        this.what = what;
        this.fallback = fallback;
    }

    /** Whether Redis may be tried now. */
    public boolean up() {
        return clock.millis() >= downUntil.get();
    }

    /** Records a failure: Redis is skipped for the retry period. */
    public void failed(RuntimeException e) {
        failures.inc();
        long now = clock.millis();
        downUntil.set(now + retryMillis);
        long last = lastLog.get();
        if (now - last >= LOG_EVERY_MILLIS && lastLog.compareAndSet(last, now)) {
            log.warn("{} ({}); {}, retrying every {} ms", what, e.getMessage(), fallback, retryMillis);
        }
    }
}
