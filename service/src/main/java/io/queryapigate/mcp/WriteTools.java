package io.queryapigate.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.queryapigate.auth.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where saved queries marked {@code agent_writes} become write tools ({@link AgentWriteTools}, over
 * {@code agentwrites.AgentWrites}): the tools a caller may write through, and their calls.
 */
public interface WriteTools {
    /** The write tools {@code caller} may call, in the caller's workspace ({@code scope.Scope} is set). */
    List<Tool> toolsFor(Caller caller);

    /**
     * Runs the write tool {@code name} for {@code caller}, or empty when {@code name} is no write tool of this caller
     * (the call then goes to the read-only tools). Refusals are tool errors ({@link ToolResults#error}).
     */
    Optional<CallToolResult> call(Caller caller, String requestId, String name, Map<String, Object> arguments);
}
