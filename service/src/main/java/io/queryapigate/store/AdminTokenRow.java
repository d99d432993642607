package io.queryapigate.store;

/**
 * A personal admin token (schema 8): only the SHA-256 of its secret is kept ({@code tokenHash}); {@code expiresAt} is
 * a day ({@code YYYY-MM-DD}, UTC), the last one it works on, or null.
 */
public record AdminTokenRow(long id, long adminId, String tokenHash, String tokenPrefix, String label,
        String expiresAt, long createdAt, Long lastUsedAt) {}
