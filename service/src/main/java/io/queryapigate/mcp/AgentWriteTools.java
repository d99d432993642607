package io.queryapigate.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import io.queryapigate.agentwrites.AgentWrites;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.errors.ApiException;
import io.queryapigate.openapi.CallableQueries;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.queries.SavedQueries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The write tools: a saved query marked {@code agent_writes} that {@link AgentWrites} lets this caller write through
 * (and whose {@code mcp} flag is not off) is a tool taking its parameters plus {@code approval} (mode approval: the
 * request a person approved) or {@code idempotency_key} (mode insert), annotated as writing, destructive unless it
 * only inserts. Its call is {@link AgentWrites#call}: a refusal is a tool error with the REST code.
 */
public final class AgentWriteTools implements WriteTools {
    static final String APPROVAL = "approval";
    static final String IDEMPOTENCY_KEY = "idempotency_key";
    private static final Map<String, Object> OUTPUT = writeOutput();

    private final AgentWrites writes;
    private final CallableQueries callable;
    private final SavedQueries saved;
    private final SavedQueryResolver resolver;
    private final ObjectMapper mapper;

    public AgentWriteTools(AgentWrites writes, CallableQueries callable, SavedQueries saved,
            SavedQueryResolver resolver, ObjectMapper mapper) {
        this.writes = writes;
        this.callable = callable;
        this.saved = saved;
        this.resolver = resolver;
        this.mapper = mapper;
    }

    @Override
    public List<Tool> toolsFor(Caller caller) {
        List<Tool> out = new ArrayList<>();
        for (Callable q : callable.of(caller)) {
            if (McpTools.RESERVED.contains(q.name()) || !McpTools.exposed(saved.details(q.version()))) {
                continue;
            }
            SavedQueryResolver.Resolved resolved = resolved(caller, q.name());
            if (resolved != null && writes.writable(caller, resolved)) {
                out.add(tool(q, writes.mode(resolved), writes.maxAffectedRows(resolved)));
            }
        }
        return out;
    }

    @Override
    public Optional<CallToolResult> call(Caller caller, String requestId, String name, Map<String, Object> arguments) {
        if (McpTools.RESERVED.contains(name) || !writes.writable(caller, name)) {
            return Optional.empty();
        }
        Map<String, Object> args = new LinkedHashMap<>(arguments);
        String approval = text(args.remove(APPROVAL), APPROVAL);
        String idempotencyKey = text(args.remove(IDEMPOTENCY_KEY), IDEMPOTENCY_KEY);
        try {
            SavedQueryResolver.Resolved q = resolver.resolve(caller, name, null);
            if (!McpTools.exposed(saved.details(q.version()))) {
                throw ApiException.notFound("query_not_found", "No saved query named '" + name + "'.");
            }
            ObjectNode answer = writes.call(caller, requestId, name, mapper.valueToTree(args), approval,
                    idempotencyKey);
            Map<String, Object> structured = mapper.convertValue(answer, new TypeReference<>() {});
            return Optional.of(ToolResults.json(structured, answer.toString()));
        } catch (RuntimeException e) {
            return Optional.of(ToolResults.error(e));
        }
    }

    private SavedQueryResolver.Resolved resolved(Caller caller, String name) {
        try {
            return resolver.resolve(caller, name, null);
        } catch (RuntimeException cannotRun) { // its connection is gone, its rules unreadable: not a tool
            return null;
        }
    }

    private static String text(Object value, String name) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new ApiException(400, "param_invalid", name + " must be a string.", Map.of(name, "must be a string"));
    }

    private static Tool tool(Callable q, String mode, int ceiling) {
        boolean insertOnly = "insert".equals(mode);
        Map<String, Object> input = McpTools.inputSchema(q);
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) input.get("properties");
        String how;
        if (insertOnly) {
            properties.put(IDEMPOTENCY_KEY, Map.of("type", "string", "description", "Optional: the same key on a"
                    + " retry returns the first call's result instead of inserting again (kept a day)."));
            how = "It only adds rows, and runs without an approval.";
        } else {
            properties.put(APPROVAL, Map.of("type", "string", "description", "The write request a person approved."
                    + " Leave it out the first time: the answer says where they approve it."));
            how = "A person approves each call before it runs: the first call answers with where they approve it;"
                    + " call again with the same arguments and approval set to the request it named.";
        }
        String description = McpTools.description(q) + "\n\nThis tool writes. " + how + " It changes at most "
                + ceiling + " row" + (ceiling == 1 ? "" : "s") + ".";
        return Tool.builder().name(q.name()).description(description).inputSchema(input).outputSchema(OUTPUT)
                .annotations(new ToolAnnotations(null, false, !insertOnly, false, false, null)).build();
    }

    /** The original's {@code WRITE_OUTPUT_SCHEMA}. */
    private static Map<String, Object> writeOutput() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("status", Map.of("type", "string", "enum", List.of("approval_required", "done")));
        properties.put("request", Map.of("type", "string", "description",
                "The write request - pass it back as `approval` once approved."));
        properties.put("approve_at", Map.of("type", "string", "description", "Where a person approves it."));
        properties.put("expires_at", Map.of("type", "string"));
        properties.put("message", Map.of("type", "string"));
        properties.put("rows_affected", Map.of("type", "integer"));
        properties.put("rows", Map.of("type", "array", "items", Map.of("type", "object"), "description",
                "A RETURNING clause's rows."));
        properties.put("truncated", Map.of("type", "boolean"));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.of("status", "request", "rows", "truncated"));
        return schema;
    }
}
