package io.queryapigate.call;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.queryapigate.cache.CachedResponse;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.guard.Masking;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Answers of saved queries with a {@code cache_ttl}, kept in the response cache: looked up before a call runs,
 * stored after (unless truncated), each with an ETag. The key is everything that decides the body: query, version,
 * connection, format, page, parameter values, the caller's masking and its {@code max_rows}.
 */
final class CachedAnswers {
    private final ResponseCache responses;
    private final Clock clock;
    private final Counter hits;
    private final Counter misses;

    CachedAnswers(ResponseCache responses, Clock clock, MetricRegistry metrics) {
        this.responses = responses;
        this.clock = clock;
        this.hits = metrics.counter("cache.hits");
        this.misses = metrics.counter("cache.misses");
    }

    static String key(SavedQueryResolver.Resolved resolved, String connection, Map<String, Object> values,
            Masking.Plan mask, OutputRequest out, Integer maxRows) {
        StringBuilder sb = new StringBuilder(128);
        sb.append(resolved.query().id()).append('|').append(resolved.version().version()).append('|')
                .append(connection).append('|').append(out.format().formatName()).append('|')
                .append(out.page().map(p -> p.page() + "x" + p.pageSize()).orElse("-")).append('|');
        new TreeMap<>(values).forEach((k, v) -> sb.append(k).append('=')
                .append(v == null ? "\u0000" : v.getClass().getSimpleName() + ":" + v).append('\u0001'));
        sb.append('|').append(mask.actions());
        if (maxRows != null) {
            sb.append("|max_rows=").append(maxRows);
        }
        return hex(sha256(sb.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** What a cached answer answers, for the management API's cache browser. */
    static CachedResponse.About about(SavedQueryResolver.Resolved resolved, String connection, OutputRequest out) {
        return new CachedResponse.About(resolved.query().name(), resolved.version().version(), connection,
                out.format().formatName(), out.format().contentType(),
                out.page().map(p -> (int) Math.min(Integer.MAX_VALUE, p.page())).orElse(null));
    }

    /** The cached answer of a statement that has a cache key, if any. */
    Optional<CallResult> lookup(CheckedStatement s, OutputRequest out) {
        if (s.cacheKey() == null) {
            return Optional.empty();
        }
        Optional<CachedResponse> hit = responses.get(s.cacheKey());
        if (hit.isEmpty()) {
            misses.inc();
            return Optional.empty();
        }
        hits.inc();
        return Optional.of(new CallResult(hit.get().body(), hit.get().rows(), false, s.connection().name(), "HIT",
                hit.get().etag(), s.cacheTtl(), out.format().contentType(),
                out.format().contentDisposition(out.baseName(), false), hit.get().headers(), null));
    }

    /** Keeps a fresh answer (unless truncated) and marks it {@code MISS} with its ETag. */
    CallResult store(CheckedStatement s, CallResult result) {
        if (s.cacheKey() == null) {
            return result;
        }
        String etag = "\"" + hex(sha256(result.body())) + "\"";
        if (!result.truncated()) {
            responses.put(s.cacheKey(), new CachedResponse(result.body(), etag, result.rows(),
                    clock.millis() + s.cacheTtl() * 1000L, result.headers(), s.cacheAbout()));
        }
        return result.cached("MISS", etag, s.cacheTtl());
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes).substring(0, 32);
    }
}
