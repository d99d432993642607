package io.queryapigate.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.queryapigate.auth.Caller;
import io.queryapigate.call.CallRequest;
import io.queryapigate.call.CallResult;
import io.queryapigate.call.OutputRequest;
import io.queryapigate.call.QueryService;
import io.queryapigate.call.SavedQueryResolver;
import io.queryapigate.errors.ApiException;
import io.queryapigate.limits.Quotas;
import io.queryapigate.output.format.OutputFormat;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.schema.SchemaBrowser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code tools/call}, through the same pipeline as REST: a saved query and {@code execute_sql} through
 * {@link QueryService#run} (grants, guard, typed parameters bound as {@code POST /q} binds its JSON {@code params},
 * quotas, concurrency, masking, cache, history and events marked {@code mcp}), JSON pages of at most
 * {@code mcp.maxRows} rows; {@code list_tables} and {@code describe_table} through the schema browser as the caller's
 * grants see it. Every refusal is a tool error carrying the REST answer's code.
 */
public final class ToolCalls {
    private static final TypeReference<List<Map<String, Object>>> ROWS = new TypeReference<>() {};

    private final QueryService queries;
    private final SavedQueryResolver resolver;
    private final SavedQueries saved;
    private final SchemaBrowser schema;
    private final Quotas quotas;
    private final WriteTools writes;
    private final ObjectMapper mapper;
    private final int maxRows;

    public ToolCalls(QueryService queries, SavedQueryResolver resolver, SavedQueries saved, SchemaBrowser schema,
            Quotas quotas, WriteTools writes, ObjectMapper mapper, int maxRows) {
        this.queries = queries;
        this.resolver = resolver;
        this.saved = saved;
        this.schema = schema;
        this.quotas = quotas;
        this.writes = writes;
        this.mapper = mapper;
        this.maxRows = maxRows;
    }

    /** Runs the tool {@code name} for {@code caller}, in its workspace (the thread's {@code scope.Scope}). */
    public CallToolResult call(Caller caller, String requestId, String name, Map<String, Object> arguments) {
        Map<String, Object> args = arguments == null ? new HashMap<>() : new HashMap<>(arguments);
        try {
            return switch (name) {
                case "list_tables" -> listTables(caller, args);
                case "describe_table" -> describeTable(caller, args);
                case "execute_sql" -> executeSql(caller, requestId, args);
                default -> {
                    Optional<CallToolResult> written = writes.call(caller, requestId, name, args);
                    yield written.isPresent() ? written.get() : savedQuery(caller, requestId, name, args);
                }
            };
        } catch (RuntimeException e) {
            return ToolResults.error(e);
        }
    }

    private CallToolResult savedQuery(Caller caller, String requestId, String name, Map<String, Object> args) {
        OutputRequest out = page(args.remove("page_size"), name);
        SavedQueryResolver.Resolved q = resolver.resolve(caller, name, null); // 404 as /q answers
        if (!McpTools.exposed(saved.details(q.version()))) {
            throw ApiException.notFound("query_not_found", "No saved query named '" + name + "'.");
        }
        if (!q.guard().isRead()) {
            throw ApiException.forbidden("read_only", "The saved query '" + name + "' writes; over MCP only"
                    + " read-only saved queries run.");
        }
        JsonNode params = mapper.valueToTree(args);
        CallResult result = queries.run(CallRequest.savedQuery(caller, requestId, name, null, Map.of(), params, null,
                null, out).via(CallRequest.MCP));
        return rows(result);
    }

    private CallToolResult executeSql(Caller caller, String requestId, Map<String, Object> args) {
        if (args.get("database") != null) {
            throw caller.admin() ? new ApiException(400, "unsupported_field", "database is not supported here:"
                    + " declare a connection for that database.", Map.of("database", "is not supported"))
                    : ApiException.forbidden("admin_only", "Only the admin key may run a query against a different"
                            + " database on this connection");
        }
        OutputRequest out = page(args.get("page_size"), "result");
        JsonNode params = args.get("params") == null ? null : mapper.valueToTree(args.get("params"));
        CallResult result = queries.run(CallRequest.adHoc(caller, requestId, text(args, "sql"), params,
                text(args, "connection_name"), null, out).via(CallRequest.MCP));
        return rows(result);
    }

    private CallToolResult listTables(Caller caller, Map<String, Object> args) {
        ObjectNode described = describe(caller, args);
        Map<String, Object> structured = mapper.convertValue(described, new TypeReference<>() {});
        List<String> names = new ArrayList<>();
        described.withArray("tables").forEach(t -> names.add(qualified(t)));
        return ToolResults.json(structured, names.isEmpty() ? "(no tables)" : String.join("\n", names));
    }

    private CallToolResult describeTable(Caller caller, Map<String, Object> args) {
        String table = text(args, "table");
        if (table == null || table.isBlank()) {
            throw ApiException.badRequest("table_required", "table is required.");
        }
        ObjectNode described = describe(caller, args);
        for (JsonNode t : described.withArray("tables")) {
            if (table.equals(t.path("name").asText()) || table.equals(qualified(t))) {
                Map<String, Object> structured = Map.of("table", mapper.convertValue(t, Map.class));
                return ToolResults.json(structured, json(structured));
            }
        }
        throw ApiException.notFound("table_not_found", "'" + table + "' is not a table on '"
                + text(args, "connection_name") + "'");
    }

    /** The connection's schema as the caller's grants see it; counted against its quota as any call is checked. */
    private ObjectNode describe(Caller caller, Map<String, Object> args) {
        String connection = text(args, "connection_name");
        if (connection == null || connection.isBlank()) {
            throw ApiException.badRequest("connection_required", "connection_name is required.");
        }
        if (args.get("database") != null) {
            throw ApiException.forbidden("admin_only", "Only the admin key may browse or query a different database"
                    + " on this connection");
        }
        if (!caller.canUseConnection(connection)) {
            throw ApiException.forbidden("connection_not_granted", "This API key may not use the connection '"
                    + connection + "'.");
        }
        quotas.check(caller);
        return schema.describe(connection, Optional.empty(), caller.admin() ? null : caller.grants(), false);
    }

    private static String qualified(JsonNode table) {
        String schemaName = table.path("schema").isTextual() ? table.path("schema").asText() + "." : "";
        return schemaName + table.path("name").asText();
    }

    /** The first page of min({@code page_size}, mcp.maxRows) rows; a page size that is no number gets the cap. */
    private OutputRequest page(Object requested, String baseName) {
        int size = maxRows;
        if (requested instanceof Number n && n.longValue() >= 1) {
            size = (int) Math.min(n.longValue(), maxRows);
        } else if (requested instanceof String s && s.strip().matches("[0-9]{1,9}") && Integer.parseInt(s.strip()) > 0) {
            size = Math.min(Integer.parseInt(s.strip()), maxRows);
        }
        return new OutputRequest(OutputFormat.JSON, Optional.of(new PageRequest(1, size, true)), false, baseName);
    }

    private CallToolResult rows(CallResult result) {
        List<Map<String, Object>> rows;
        try {
            JsonNode body = mapper.readTree(result.body());
            rows = body.isArray() ? mapper.convertValue(body, ROWS) : List.of(); // an empty page's message
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean more = "true".equals(result.headers().get("X-Has-More")) || result.truncated();
        List<String> columns = rows.isEmpty() ? List.of() : new ArrayList<>(rows.get(0).keySet());
        return ToolResults.rows(columns, rows, more);
    }

    private static String text(Map<String, Object> args, String name) {
        Object v = args.get(name);
        if (v != null && !(v instanceof String)) {
            throw new ApiException(400, "invalid_request", name + " must be a string.", Map.of(name, "must be a string"));
        }
        return (String) v;
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
