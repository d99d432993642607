package io.queryapigate.cache;

/** A cached response body with what its headers need. {@code expiresAtMillis} is wall-clock time. */
public record CachedResponse(byte[] body, String etag, long rows, long expiresAtMillis) {}
