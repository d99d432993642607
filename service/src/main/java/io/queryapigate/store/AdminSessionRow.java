package io.queryapigate.store;

/** A console session (schema 12's {@code admin_sessions}): only hashes of its id and of its CSRF token are kept. */
public record AdminSessionRow(long id, String idHash, long adminId, String csrfHash, long createdAt, long expiresAt,
        long lastSeenAt) {}
