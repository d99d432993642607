package io.queryapigate.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;

/** Per-process token buckets and quota windows, bounded (idle buckets are forgotten, which only ever refills). */
public final class LocalLimiter implements Limiter {
    private static final class Bucket {
        double tokens;
        long updatedNanos;
        long window;
        long used;
    }

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterAccess(Duration.ofHours(1)).build();
    private final Cache<String, Bucket> quotas = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterAccess(Duration.ofDays(31)).build();
    private final Clock clock;

    public LocalLimiter(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Decision tryAcquire(String bucketId, Rate rate) {
        long now = System.nanoTime();
        Bucket b = buckets.get(bucketId + "|" + rate.text(), k -> {
            Bucket fresh = new Bucket();
            fresh.tokens = rate.count();
            fresh.updatedNanos = now;
            return fresh;
        });
        double perNano = rate.count() / (double) rate.period().toNanos();
        synchronized (b) {
            b.tokens = Math.min(rate.count(), b.tokens + (now - b.updatedNanos) * perNano);
            b.updatedNanos = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return new Decision(true, rate.count(), (long) Math.floor(b.tokens), 0);
            }
            long waitNanos = (long) Math.ceil((1 - b.tokens) / perNano);
            return new Decision(false, rate.count(), 0, Math.max(1, waitNanos / 1_000_000));
        }
    }

    @Override
    public Decision tryQuota(String bucketId, Rate quota) {
        long periodMillis = quota.period().toMillis();
        long nowMillis = clock.millis();
        long window = nowMillis / periodMillis;
        Bucket b = quotas.get(bucketId + "|" + quota.text(), k -> new Bucket());
        synchronized (b) {
            if (b.window != window) {
                b.window = window;
                b.used = 0;
            }
            if (b.used < quota.count()) {
                b.used++;
                return new Decision(true, quota.count(), quota.count() - b.used, 0);
            }
            return new Decision(false, quota.count(), 0, (window + 1) * periodMillis - nowMillis);
        }
    }
}
