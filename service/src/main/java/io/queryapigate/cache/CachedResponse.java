package io.queryapigate.cache;

import java.util.Map;

/**
 * A cached response body with what its headers need (paging headers included). {@code expiresAtMillis} is wall-clock
 * time.
 */
public record CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis, Map<String, String> headers) {
    public CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis) {
        this(body, etag, rows, expiresAtMillis, Map.of());
    }
}
