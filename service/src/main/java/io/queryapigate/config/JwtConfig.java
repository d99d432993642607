package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Signed-in users: the {@code jwt:} block. Callers present a JWT as {@code Authorization: Bearer <token>}; it is
 * accepted when one of the configured issuers signed it. Absent (the default), no JWT is accepted.
 */
public class JwtConfig {
    /** The algorithms an issuer may allow; HMAC ones only with that issuer's {@code hmacSecret}. */
    public static final Set<String> ASYMMETRIC = Set.of("RS256", "RS384", "RS512", "ES256", "ES384", "PS256",
            "EdDSA");
    public static final Set<String> HMAC = Set.of("HS256", "HS384", "HS512");

    private List<Issuer> issuers = new ArrayList<>();

    @JsonProperty
    public List<Issuer> getIssuers() {
        return issuers;
    }

    @JsonProperty
    public void setIssuers(List<Issuer> issuers) {
        this.issuers = issuers == null ? new ArrayList<>() : issuers;
    }

    /**
     * Checks every issuer, naming the first bad key ({@code jwt.issuers[0].audiences: ...}).
     *
     * @throws IllegalStateException for a configuration that must stop startup
     */
    public void validate() {
        if (issuers.isEmpty()) {
            throw new IllegalStateException("jwt.issuers: name at least one issuer (or remove the jwt block)");
        }
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < issuers.size(); i++) {
            Issuer issuer = issuers.get(i);
            String at = "jwt.issuers[" + i + "].";
            if (issuer == null) {
                throw new IllegalStateException(at.substring(0, at.length() - 1) + ": is empty");
            }
            issuer.validate(at);
            if (seen.contains(issuer.issuer)) {
                throw new IllegalStateException(at + "issuer: " + issuer.issuer + " is configured twice");
            }
            seen.add(issuer.issuer);
        }
    }

    /** Whether signing keys may be fetched from {@code url}: https, or http on this machine only. */
    public static boolean safeKeysUrl(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            return scheme.equals("https") && !host.isEmpty() || scheme.equals("http")
                    && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]"));
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    /** One trusted token issuer. */
    public static class Issuer {
        private String issuer;
        private String jwksUrl;
        private List<String> audiences = new ArrayList<>();
        private List<String> algorithms = new ArrayList<>(List.of("RS256"));
        private String hmacSecret;
        private Duration clockSkew = Duration.seconds(30);
        private String userClaim = "sub";
        private String roleClaim;
        private String defaultRole;
        private boolean combineRoles;
        private String workspace;

        void validate(String at) {
            if (issuer == null || issuer.isBlank()) {
                throw new IllegalStateException(at + "issuer: is required (the tokens' iss claim, exactly)");
            }
            if (algorithms == null || algorithms.isEmpty()) {
                throw new IllegalStateException(at + "algorithms: name at least one");
            }
            boolean hmac = false;
            boolean asymmetric = false;
            for (String a : algorithms) {
                if (HMAC.contains(a)) {
                    hmac = true;
                } else if (ASYMMETRIC.contains(a)) {
                    asymmetric = true;
                } else {
                    throw new IllegalStateException(at + "algorithms: unknown algorithm '" + a + "' (allowed: "
                            + String.join(", ", List.of("RS256", "RS384", "RS512", "ES256", "ES384", "PS256",
                                    "EdDSA", "HS256", "HS384", "HS512")) + ")");
                }
            }
            if (hmac && asymmetric) {
                throw new IllegalStateException(at + "algorithms: HMAC (HS*) and public-key algorithms cannot be"
                        + " mixed for one issuer");
            }
            if (hmac) {
                if (jwksUrl != null) {
                    throw new IllegalStateException(at + "jwksUrl: an issuer with HMAC algorithms verifies with its"
                            + " hmacSecret, never with a JWKS");
                }
                if (hmacSecret == null || hmacSecret.getBytes(StandardCharsets.UTF_8).length < 32) {
                    throw new IllegalStateException(at + "hmacSecret: HS* algorithms need a secret of at least 32"
                            + " bytes");
                }
            } else {
                if (hmacSecret != null) {
                    throw new IllegalStateException(at + "hmacSecret: only for HS* algorithms; this issuer's keys"
                            + " come from its JWKS");
                }
                if (audiences == null || audiences.isEmpty() || audiences.stream().anyMatch(a -> a == null
                        || a.isBlank())) {
                    throw new IllegalStateException(at + "audiences: required with a JWKS (the aud this server's"
                            + " tokens carry), else any token of that provider, for any application, would do");
                }
                String keys = jwksUrl != null ? jwksUrl : issuer;
                String which = jwksUrl != null ? "jwksUrl" : "issuer";
                if (!safeKeysUrl(keys)) {
                    throw new IllegalStateException(at + which + ": must be an https:// URL (http:// only on"
                            + " localhost): signing keys fetched over plain HTTP could be swapped in transit");
                }
            }
            if (clockSkew == null || clockSkew.toSeconds() > 600) {
                throw new IllegalStateException(at + "clockSkew: must be between 0s and 10m");
            }
            if (userClaim == null || userClaim.isBlank()) {
                throw new IllegalStateException(at + "userClaim: must name a claim");
            }
            if ((roleClaim == null || roleClaim.isBlank()) && (defaultRole == null || defaultRole.isBlank())) {
                throw new IllegalStateException(at + "roleClaim: set roleClaim, defaultRole or both (a user's grants"
                        + " are a role's)");
            }
        }

        @JsonProperty
        public String getIssuer() {
            return issuer;
        }

        @JsonProperty
        public void setIssuer(String issuer) {
            this.issuer = issuer;
        }

        @JsonProperty
        public String getJwksUrl() {
            return jwksUrl;
        }

        @JsonProperty
        public void setJwksUrl(String jwksUrl) {
            this.jwksUrl = jwksUrl;
        }

        @JsonProperty
        public List<String> getAudiences() {
            return audiences;
        }

        @JsonProperty
        public void setAudiences(List<String> audiences) {
            this.audiences = audiences == null ? new ArrayList<>() : audiences;
        }

        @JsonProperty
        public List<String> getAlgorithms() {
            return algorithms;
        }

        @JsonProperty
        public void setAlgorithms(List<String> algorithms) {
            this.algorithms = algorithms;
        }

        @JsonProperty
        public String getHmacSecret() {
            return hmacSecret;
        }

        @JsonProperty
        public void setHmacSecret(String hmacSecret) {
            this.hmacSecret = hmacSecret;
        }

        @JsonProperty
        public Duration getClockSkew() {
            return clockSkew;
        }

        @JsonProperty
        public void setClockSkew(Duration clockSkew) {
            this.clockSkew = clockSkew;
        }

        @JsonProperty
        public String getUserClaim() {
            return userClaim;
        }

        @JsonProperty
        public void setUserClaim(String userClaim) {
            this.userClaim = userClaim;
        }

        @JsonProperty
        public String getRoleClaim() {
            return roleClaim;
        }

        @JsonProperty
        public void setRoleClaim(String roleClaim) {
            this.roleClaim = roleClaim;
        }

        @JsonProperty
        public String getDefaultRole() {
            return defaultRole;
        }

        @JsonProperty
        public void setDefaultRole(String defaultRole) {
            this.defaultRole = defaultRole;
        }

        @JsonProperty
        public boolean isCombineRoles() {
            return combineRoles;
        }

        @JsonProperty
        public void setCombineRoles(boolean combineRoles) {
            this.combineRoles = combineRoles;
        }

        @JsonProperty
        public String getWorkspace() {
            return workspace;
        }

        @JsonProperty
        public void setWorkspace(String workspace) {
            this.workspace = workspace;
        }
    }
}
