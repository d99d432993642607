package io.queryapigate.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;

/** Per-process token buckets, bounded (idle buckets are forgotten, which only ever refills). */
public final class LocalLimiter implements Limiter {
    private static final class Bucket {
        double tokens;
        long updatedNanos;
    }

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder().maximumSize(200_000)
            .expireAfterAccess(Duration.ofHours(1)).build();

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
}
