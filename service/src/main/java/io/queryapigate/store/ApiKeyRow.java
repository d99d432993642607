package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * A stored API key. The secret itself is never stored, only its SHA-256; after a rotation the previous secret's
 * hash is kept until {@code previousExpiresAt} (epoch milliseconds), its grace period. A key made from a role names
 * it ({@code roleName}): its {@code grants} then narrow the role's. {@code claims} is the JSON object of its fixed
 * values for {@code from_claim} parameters, or null.
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
        String workspace,
        String roleName,
        String claims) {

    @JdbiConstructor
    public ApiKeyRow {
        workspace = workspace == null ? "default" : workspace;
    }

    /** A key as created: no previous secret, never used, in the default workspace, made from no role. */
    public ApiKeyRow(long id, String name, String keyHash, String keyPrefix, String grants, String expiresAt,
            boolean active, long createdAt, Long revokedAt) {
        this(id, name, keyHash, keyPrefix, grants, expiresAt, active, createdAt, revokedAt, null, null, null, null,
                null, null);
    }

    /** Whether the previous secret is still accepted at {@code nowMillis}. */
    public boolean previousWorks(long nowMillis) {
        return previousHash != null && previousExpiresAt != null && previousExpiresAt > nowMillis;
    }
}
