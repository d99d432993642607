package io.queryapigate.store;

/**
 * A console sign-in under way (schema 8's {@code sso_logins}): found by the hash of its {@code state}, bound to one
 * browser by the hash of a cookie.
 */
public record SsoLoginRow(String stateHash, String browserHash, String nonce, String codeVerifier, String returnTo,
        long createdAt, long expiresAt) {}
