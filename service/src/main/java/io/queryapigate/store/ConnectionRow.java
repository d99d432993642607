package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * A connection created through the management API (those in YAML are never stored). {@code passwordSealed} is the
 * password encrypted at rest ({@code secrets.SecretBox}), {@code passwordRef} a secret reference such as {@code
 * ${aws-sm:db/prod}}; never both. {@code properties} and {@code allowedFunctions} are JSON (an object, a list). Times
 * are epoch milliseconds; a soft-deleted row has {@code deletedAt}. {@code workspace} owns it.
 */
public record ConnectionRow(
        long id,
        String name,
        String dialect,
        String url,
        String username,
        String passwordSealed,
        String passwordRef,
        int poolSize,
        Long queryTimeoutMs,
        String properties,
        String allowedFunctions,
        String description,
        long createdAt,
        String createdBy,
        long updatedAt,
        String updatedBy,
        Long deletedAt,
        String deletedBy,
        String deletedReason,
        String workspace) {

    @JdbiConstructor
    public ConnectionRow {}

    public boolean deleted() {
        return deletedAt != null;
    }
}
