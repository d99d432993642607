package io.queryapigate.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.openapi.CallableQueries;
import io.queryapigate.openapi.Catalog;
import io.queryapigate.schema.SchemaBrowser;
import io.queryapigate.scope.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The resources: {@code queryapigate://catalog} (the caller's {@code /catalog}) and, per connection the caller may
 * use, {@code queryapigate://connections/{name}/dictionary}: the connection's notes, tables and columns with what
 * they mean, as Markdown, as the caller's grants see them (the original's data dictionary).
 */
public final class McpResources {
    static final String CATALOG = "queryapigate://catalog";
    private static final String DICTIONARY_PREFIX = "queryapigate://connections/";
    private static final String DICTIONARY_SUFFIX = "/dictionary";

    private final CallableQueries callable;
    private final Catalog catalog;
    private final ConnectionRegistry connections;
    private final SchemaBrowser schema;
    private final ObjectMapper mapper;

    public McpResources(CallableQueries callable, Catalog catalog, ConnectionRegistry connections,
            SchemaBrowser schema, ObjectMapper mapper) {
        this.callable = callable;
        this.catalog = catalog;
        this.connections = connections;
        this.schema = schema;
        this.mapper = mapper;
    }

    /** The catalog, and a dictionary per connection of its workspace {@code caller} may use. */
    public List<Resource> resourcesFor(Caller caller) {
        List<Resource> out = new ArrayList<>();
        out.add(Resource.builder().uri(CATALOG).name("catalog").mimeType("application/json")
                .description("The saved queries this key may call, with their parameters (GET /catalog).").build());
        for (String name : new TreeSet<>(connections.all().keySet())) {
            if (Scope.owns(connections.workspaceOf(name)) && caller.canUseConnection(name)) {
                out.add(Resource.builder().uri(DICTIONARY_PREFIX + URLEncoder.encode(name, StandardCharsets.UTF_8)
                                .replace("+", "%20") + DICTIONARY_SUFFIX)
                        .name(name + " data dictionary").mimeType("text/markdown")
                        .description("What the tables and columns on '" + name + "' mean - read before writing SQL.")
                        .build());
            }
        }
        return out;
    }

    /** A resource's text; 404 {@code not_found} for any other, never saying whether a connection exists. */
    public ReadResourceResult read(Caller caller, String uri) {
        if (CATALOG.equals(uri)) {
            try {
                String json = mapper.writeValueAsString(catalog.build(caller, callable.of(caller)));
                return new ReadResourceResult(List.of(new TextResourceContents(uri, "application/json", json)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        String name = uri != null && uri.startsWith(DICTIONARY_PREFIX) && uri.endsWith(DICTIONARY_SUFFIX)
                && uri.length() > DICTIONARY_PREFIX.length() + DICTIONARY_SUFFIX.length()
                ? URLDecoder.decode(uri.substring(DICTIONARY_PREFIX.length(), uri.length()
                        - DICTIONARY_SUFFIX.length()), StandardCharsets.UTF_8) : null;
        if (name == null || !caller.canUseConnection(name) || connections.visible(name).isEmpty()) {
            throw ApiException.notFound("not_found", "No such resource: " + uri);
        }
        JsonNode described = schema.describe(name, Optional.empty(), caller.admin() ? null : caller.grants(), false);
        return new ReadResourceResult(List.of(new TextResourceContents(uri, "text/markdown",
                dictionary(name, described))));
    }

    /** The data dictionary: the connection's notes, then each table and its columns, as the original writes it. */
    static String dictionary(String connection, JsonNode described) {
        StringBuilder out = new StringBuilder("# Data dictionary: ").append(connection).append("\n\n");
        if (described.path("notes").isTextual()) {
            out.append(described.get("notes").asText()).append("\n\n");
        }
        for (JsonNode t : described.path("tables")) {
            out.append("## ");
            if (t.path("schema").isTextual()) {
                out.append(t.get("schema").asText()).append('.');
            }
            out.append(t.path("name").asText()).append("view".equals(t.path("type").asText()) ? " (view)" : "")
                    .append('\n');
            if (t.path("description").isTextual()) {
                out.append(t.get("description").asText()).append('\n');
            }
            out.append('\n');
            for (JsonNode c : t.path("columns")) {
                out.append("- `").append(c.path("name").asText()).append('`');
                if (c.path("type").isTextual()) {
                    out.append(" (").append(c.get("type").asText()).append(')');
                }
                if (c.path("description").isTextual()) {
                    out.append(" - ").append(c.get("description").asText());
                }
                if (c.path("masked").asBoolean(false)) {
                    out.append(" - masked for you (").append(c.path("mask").asText()).append(')');
                }
                out.append('\n');
            }
            out.append('\n');
        }
        if (described.path("truncated").asBoolean(false)) {
            out.append("_The schema is longer than this; ask list_tables for the rest._\n");
        }
        return out.toString().stripTrailing() + "\n";
    }
}
