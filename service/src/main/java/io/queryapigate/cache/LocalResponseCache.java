package io.queryapigate.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** In-process, bounded by the bytes of the bodies it holds; each entry lives until its own expiry. */
public final class LocalResponseCache implements ResponseCache {
    private final Cache<String, CachedResponse> entries;
    private final Clock clock;

    public LocalResponseCache(long maxBytes, Clock clock) {
        this.clock = clock;
        this.entries = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String k, CachedResponse v) -> v.body().length + k.length() + 64)
                .expireAfter(new Expiry<String, CachedResponse>() {
                    @Override
                    public long expireAfterCreate(String key, CachedResponse value, long currentTime) {
                        return TimeUnit.MILLISECONDS.toNanos(Math.max(0, value.expiresAtMillis() - clock.millis()));
                    }

                    @Override
                    public long expireAfterUpdate(String key, CachedResponse value, long currentTime,
                            long currentDuration) {
                        return expireAfterCreate(key, value, currentTime);
                    }

                    @Override
                    public long expireAfterRead(String key, CachedResponse value, long currentTime,
                            long currentDuration) {
                        return currentDuration;
                    }
                })
                .build();
    }

    @Override
    public Optional<CachedResponse> get(String key) {
        CachedResponse r = entries.getIfPresent(key);
        return r == null || r.expiresAtMillis() <= clock.millis() ? Optional.empty() : Optional.of(r);
    }

    @Override
    public void put(String key, CachedResponse response) {
        entries.put(key, response);
    }

    @Override
    public List<Entry> entries() {
        long now = clock.millis();
        List<Entry> out = new ArrayList<>();
        entries.asMap().forEach((k, v) -> {
            if (v.expiresAtMillis() > now) {
                out.add(new Entry(k, v));
            }
        });
        return out;
    }

    @Override
    public void delete(String key) {
        entries.invalidate(key);
    }

    public long size() {
        return entries.estimatedSize();
    }
}
