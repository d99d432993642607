package io.queryapigate.cache;

import java.util.Map;

/**
 * A cached response body with what its headers need (paging headers included) and what it is the answer of, for
 * the management API's cache browser ({@code about}; never used to serve it, null when unknown). {@code
 * expiresAtMillis} is wall-clock time.
 */
public record CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis, Map<String, String> headers,
        About about) {

    /**
     * What a cached body answers: the saved query, its version, the connection it ran on, the format, its content
     * type and the page (null when the call asked for none).
     */
    public record About(String query, int version, String connection, String format, String contentType,
            Integer page) {}

    public CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis) {
        this(body, etag, rows, expiresAtMillis, Map.of(), null);
    }

    public CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis, Map<String, String> headers) {
        this(body, etag, rows, expiresAtMillis, headers, null);
    }
}
