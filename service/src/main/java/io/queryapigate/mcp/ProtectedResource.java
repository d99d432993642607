package io.queryapigate.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.config.McpConfig;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OAuth for the MCP server (RFC 9728, MCP authorization 2025-11-25): the protected-resource metadata at
 * {@code /.well-known/oauth-protected-resource} and at that path followed by the resource URL's path, and the
 * {@code WWW-Authenticate} challenge of a refusal pointing a client at it. Without {@code mcp.oauth}, the challenge
 * is {@code Bearer realm="queryapigate"}.
 */
public final class ProtectedResource extends HttpServlet {
    private static final long serialVersionUID = 1L;
    /** The metadata's path. */
    public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    private final transient McpConfig.OAuth oauth;
    private final transient ObjectMapper mapper;

    public ProtectedResource(McpConfig.OAuth oauth, ObjectMapper mapper) {
        this.oauth = oauth;
        this.mapper = mapper;
    }

    /** The metadata paths this server answers: the bare one and the one naming the resource's path. */
    public static List<String> paths(McpConfig.OAuth oauth) {
        String path = URI.create(oauth.getResourceUrl()).getRawPath();
        String trimmed = path == null ? "" : path.replaceAll("/+$", "");
        return trimmed.isEmpty() ? List.of(WELL_KNOWN) : List.of(WELL_KNOWN, WELL_KNOWN + trimmed);
    }

    /** Where the metadata is: {@value #WELL_KNOWN} inserted before the resource URL's path. */
    static String metadataUrl(McpConfig.OAuth oauth) {
        URI resource = URI.create(oauth.getResourceUrl());
        String path = resource.getRawPath() == null ? "" : resource.getRawPath().replaceAll("/+$", "");
        return resource.getScheme() + "://" + resource.getRawAuthority() + WELL_KNOWN + path;
    }

    /** RFC 9728's metadata, as the original writes it. */
    public static Map<String, Object> metadata(McpConfig.OAuth oauth) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("resource", oauth.getResourceUrl());
        out.put("authorization_servers", List.of(oauth.getAuthorizationServer()));
        out.put("scopes_supported", List.of(oauth.getScope()));
        out.put("bearer_methods_supported", List.of("header"));
        out.put("resource_name", "QueryAPIGate");
        return out;
    }

    /**
     * The challenge of a refusal with {@code status} and {@code code}; {@code presented}: the request carried a
     * credential at all.
     */
    static String challenge(McpConfig.OAuth oauth, int status, String code, boolean presented) {
        if (oauth == null) {
            return "Bearer realm=\"queryapigate\"";
        }
        StringBuilder out = new StringBuilder("Bearer ");
        if ("insufficient_scope".equals(code)) {
            out.append("error=\"insufficient_scope\", ");
        } else if (status == 401 && presented) {
            out.append("error=\"invalid_token\", ");
        }
        return out.append("resource_metadata=\"").append(metadataUrl(oauth)).append("\", scope=\"")
                .append(oauth.getScope()).append('"').toString();
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (!paths(oauth).contains(path)) {
            response.sendError(404);
            return;
        }
        response.setContentType("application/json");
        response.setHeader("Access-Control-Allow-Origin", "*"); // public by design, read by browser-based clients
        response.setHeader("Cache-Control", "max-age=3600");
        mapper.writeValue(response.getOutputStream(), metadata(oauth));
    }
}
