package io.queryapigate.store;

/** A stored API key. The secret itself is never stored, only its SHA-256. */
public record ApiKeyRow(
        long id,
        String name,
        String keyHash,
        String keyPrefix,
        String grants,
        String expiresAt,
        boolean active,
        long createdAt,
        Long revokedAt) {}
