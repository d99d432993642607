package io.queryapigate.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.config.McpConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtectedResourceTest {
    private static McpConfig.OAuth oauth(String resource) {
        McpConfig.OAuth o = new McpConfig.OAuth();
        o.setResourceUrl(resource);
        o.setAuthorizationServer("https://login.example.com/realms/acme");
        o.setRole("agents");
        return o;
    }

    @Test
    void theMetadataIsFoundBeforeTheResourcesPath() {
        McpConfig.OAuth o = oauth("https://data.example.com/mcp");
        assertThat(ProtectedResource.metadataUrl(o))
                .isEqualTo("https://data.example.com/.well-known/oauth-protected-resource/mcp");
        assertThat(ProtectedResource.paths(o)).containsExactly("/.well-known/oauth-protected-resource",
                "/.well-known/oauth-protected-resource/mcp");
        assertThat(ProtectedResource.paths(oauth("https://mcp.example.com/")))
                .containsExactly("/.well-known/oauth-protected-resource");
        assertThat(ProtectedResource.metadata(o)).containsEntry("scopes_supported", List.of("queryapigate.mcp"));
    }

    @Test
    void challengesAsTheOriginal() {
        assertThat(ProtectedResource.challenge(null, 401, "unauthorized", true))
                .isEqualTo("Bearer realm=\"queryapigate\"");
        McpConfig.OAuth o = oauth("https://data.example.com/mcp");
        String tail = "resource_metadata=\"https://data.example.com/.well-known/oauth-protected-resource/mcp\","
                + " scope=\"queryapigate.mcp\"";
        assertThat(ProtectedResource.challenge(o, 401, "unauthorized", false)).isEqualTo("Bearer " + tail);
        assertThat(ProtectedResource.challenge(o, 401, "unauthorized", true))
                .isEqualTo("Bearer error=\"invalid_token\", " + tail);
        assertThat(ProtectedResource.challenge(o, 403, "insufficient_scope", true))
                .isEqualTo("Bearer error=\"insufficient_scope\", " + tail);
    }

    @Test
    void aBadValueStopsStartupNamingItsKey() {
        McpConfig config = new McpConfig();
        config.validate();
        config.setOauth(oauth("ftp://data.example.com/mcp"));
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.resourceUrl:");
        config.setOauth(oauth("http://data.example.com/mcp"));
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.resourceUrl:");
        McpConfig.OAuth o = oauth("https://data.example.com/mcp");
        o.setAuthorizationServer(null);
        config.setOauth(o);
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.authorizationServer:");
        o = oauth("https://data.example.com/mcp");
        o.setScope("two scopes");
        config.setOauth(o);
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.scope:");
        o = oauth("https://data.example.com/mcp");
        o.setRole(null);
        config.setOauth(o);
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.role:");
        o = oauth("https://data.example.com/mcp");
        o.setAlgorithms(List.of("HS256"));
        config.setOauth(o);
        assertThatThrownBy(config::validate).hasMessageStartingWith("mcp.oauth.algorithms:");
        config.setOauth(oauth("http://localhost:8080/mcp"));
        config.validate();
    }
}
