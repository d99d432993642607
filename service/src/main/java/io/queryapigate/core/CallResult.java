package io.queryapigate.core;

/**
 * A finished call: the rendered body and what it held. For saved queries with a {@code cache_ttl}, {@code cache}
 * is {@code HIT} or {@code MISS}, with the body's {@code etag} and the {@code maxAge} in seconds; otherwise null/0.
 */
public record CallResult(byte[] body, long rows, boolean truncated, String connection, String cache, String etag,
        int maxAge) {
    public CallResult(byte[] body, long rows, boolean truncated, String connection) {
        this(body, rows, truncated, connection, null, null, 0);
    }

    CallResult cached(String status, String tag, int ttl) {
        return new CallResult(body, rows, truncated, connection, status, tag, ttl);
    }
}
