package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * A stored API key. The secret itself is never stored, only its SHA-256; after a rotation the previous secret's
 * hash is kept until {@code previousExpiresAt} (epoch milliseconds), its grace period. {@code workspace} owns it.
 */
public record ApiKeyRow(
        long id,
        String name,
        String keyHash,
        String keyPrefix,
        String grants,
        String expiresAt,
        boolean active,
        long createdAt,
        Long revokedAt,
        String previousHash,
        Long previousExpiresAt,
        Long lastUsedAt,
        String workspace) {

    @JdbiConstructor
    public ApiKeyRow {}

    /** A key as created in {@code workspace}: no previous secret, never used. */
    public ApiKeyRow(long id, String name, String keyHash, String keyPrefix, String grants, String expiresAt,
            boolean active, long createdAt, Long revokedAt, String workspace) {
        this(id, name, keyHash, keyPrefix, grants, expiresAt, active, createdAt, revokedAt, null, null, null,
                workspace);
    }

    /** Whether the previous secret is still accepted at {@code nowMillis}. */
    public boolean previousWorks(long nowMillis) {
        return previousHash != null && previousExpiresAt != null && previousExpiresAt > nowMillis;
    }
}
