package io.queryapigate.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import io.dropwizard.core.setup.Environment;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.config.McpConfig;
import io.queryapigate.limits.Limits;
import io.queryapigate.workspaces.WorkspaceSettling;
import jakarta.servlet.DispatcherType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP server of this process: its handler ({@link McpHandler}), served over Streamable HTTP at
 * {@value McpConfig#PATH} on the application port, stateless (every request authenticated on its own, no session
 * kept: the SDK's {@link HttpServletStatelessServerTransport} behind {@link McpGate}), or over stdio for one local
 * caller ({@link #serveStdio}).
 */
public final class McpEndpoint {
    private final McpConfig config;
    private final McpHandler handler;
    private final McpJsonMapper json;

    public McpEndpoint(McpConfig config, McpTools tools, ToolCalls calls, McpResources resources, String version) {
        this.config = config;
        this.json = new JacksonMcpJsonMapper(new ObjectMapper());
        List<String> versions = new McpStatelessServerTransport() {
            @Override
            public void setMcpHandler(io.modelcontextprotocol.server.McpStatelessServerHandler h) {}

            @Override
            public reactor.core.publisher.Mono<Void> closeGracefully() {
                return reactor.core.publisher.Mono.empty();
            }
        }.protocolVersions();
        this.handler = new McpHandler(tools, calls, resources, json, versions, version);
    }

    public McpHandler handler() {
        return handler;
    }

    /**
     * Serves the MCP server at {@value McpConfig#PATH} (and {@code /w/{workspace}/mcp}) behind its gate, after the
     * request id's filter (and its body limit), and the OAuth metadata when {@code mcp.oauth} is set.
     */
    public void serveHttp(Environment environment, Authenticator<String, Caller> credentials,
            Authenticator<String, Caller> oauthTokens, Limits limits, ClientAddress addresses,
            WorkspaceSettling settling, long maxBody) {
        HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                .jsonMapper(json).messageEndpoint(McpConfig.PATH).contextExtractor(McpGate::context)
                .maxRequestSize((int) Math.min(Integer.MAX_VALUE, maxBody)).build();
        transport.setMcpHandler(handler);
        environment.servlets().addServlet("mcp", transport).addMapping(McpConfig.PATH);
        environment.servlets().addFilter("mcp-gate", new McpGate(credentials, oauthTokens, config.getOauth(), limits,
                        addresses, settling, transport, environment.getObjectMapper()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, McpConfig.PATH, "/w/*");
        if (config.getOauth() != null) {
            var metadata = environment.servlets().addServlet("mcp-oauth-metadata",
                    new ProtectedResource(config.getOauth(), environment.getObjectMapper()));
            ProtectedResource.paths(config.getOauth()).forEach(metadata::addMapping);
        }
    }

    /** {@code GET /api/v1/mcp/status}: how the MCP server is served, without secrets. */
    public Map<String, Object> status(int tools, int savedQueryTools) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("enabled", config.isEnabled());
        out.put("path", McpConfig.PATH);
        out.put("transport", "streamable-http");
        out.put("stateless", true);
        out.put("stdio", "queryapigate mcp --stdio CONFIG");
        out.put("max_rows", config.getMaxRows());
        out.put("protocol_versions", handler.protocolVersions());
        McpConfig.OAuth oauth = config.getOauth();
        if (oauth == null) {
            out.put("oauth", null);
        } else {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("resource_url", oauth.getResourceUrl());
            o.put("authorization_server", oauth.getAuthorizationServer());
            o.put("scope", oauth.getScope());
            o.put("role", oauth.getRole());
            o.put("role_claim", oauth.getRoleClaim());
            o.put("metadata_url", ProtectedResource.metadataUrl(oauth));
            out.put("oauth", o);
        }
        out.put("tools", Map.of("total", tools, "saved_queries", savedQueryTools));
        return out;
    }

    /**
     * Serves one caller over stdio until {@code in} ends: one JSON-RPC message a line, answers on {@code out} (and
     * nothing else there). The caller is the one {@code apiKey} authenticates.
     *
     * @throws IllegalStateException when the key is missing or unknown
     */
    public void serveStdio(Authenticator<String, Caller> credentials, String apiKey, InputStream in,
            OutputStream out) throws IOException {
        Caller caller = stdioCaller(credentials, apiKey);
        PrintStream writer = new PrintStream(out, true, StandardCharsets.UTF_8);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (line.isBlank()) {
                continue;
            }
            McpTransportContext context = McpTransportContext.create(Map.of(McpHandler.CALLER, caller,
                    McpHandler.REQUEST_ID, io.queryapigate.http.RequestIds.generate()));
            McpSchema.JSONRPCMessage message;
            try {
                message = McpSchema.deserializeJsonRpcMessage(json, line);
            } catch (IOException | IllegalArgumentException e) {
                writer.println(json.writeValueAsString(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, null,
                        null, new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.PARSE_ERROR,
                                "Invalid message"))));
                continue;
            }
            if (message instanceof McpSchema.JSONRPCRequest request) {
                writer.println(json.writeValueAsString(handler.handleRequest(context, request).block()));
            } else if (message instanceof McpSchema.JSONRPCNotification notification) {
                handler.handleNotification(context, notification).block();
            }
        }
    }

    /** The caller of {@code QUERYAPIGATE_API_KEY}, as REST would authenticate it. */
    public static Caller stdioCaller(Authenticator<String, Caller> credentials, String apiKey) {
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalStateException("QUERYAPIGATE_API_KEY: set it to the API key the MCP server acts as");
        }
        Optional<Caller> caller;
        try {
            caller = credentials.authenticate(apiKey.strip());
        } catch (AuthenticationException e) {
            caller = Optional.empty();
        }
        return caller.orElseThrow(() -> new IllegalStateException(
                "QUERYAPIGATE_API_KEY: not a valid API key (unknown, revoked or expired)"));
    }
}
