package io.queryapigate.mcp;

import io.queryapigate.config.JwtConfig;
import io.queryapigate.config.McpConfig;
import java.util.List;

/**
 * The token issuer the MCP server trusts with {@code mcp.oauth}, as the {@code jwt} package verifies issuers: the
 * authorization server's tokens (keys from its JWKS), whose audience is the MCP server's resource URL, with the
 * configured role (or the role claim). Only these tokens are bearer JWTs on {@code /mcp}; a token issued for the REST
 * API is not one, however valid.
 */
public final class McpOAuth {
    private McpOAuth() {}

    /** The {@code jwt} configuration of that one issuer. */
    public static JwtConfig issuers(McpConfig.OAuth oauth) {
        JwtConfig.Issuer issuer = new JwtConfig.Issuer();
        issuer.setIssuer(oauth.getAuthorizationServer());
        issuer.setJwksUrl(oauth.getJwksUrl());
        issuer.setAudiences(List.of(oauth.getResourceUrl()));
        issuer.setAlgorithms(oauth.getAlgorithms());
        issuer.setDefaultRole(oauth.getRole());
        issuer.setRoleClaim(oauth.getRoleClaim());
        JwtConfig config = new JwtConfig();
        config.setIssuers(List.of(issuer));
        return config;
    }
}
