package io.queryapigate.store;

/**
 * A named administrator (schema 8). {@code role} is the server-wide role's name, or null when the administrator only
 * has roles in workspaces; {@code issuer} and {@code subject} link it to an identity provider's account (SSO).
 */
public record AdministratorRow(long id, String name, String role, boolean active, String email, String issuer,
        String subject, long createdAt, String createdBy, Long lastSeenAt) {}
