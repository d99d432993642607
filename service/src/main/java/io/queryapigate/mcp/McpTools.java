package io.queryapigate.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.openapi.CallableQueries;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.openapi.ParamSchemas;
import io.queryapigate.params.ParamSpec;
import io.queryapigate.queries.SavedQueries;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tools one caller sees, worked out on each {@code tools/list} (never kept across callers): one per published
 * saved query it may run ({@link CallableQueries}, as {@code /catalog}) whose SQL only reads (the guard's verdict,
 * kept per version by {@link SavedQueryResolver}) and whose {@code mcp} flag is not off; the write tools of
 * {@link WriteTools}; and, for callers with a connection grant, {@code list_tables}, {@code describe_table} and (with
 * the ad-hoc grant) {@code execute_sql}. A saved query named like one of those is left out.
 */
public final class McpTools {
    /** The fixed tools' names, which no saved query's tool takes. */
    public static final Set<String> RESERVED = Set.of("list_tables", "describe_table", "execute_sql");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolAnnotations READS = new ToolAnnotations(null, true, false, true, false, null);

    private final CallableQueries callable;
    private final SavedQueries saved;
    private final SavedQueryResolver resolver;
    private final WriteTools writes;
    private final int maxRows;

    public McpTools(CallableQueries callable, SavedQueries saved, SavedQueryResolver resolver, WriteTools writes,
            int maxRows) {
        this.callable = callable;
        this.saved = saved;
        this.resolver = resolver;
        this.writes = writes;
        this.maxRows = maxRows;
    }

    /** Every tool {@code caller} may call, in its workspace (the thread's {@code scope.Scope}). */
    public List<Tool> toolsFor(Caller caller) {
        List<Tool> out = new ArrayList<>();
        for (Callable q : callable.of(caller)) {
            ObjectNode details = saved.details(q.version());
            if (!RESERVED.contains(q.name()) && exposed(details) && readOnly(caller, q.name())) {
                out.add(savedQuery(q, details));
            }
        }
        out.addAll(writes.toolsFor(caller));
        out.addAll(fixed(caller));
        return out;
    }

    /** Whether the saved query's published version only reads, as the call would find it; false when it cannot run. */
    boolean readOnly(Caller caller, String name) {
        try {
            return resolver.resolve(caller, name, null).guard().isRead();
        } catch (RuntimeException cannotRun) { // its connection is gone, its rules unreadable: /q refuses it too
            return false;
        }
    }

    /** A version's {@code mcp} flag: on unless set to false. */
    static boolean exposed(JsonNode details) {
        return details == null || !details.has("mcp") || details.get("mcp").asBoolean(true);
    }

    private static Tool savedQuery(Callable q, ObjectNode details) {
        return Tool.builder().name(q.name()).description(description(q)).inputSchema(inputSchema(q))
                .outputSchema(rowsSchema(details.get("columns"))).annotations(READS).build();
    }

    /** A saved query's tool description: its own, else its name. */
    static String description(Callable q) {
        String description = q.version().description();
        return description == null || description.isBlank() ? q.name() : description;
    }

    /** A saved query's parameters as a tool's input schema (a mutable map: write tools add their own). */
    static Map<String, Object> inputSchema(Callable q) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (ParamSpec p : q.rules().inputs()) {
            properties.put(p.name(), JSON.convertValue(ParamSchemas.of(p), Map.class));
            if (p.required()) {
                required.add(p.name());
            }
        }
        Map<String, Object> input = new LinkedHashMap<>();
        input.put("type", "object");
        input.put("properties", properties);
        input.put("required", required);
        return input;
    }

    /** The original's {@code ROWS_OUTPUT_SCHEMA}, each row's columns described when the version describes them. */
    static Map<String, Object> rowsSchema(JsonNode described) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("type", "object");
        if (described != null && described.isObject() && !described.isEmpty()) {
            Map<String, Object> columns = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = described.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isTextual()) {
                    columns.put(e.getKey(), Map.of("description", e.getValue().textValue()));
                }
            }
            row.put("properties", columns);
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("rows", Map.of("type", "array", "items", row));
        properties.put("truncated", Map.of("type", "boolean"));
        properties.put("note", Map.of("type", "string", "description",
                "Present when the result was capped: how to get the rest, or a summary instead."));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.of("rows", "truncated"));
        return schema;
    }

    private List<Tool> fixed(Caller caller) {
        if (!caller.admin() && !caller.grants().hasAnyConnection()) {
            return List.of();
        }
        Map<String, Object> connection = Map.of("type", "string", "description",
                "A connection name this key is permitted to use.");
        List<Tool> out = new ArrayList<>();
        out.add(Tool.builder().name("list_tables")
                .description("List the tables and views and their columns on a connection this key can use.")
                .inputSchema(object(Map.of("connection_name", connection), List.of("connection_name")))
                .outputSchema(object(Map.of("tables", Map.of("type", "array", "items", Map.of("type", "object")),
                        "truncated", Map.of("type", "boolean")), List.of("tables", "truncated")))
                .annotations(READS).build());
        out.add(Tool.builder().name("describe_table")
                .description("Describe one table on a connection this key can use: its columns, types, primary keys"
                        + " and any descriptions - masking-aware, so a masked column is flagged, not shown as"
                        + " readable. Use it before writing SQL with execute_sql.")
                .inputSchema(object(Map.of("connection_name", connection, "table", Map.of("type", "string",
                        "description", "The table (or view) name to describe.")),
                        List.of("connection_name", "table")))
                .outputSchema(object(Map.of("table", Map.of("type", "object", "description",
                        "One table: its columns, types, keys and (masking-aware) flags.")), List.of("table")))
                .annotations(READS).build());
        if (caller.admin() || caller.grants().adhocSql()) {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("connection_name", connection);
            properties.put("sql", Map.of("type", "string", "description",
                    "A single SELECT/WITH/SHOW/DESCRIBE/EXPLAIN statement."));
            properties.put("params", Map.of("type", "object", "description",
                    "Values for any :name bound parameters in the SQL."));
            properties.put("page_size", Map.of("type", "integer", "minimum", 1, "description",
                    "Row cap, up to " + maxRows + " (the server default)."));
            out.add(Tool.builder().name("execute_sql")
                    .description("Run a single read-only SQL statement against a connection this key can use."
                            + " Always read-only over MCP, regardless of the key's own write permission.")
                    .inputSchema(object(properties, List.of("connection_name", "sql")))
                    .outputSchema(rowsSchema(null)).annotations(READS).build());
        }
        return out;
    }

    private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        return schema;
    }
}
