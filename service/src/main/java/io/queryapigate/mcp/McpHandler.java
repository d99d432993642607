package io.queryapigate.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.InitializeRequest;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.ListResourceTemplatesResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourcesResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import io.queryapigate.scope.Scope;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The MCP server's requests, answered per caller: {@code initialize} and {@code ping}, {@code tools/list} and
 * {@code tools/call} ({@link McpTools}, {@link ToolCalls}), {@code resources/list} and {@code resources/read}
 * ({@link McpResources}). The SDK's own stateless server keeps one registry of tools for every caller; here the tool
 * list is worked out for the caller of each request (its grants, the saved queries as they are now), so this
 * implements the SDK's handler interface itself. The caller comes in the transport context the gate filled
 * ({@link #CALLER}); each request runs in that caller's workspace, set on the thread that answers it.
 */
public final class McpHandler implements McpStatelessServerHandler {
    /** The transport context's key for the authenticated {@link Caller}. */
    public static final String CALLER = "queryapigate.caller";
    /** The transport context's key for the HTTP request's id. */
    public static final String REQUEST_ID = "queryapigate.request_id";
    private static final Logger LOG = LoggerFactory.getLogger(McpHandler.class);

    private final McpTools tools;
    private final ToolCalls calls;
    private final McpResources resources;
    private final McpJsonMapper json;
    private final List<String> protocolVersions;
    private final McpSchema.Implementation serverInfo;

    public McpHandler(McpTools tools, ToolCalls calls, McpResources resources, McpJsonMapper json,
            List<String> protocolVersions, String version) {
        this.tools = tools;
        this.calls = calls;
        this.resources = resources;
        this.json = json;
        this.protocolVersions = List.copyOf(protocolVersions);
        this.serverInfo = new McpSchema.Implementation("queryapigate", "QueryAPIGate", version);
    }

    /** The protocol versions this server speaks, oldest first. */
    public List<String> protocolVersions() {
        return protocolVersions;
    }

    /** The tools {@code caller} sees (also for {@code GET /api/v1/mcp/tools}). */
    public List<McpSchema.Tool> toolsFor(Caller caller) {
        return inWorkspace(caller, () -> tools.toolsFor(caller));
    }

    @Override
    public Mono<JSONRPCResponse> handleRequest(McpTransportContext context, McpSchema.JSONRPCRequest request) {
        return Mono.fromSupplier(() -> answer(context, request));
    }

    @Override
    public Mono<Void> handleNotification(McpTransportContext context, McpSchema.JSONRPCNotification notification) {
        return Mono.empty(); // initialized, cancelled, roots changed: nothing to keep in a stateless server
    }

    private JSONRPCResponse answer(McpTransportContext context, McpSchema.JSONRPCRequest request) {
        Caller caller = context.get(CALLER) instanceof Caller c ? c : null;
        if (caller == null) { // not through the gate: never served
            return error(request, McpSchema.ErrorCodes.INVALID_REQUEST, "Unauthorized");
        }
        String requestId = context.get(REQUEST_ID) instanceof String id ? id : "";
        try {
            Object result = switch (request.method()) {
                case McpSchema.METHOD_INITIALIZE -> initialize(json.convertValue(request.params(),
                        InitializeRequest.class));
                case McpSchema.METHOD_PING -> Map.of();
                case McpSchema.METHOD_TOOLS_LIST -> new ListToolsResult(toolsFor(caller), null);
                case McpSchema.METHOD_TOOLS_CALL -> {
                    CallToolRequest call = json.convertValue(request.params(), CallToolRequest.class);
                    if (call == null || call.name() == null) {
                        yield error(request, McpSchema.ErrorCodes.INVALID_PARAMS, "tools/call needs a tool name");
                    }
                    yield inWorkspace(caller, () -> calls.call(caller, requestId, call.name(), call.arguments()));
                }
                case McpSchema.METHOD_RESOURCES_LIST -> new ListResourcesResult(
                        inWorkspace(caller, () -> resources.resourcesFor(caller)), null);
                case McpSchema.METHOD_RESOURCES_TEMPLATES_LIST -> new ListResourceTemplatesResult(List.of(), null);
                case McpSchema.METHOD_RESOURCES_READ -> {
                    ReadResourceRequest read = json.convertValue(request.params(), ReadResourceRequest.class);
                    yield inWorkspace(caller, () -> resources.read(caller, read == null ? null : read.uri()));
                }
                default -> error(request, McpSchema.ErrorCodes.METHOD_NOT_FOUND,
                        "Method not found: " + request.method());
            };
            return result instanceof JSONRPCResponse r ? r : JSONRPCResponse.result(request.id(), result);
        } catch (ApiException e) {
            int code = e.status() == 404 ? McpSchema.ErrorCodes.RESOURCE_NOT_FOUND : McpSchema.ErrorCodes.INVALID_PARAMS;
            return new JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
                    new JSONRPCError(code, e.getMessage(), Map.of("code", e.code())));
        } catch (IllegalArgumentException e) {
            return error(request, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid parameters for " + request.method());
        } catch (RuntimeException e) {
            LOG.error("request {}: MCP {} failed", requestId, request.method(), e);
            return error(request, McpSchema.ErrorCodes.INTERNAL_ERROR, "Internal error (request " + requestId + ")");
        }
    }

    /** The client's protocol version when this server speaks it, else the newest this server speaks. */
    private InitializeResult initialize(InitializeRequest request) {
        String asked = request == null ? null : request.protocolVersion();
        String version = asked != null && protocolVersions.contains(asked) ? asked
                : protocolVersions.get(protocolVersions.size() - 1);
        McpSchema.ServerCapabilities capabilities = McpSchema.ServerCapabilities.builder().tools(false)
                .resources(false, false).build();
        return new InitializeResult(version, capabilities, serverInfo, "QueryAPIGate's saved queries as tools: call"
                + " one with its parameters; list_tables, describe_table and execute_sql (read-only SQL) where this"
                + " key may use a connection. Results are capped; a note says when more rows match.");
    }

    private static JSONRPCResponse error(McpSchema.JSONRPCRequest request, int code, String message) {
        return new JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null, new JSONRPCError(code, message));
    }

    /** Runs {@code work} in the caller's workspace on this thread, as a REST request does. */
    private static <T> T inWorkspace(Caller caller, Supplier<T> work) {
        String before = Scope.current();
        Scope.set(caller.workspace());
        try {
            return work.get();
        } finally {
            Scope.set(before);
        }
    }
}
