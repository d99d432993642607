package io.queryapigate.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.queryapigate.auth.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The seam where saved queries marked {@code agent_writes} become write tools ({@code agentwrites.AgentWrites}): the
 * tools a caller may write through, and their calls. {@link #NONE} (no write tools) until that part is wired.
 */
public interface WriteTools {
    /** No write tools: every saved query that writes stays off the tool list. */
    WriteTools NONE = new WriteTools() {
        @Override
        public List<Tool> toolsFor(Caller caller) {
            return List.of();
        }

        @Override
        public Optional<CallToolResult> call(Caller caller, String requestId, String name,
                Map<String, Object> arguments) {
            return Optional.empty();
        }
    };

    /** The write tools {@code caller} may call, in the caller's workspace ({@code scope.Scope} is set). */
    List<Tool> toolsFor(Caller caller);

    /**
     * Runs the write tool {@code name} for {@code caller}, or empty when {@code name} is no write tool of this caller
     * (the call then goes to the read-only tools). Refusals are tool errors ({@link ToolResults#error}).
     */
    Optional<CallToolResult> call(Caller caller, String requestId, String name, Map<String, Object> arguments);
}
