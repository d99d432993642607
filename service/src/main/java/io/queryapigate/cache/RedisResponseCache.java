package io.queryapigate.cache;

import com.codahale.metrics.MetricRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Shared through Redis, with the local cache in front as the fallback: while Redis fails, entries are read and
 * written locally, failures are counted ({@code cache.redis.failures}) and logged at most once a minute, and
 * Redis is tried again after a back-off. Redis entries expire on their own ({@code PX}).
 */
public final class RedisResponseCache implements ResponseCache {
    private static final Logger LOG = LoggerFactory.getLogger(RedisResponseCache.class);

    private final RedisClient redis;
    private final String prefix;
    private final LocalResponseCache local;
    private final Clock clock;
    private final RedisOutage outage;

    public RedisResponseCache(RedisClient redis, String keyPrefix, long retryMillis, LocalResponseCache local,
            Clock clock, MetricRegistry metrics) {
        this.redis = redis;
        this.prefix = keyPrefix + "cache2:"; // 2: entries carry what they answer (CachedResponse.About)
        this.local = local;
        this.clock = clock;
        this.outage = new RedisOutage(clock, retryMillis, metrics, "cache.redis.failures", LOG,
                "Redis response cache unavailable", "serving from the local cache");
        metrics.gauge("cache.redis.up", () -> () -> available() ? 1 : 0);
    }

    private boolean available() {
        return outage.up();
    }

    @Override
    public Optional<CachedResponse> get(String key) {
        if (!available()) {
            return local.get(key);
        }
        try {
            byte[] raw = redis.get((prefix + key).getBytes(StandardCharsets.UTF_8));
            return raw == null ? Optional.empty() : Optional.of(decode(raw));
        } catch (RuntimeException e) {
            failed(e);
            return local.get(key);
        }
    }

    @Override
    public void put(String key, CachedResponse response) {
        long ttl = response.expiresAtMillis() - clock.millis();
        if (ttl <= 0) {
            return;
        }
        if (!available()) {
            local.put(key, response);
            return;
        }
        try {
            redis.set((prefix + key).getBytes(StandardCharsets.UTF_8), encode(response), SetParams.setParams().px(ttl));
        } catch (RuntimeException e) {
            failed(e);
            local.put(key, response);
        }
    }

    /** Redis's entries (scanned), and the local ones written while Redis was unavailable. */
    @Override
    public List<Entry> entries() {
        Map<String, Entry> out = new LinkedHashMap<>();
        if (available()) {
            try {
                ScanParams match = new ScanParams().match(prefix + "*").count(500);
                String cursor = ScanParams.SCAN_POINTER_START;
                long now = clock.millis();
                do {
                    ScanResult<String> page = redis.scan(cursor, match);
                    for (String full : page.getResult()) {
                        byte[] raw = redis.get(full.getBytes(StandardCharsets.UTF_8));
                        if (raw != null) {
                            CachedResponse r = decode(raw);
                            if (r.expiresAtMillis() > now) {
                                String key = full.substring(prefix.length());
                                out.put(key, new Entry(key, r));
                            }
                        }
                    }
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            } catch (RuntimeException e) {
                failed(e);
            }
        }
        for (Entry e : local.entries()) {
            out.putIfAbsent(e.key(), e);
        }
        return new ArrayList<>(out.values());
    }

    @Override
    public void delete(String key) {
        local.delete(key);
        if (available()) {
            try {
                redis.del((prefix + key).getBytes(StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                failed(e);
            }
        }
    }

    private void failed(RuntimeException e) {
        outage.failed(e);
    }

    static byte[] encode(CachedResponse r) {
        byte[] etag = r.etag().getBytes(StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder();
        r.headers().forEach((k, v) -> h.append(k).append('\u0001').append(v).append('\u0002'));
        byte[] headers = h.toString().getBytes(StandardCharsets.UTF_8);
        CachedResponse.About a = r.about();
        byte[] about = a == null ? new byte[0] : String.join("\u0001", a.query(), Integer.toString(a.version()),
                a.connection(), a.format(), a.contentType(), a.page() == null ? "" : a.page().toString())
                .getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + 8 + 4 + etag.length + 4 + headers.length + 4 + about.length
                + r.body().length);
        b.putLong(r.expiresAtMillis()).putLong(r.rows()).putInt(etag.length).put(etag).putInt(headers.length)
                .put(headers).putInt(about.length).put(about).put(r.body());
        return b.array();
    }

    static CachedResponse decode(byte[] raw) {
        ByteBuffer b = ByteBuffer.wrap(raw);
        long expires = b.getLong();
        long rows = b.getLong();
        byte[] etag = new byte[b.getInt()];
        b.get(etag);
        byte[] headerBytes = new byte[b.getInt()];
        b.get(headerBytes);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String pair : new String(headerBytes, StandardCharsets.UTF_8).split("\u0002")) {
            int sep = pair.indexOf('\u0001');
            if (sep > 0) {
                headers.put(pair.substring(0, sep), pair.substring(sep + 1));
            }
        }
        byte[] aboutBytes = new byte[b.getInt()];
        b.get(aboutBytes);
        CachedResponse.About about = null;
        String[] a = new String(aboutBytes, StandardCharsets.UTF_8).split("\u0001", -1);
        if (a.length == 6) {
            about = new CachedResponse.About(a[0], Integer.parseInt(a[1]), a[2], a[3], a[4],
                    a[5].isEmpty() ? null : Integer.valueOf(a[5]));
        }
        byte[] body = new byte[b.remaining()];
        b.get(body);
        return new CachedResponse(body, new String(etag, StandardCharsets.UTF_8), rows, expires, headers, about);
    }

}
