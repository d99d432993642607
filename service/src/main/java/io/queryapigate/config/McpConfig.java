package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The MCP server ({@code mcp:}, docs/mcp.md): on or off, the rows one tool call answers at most, and OAuth (RFC 9728)
 * for bearer tokens issued for it. {@link #validate()} stops startup naming the bad key.
 */
public class McpConfig {
    /** The path the MCP server answers on, on the application port (and under {@code /w/{workspace}/}). */
    public static final String PATH = "/mcp";
    /** The scope a token must carry when none is configured: the original's. */
    public static final String DEFAULT_SCOPE = "queryapigate.mcp";

    private boolean enabled = true;

    @Min(1)
    @Max(100_000)
    private int maxRows = 200;

    @Valid
    private OAuth oauth;

    @JsonProperty
    public boolean isEnabled() {
        return enabled;
    }

    @JsonProperty
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    @JsonProperty
    public int getMaxRows() {
        return maxRows;
    }

    @JsonProperty
    public void setMaxRows(int maxRows) {
        this.maxRows = maxRows;
    }

    @JsonProperty
    public OAuth getOauth() {
        return oauth;
    }

    @JsonProperty
    public void setOauth(OAuth oauth) {
        this.oauth = oauth;
    }

    /**
     * Checks what bean validation cannot: the OAuth block's URLs and scope.
     *
     * @throws IllegalStateException naming the key, for a configuration that must stop startup
     */
    public void validate() {
        if (maxRows < 1) {
            throw new IllegalStateException("mcp.maxRows: must be at least 1");
        }
        if (oauth != null) {
            oauth.validate();
        }
    }

    /** OAuth 2.1 bearer tokens for the MCP server, announced by its protected-resource metadata (RFC 9728). */
    public static class OAuth {
        private String resourceUrl;
        private String authorizationServer;
        private String jwksUrl;
        private List<String> algorithms = new ArrayList<>(List.of("RS256"));
        private String scope = DEFAULT_SCOPE;
        private String role;
        private String roleClaim;

        /** The MCP server's canonical URL ({@code https://data.example.com/mcp}): every token's audience. */
        @JsonProperty
        public String getResourceUrl() {
            return resourceUrl;
        }

        @JsonProperty
        public void setResourceUrl(String resourceUrl) {
            this.resourceUrl = resourceUrl;
        }

        /** The issuer of the tokens (the identity provider's URL, its {@code iss}). */
        @JsonProperty
        public String getAuthorizationServer() {
            return authorizationServer;
        }

        @JsonProperty
        public void setAuthorizationServer(String authorizationServer) {
            this.authorizationServer = authorizationServer;
        }

        /** Where its signing keys are; null: found through its discovery document. */
        @JsonProperty
        public String getJwksUrl() {
            return jwksUrl;
        }

        @JsonProperty
        public void setJwksUrl(String jwksUrl) {
            this.jwksUrl = jwksUrl;
        }

        @JsonProperty
        public List<String> getAlgorithms() {
            return algorithms;
        }

        @JsonProperty
        public void setAlgorithms(List<String> algorithms) {
            this.algorithms = algorithms;
        }

        /** The scope a token must carry. */
        @JsonProperty
        public String getScope() {
            return scope;
        }

        @JsonProperty
        public void setScope(String scope) {
            this.scope = scope;
        }

        /** The API-key role whose grants an OAuth caller gets unless {@link #getRoleClaim} names another. */
        @JsonProperty
        public String getRole() {
            return role;
        }

        @JsonProperty
        public void setRole(String role) {
            this.role = role;
        }

        /** A claim naming the caller's API-key role (the first that names one wins); null: {@link #getRole}. */
        @JsonProperty
        public String getRoleClaim() {
            return roleClaim;
        }

        @JsonProperty
        public void setRoleClaim(String roleClaim) {
            this.roleClaim = roleClaim;
        }

        void validate() {
            url("mcp.oauth.resourceUrl", resourceUrl);
            url("mcp.oauth.authorizationServer", authorizationServer);
            if (jwksUrl != null && !JwtConfig.safeKeysUrl(jwksUrl)) {
                throw new IllegalStateException("mcp.oauth.jwksUrl: must be an https:// URL (http only on this"
                        + " machine)");
            }
            if (scope == null || scope.isBlank() || scope.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '\\')) {
                throw new IllegalStateException("mcp.oauth.scope: must be one scope token (no spaces or quotes)");
            }
            if (algorithms == null || algorithms.isEmpty() || !JwtConfig.ASYMMETRIC.containsAll(algorithms)) {
                throw new IllegalStateException("mcp.oauth.algorithms: must be some of " + JwtConfig.ASYMMETRIC);
            }
            if ((role == null || role.isBlank()) && (roleClaim == null || roleClaim.isBlank())) {
                throw new IllegalStateException("mcp.oauth.role: name the API-key role OAuth callers get (or a"
                        + " mcp.oauth.roleClaim naming it in their tokens)");
            }
        }

        private static void url(String key, String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalStateException(key + ": is required when mcp.oauth is set");
            }
            URI uri;
            try {
                uri = URI.create(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(key + ": is not a URL: " + value);
            }
            String lowered = value.toLowerCase(Locale.ROOT);
            boolean local = lowered.startsWith("http://localhost") || lowered.startsWith("http://127.0.0.1");
            if (uri.getHost() == null || !(lowered.startsWith("https://") || local)) {
                throw new IllegalStateException(key + ": must be an https:// URL (http only on this machine): "
                        + value);
            }
        }
    }
}
