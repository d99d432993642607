package io.queryapigate.auth;

import io.dropwizard.auth.Authenticator;
import java.util.Optional;

/**
 * Sends a presented secret to the one authenticator that can know it: a personal admin token ({@code qagadm_...})
 * to the administrators' tokens, a JWT (three dot-separated parts) to the token verifier when JWT callers are
 * configured, anything else to the API keys (which also know the administrator key). Each answers empty for a secret
 * it does not know, and the filter turns that into the same 401 for all.
 */
public final class Credentials implements Authenticator<String, Caller> {
    /** The prefix of every personal admin token. */
    public static final String ADMIN_TOKEN_PREFIX = "qagadm_";

    private final Authenticator<String, Caller> keys;
    private Authenticator<String, Caller> adminTokens = secret -> Optional.empty();
    private Authenticator<String, Caller> jwt;

    public Credentials(Authenticator<String, Caller> keys) {
        this.keys = keys;
    }

    /** Who checks personal admin tokens. */
    public Credentials withAdminTokens(Authenticator<String, Caller> tokens) {
        this.adminTokens = tokens;
        return this;
    }

    /** Who verifies JWTs; without one, a JWT is looked up as a key (and is unknown). */
    public Credentials withJwt(Authenticator<String, Caller> verifier) {
        this.jwt = verifier;
        return this;
    }

    @Override
    public Optional<Caller> authenticate(String secret) throws io.dropwizard.auth.AuthenticationException {
        if (secret.startsWith(ADMIN_TOKEN_PREFIX)) {
            return adminTokens.authenticate(secret);
        }
        if (jwt != null && looksLikeJwt(secret)) {
            return jwt.authenticate(secret);
        }
        return keys.authenticate(secret);
    }

    static boolean looksLikeJwt(String secret) {
        int first = secret.indexOf('.');
        return first > 0 && secret.indexOf('.', first + 1) > first + 1 && secret.length() > 20;
    }
}
