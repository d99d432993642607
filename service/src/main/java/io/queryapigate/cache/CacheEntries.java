package io.queryapigate.cache;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The response cache as the management API shows it, like the Python original's cache browser: each live entry's
 * key, what it answers ({@code meta}), content type, size and time left, soonest to expire first; one entry's body;
 * evicting one or all. One cache serves every workspace: only the entries of the workspace a request acts in are
 * listed, read and evicted (another's is not found, as a missing one).
 */
public final class CacheEntries {
    private final ResponseCache cache;
    private final Clock clock;
    private final Predicate<CachedResponse.About> visible;

    /**
     * @param visible whether an entry that answers this (null: unknown) is the current workspace's
     */
    public CacheEntries(ResponseCache cache, Clock clock, Predicate<CachedResponse.About> visible) {
        this.cache = cache;
        this.clock = clock;
        this.visible = visible;
    }

    /** {@code {"items": [{"key", "meta", "content_type", "size_bytes", "ttl_remaining_s"}]}}; never a body. */
    public ObjectNode list() {
        long now = clock.millis();
        List<ResponseCache.Entry> entries = cache.entries().stream().filter(e -> visible.test(e.response().about()))
                .sorted(Comparator.comparingLong(e -> e.response().expiresAtMillis())).toList();
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        ArrayNode items = out.putArray("items");
        for (ResponseCache.Entry e : entries) {
            CachedResponse r = e.response();
            ObjectNode item = items.addObject().put("key", e.key());
            ObjectNode meta = item.putObject("meta");
            CachedResponse.About a = r.about();
            if (a != null) {
                meta.put("name", a.query()).put("version", a.version()).put("connection", a.connection())
                        .put("format", a.format());
                if (a.page() == null) {
                    meta.putNull("page");
                } else {
                    meta.put("page", a.page());
                }
            }
            item.put("content_type", a == null ? "" : a.contentType());
            item.put("size_bytes", r.body().length);
            item.put("ttl_remaining_s", Math.round(Math.max(0, r.expiresAtMillis() - now) / 100.0) / 10.0);
        }
        return out;
    }

    /** One live entry, or 404 {@code cache_entry_not_found}. */
    public CachedResponse get(String key) {
        return cache.get(key).filter(r -> visible.test(r.about())).orElseThrow(() -> ApiException.notFound(
                "cache_entry_not_found",
                "Cache entry not found (missing, expired, or already evicted)"));
    }

    /** Evicts one entry; nothing happens when it is gone. */
    public void evict(String key) {
        if (cache.get(key).filter(r -> visible.test(r.about())).isPresent()) {
            cache.delete(key);
        }
    }

    /** Evicts every entry: the next call of each query runs it. */
    public void evictAll() {
        cache.entries().stream().filter(e -> visible.test(e.response().about())).forEach(e -> cache.delete(e.key()));
    }
}
