package io.queryapigate.store;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import io.queryapigate.store.Store;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * What the hot path reads from the store, kept for a TTL: keys by hash (unknown hashes too, so wrong keys cannot
 * hammer the store), API-key roles by name (a key made from one, a signed-in user's role claim) and saved queries by
 * name (their published version). Query versions never change: the call
 * pipeline keeps what it derives from them ({@code call.SavedQueryResolver}). A TTL of zero reads the store on every call. Changes made through this instance
 * invalidate the affected entries at once; other instances see them within the TTL.
 *
 * <p>While the store cannot be reached ({@link StoreFaults.Kind#UNAVAILABLE}), an entry past its TTL is served as
 * it was, for up to {@value #STALE_MINUTES} minutes after it was read, and the store is tried again for it once a
 * second at most: warm calls keep working through a store outage ({@code metadata.stale_served} counts them).
 */
public final class MetadataCache {
    static final long STALE_MINUTES = 10;
    private static final long RETRY_NANOS = 1_000_000_000L;

    private final Store store;
    private final boolean enabled;
    private final long ttlNanos;
    private final long staleNanos;
    private final Cache<String, Stamped<Object>> keys;
    private final Cache<String, Stamped<SavedQueryRow>> queries;
    private final Cache<String, Stamped<Object>> roles;
    private final int maxVersions;
    private final Counter storeReads;
    private final Counter staleServed;

    /** A value as read from the store, when it was read, and when it may be read again (after a failed try). */
    private record Stamped<V>(Optional<V> value, long readNanos, long nextTryNanos) {}

    public MetadataCache(Store store, Duration ttl, int maxEntries, MetricRegistry metrics) {
        this.store = store;
        this.enabled = !ttl.isZero() && !ttl.isNegative();
        this.ttlNanos = enabled ? ttl.toNanos() : 1;
        this.staleNanos = ttlNanos + Duration.ofMinutes(STALE_MINUTES).toNanos();
        Duration keep = Duration.ofNanos(enabled ? staleNanos : 1);
        this.keys = Caffeine.newBuilder().expireAfterWrite(keep).maximumSize(maxEntries).build();
        this.queries = Caffeine.newBuilder().expireAfterWrite(keep).maximumSize(maxEntries).build();
        this.roles = Caffeine.newBuilder().expireAfterWrite(keep).maximumSize(maxEntries).build();
        this.maxVersions = Math.max(100, maxEntries / 10);
        this.storeReads = metrics.counter("store.reads");
        this.staleServed = metrics.counter("metadata.stale_served");
    }

    /**
     * The key with this hash, with what the caller derives from its row (parsed grants), computed once per load.
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> keyByHash(String hash, Function<ApiKeyRow, T> derive) {
        return (Optional<T>) get(keys, hash, h -> store.keys().findByHash(h).map(derive));
    }

    /**
     * The role of this name (in any workspace), with what the caller derives from its row (parsed grants), computed
     * once per load: the same object until the entry is reloaded, so a caller can tell a reload by identity.
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> roleByName(String name, Function<RoleRow, T> derive) {
        return (Optional<T>) get(roles, name, n -> store.roles().findByName(n).map(derive));
    }

    public Optional<SavedQueryRow> queryByName(String name) {
        return get(queries, name, n -> store.queries().findByName(n));
    }

    /** A query version's row, read from the store (versions never change: callers keep what they derive). */
    public Optional<QueryVersionRow> versionRow(long queryId, int version) {
        storeReads.inc();
        return store.queries().findVersion(queryId, version);
    }

    /** False when the TTL is zero: nothing read from the store may be kept, versions included. */
    public boolean enabled() {
        return enabled;
    }

    /** How many derived query versions a caller should keep at most. */
    public int maxVersions() {
        return maxVersions;
    }

    public void invalidateKey(String hash) {
        keys.invalidate(hash);
    }

    public void invalidateRole(String name) {
        roles.invalidate(name);
    }

    public void invalidateQuery(String name) {
        queries.invalidate(name);
    }

    /** Store reads made so far through this cache (also the {@code store.reads} metric). */
    public long storeReads() {
        return storeReads.getCount();
    }

    @SuppressWarnings("unchecked")
    private <K, V> Optional<V> get(Cache<K, Stamped<V>> cache, K key, Function<K, Optional<V>> load) {
        if (!enabled) {
            storeReads.inc();
            return load.apply(key);
        }
        Stamped<V> hit = cache.getIfPresent(key); // a hit allocates nothing: no loading function to capture
        long now = System.nanoTime();
        if (hit != null && now - hit.readNanos() < ttlNanos) {
            return hit.value();
        }
        if (hit == null || now - hit.readNanos() >= staleNanos) {
            return cache.get(key, k -> {
                storeReads.inc();
                return new Stamped<>(load.apply(k), System.nanoTime(), 0);
            }).value();
        }
        if (now < hit.nextTryNanos()) {
            staleServed.inc();
            return hit.value();
        }
        try {
            storeReads.inc();
            Optional<V> fresh = load.apply(key);
            cache.put(key, new Stamped<>(fresh, now, 0));
            return fresh;
        } catch (RuntimeException e) {
            if (StoreFaults.classify(e) != StoreFaults.Kind.UNAVAILABLE) {
                throw e;
            }
            cache.asMap().replace(key, hit, new Stamped<>(hit.value(), hit.readNanos(), now + RETRY_NANOS));
            staleServed.inc();
            return hit.value();
        }
    }
}
