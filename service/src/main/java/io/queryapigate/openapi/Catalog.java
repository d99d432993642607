package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.params.ParamExamples;
import io.queryapigate.params.ParamSpec;
import java.util.List;

/**
 * {@code GET /catalog}: the saved queries a caller may call and the terms it gets them under, in the Python
 * original's shape ({@code queries}, {@code caller}), each query with its parameter rules.
 */
public final class Catalog {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ObjectMapper mapper;
    private final String serverRateLimit;
    private final boolean serverAllowsWrites;

    /**
     * @param mapper reads the stored tags
     * @param serverRateLimit the per-address limit every caller also meets ({@code limits.perAddress}), or null
     * @param serverAllowsWrites whether the server lets any key write ({@code security.allowWrites})
     */
    public Catalog(ObjectMapper mapper, String serverRateLimit, boolean serverAllowsWrites) {
        this.mapper = mapper;
        this.serverRateLimit = serverRateLimit;
        this.serverAllowsWrites = serverAllowsWrites;
    }

    /** The catalog for {@code caller}. */
    public ObjectNode build(Caller caller, List<Callable> queries) {
        ObjectNode out = JSON.objectNode();
        ArrayNode items = out.putArray("queries");
        for (Callable q : queries) {
            ObjectNode item = items.addObject();
            item.put("name", q.name());
            item.put("version", q.version().version());
            item.put("description", q.version().description());
            q.tags().forEach(item.putArray("tags")::add);
            item.put("collection", q.query().collection());
            item.put("connection_name", q.version().connectionName());
            item.set("parameters", parameters(q));
            if (q.version().cacheTtl() > 0) {
                item.put("cache_ttl", q.version().cacheTtl());
            } else {
                item.putNull("cache_ttl");
            }
            item.put("can_write", caller.canWrite(serverAllowsWrites));
            item.put("example", example(q));
        }
        Grants g = caller.grants();
        ObjectNode c = out.putObject("caller");
        c.put("name", caller.name());
        c.put("admin", caller.admin());
        c.put("allow_writes", caller.admin() || g.allowWrites());
        strings(c, "allowed_write_ops", g.allowedWriteOps());
        strings(c, "allowed_tables", g.allowedTables());
        c.set("mask", g.mask().isEmpty() ? JSON.nullNode() : mapper.valueToTree(g.mask()));
        c.put("rate_limit", g.rateLimit());
        c.put("server_rate_limit", serverRateLimit);
        return out;
    }

    /** A call the query's rules accept: its required parameters with example values. */
    static String example(Callable q) {
        StringBuilder url = new StringBuilder("/q/").append(OpenApiDocument.pathSegment(q.name()));
        char sep = '?';
        for (ParamSpec p : q.rules().inputs()) {
            ParamExamples.Example e = ParamExamples.of(p);
            if (p.required() && e.valid()) {
                url.append(sep).append(p.name()).append('=').append(OpenApiDocument.queryValue(e.text()));
                sep = '&';
            }
        }
        return url.toString();
    }

    /**
     * Each parameter's rules with every rule named, as the original lists them ({@code has_default}, nulls for the
     * rules not given; its type names for the types it has).
     */
    private static ObjectNode parameters(Callable q) {
        ObjectNode out = JSON.objectNode();
        JsonNode rules = q.rules().toJson();
        for (ParamSpec p : q.rules().inputs()) {
            JsonNode r = rules.get(p.name());
            JsonNode written = q.declared() == null ? null : q.declared().get(p.name());
            ObjectNode o = out.putObject(p.name());
            o.put("type", switch (p.type()) {
                case INT -> "integer";
                case FLOAT -> "number";
                case STR -> "string";
                case BOOL -> "boolean";
                default -> p.type().wireName();
            });
            o.put("required", p.required());
            o.put("has_default", p.hasDefault());
            for (String rule : List.of("default", "enum", "min", "max", "min_length", "max_length", "pattern",
                    "description")) {
                JsonNode value = written != null && written.isObject() && written.has(rule) ? written.get(rule)
                        : r.get(rule);
                o.set(rule, value == null ? JSON.nullNode() : value);
            }
            o.put("has_example", false);
            o.putNull("example");
            o.put("embed", false);
            o.putNull("from_claim");
        }
        return out;
    }

    private static void strings(ObjectNode o, String field, List<String> values) {
        if (values == null) {
            o.putNull(field);
        } else {
            ArrayNode a = o.putArray(field);
            values.forEach(a::add);
        }
    }

    /** The catalog's JSON Schema, for the OpenAPI document. */
    static ObjectNode schema() {
        ObjectNode s = JSON.objectNode().put("type", "object");
        ObjectNode p = s.putObject("properties");
        ObjectNode query = p.putObject("queries").put("type", "array").putObject("items").put("type", "object");
        ObjectNode qp = query.putObject("properties");
        qp.putObject("name").put("type", "string");
        qp.putObject("version").put("type", "integer");
        nullable(qp.putObject("description"), "string");
        qp.putObject("tags").put("type", "array").putObject("items").put("type", "string");
        nullable(qp.putObject("collection"), "string");
        qp.putObject("connection_name").put("type", "string");
        qp.putObject("parameters").put("type", "object");
        nullable(qp.putObject("cache_ttl"), "integer");
        qp.putObject("can_write").put("type", "boolean");
        qp.putObject("example").put("type", "string").put("description", "A call its parameter rules accept");
        ObjectNode caller = p.putObject("caller").put("type", "object").putObject("properties");
        nullable(caller.putObject("name"), "string");
        caller.putObject("admin").put("type", "boolean");
        caller.putObject("allow_writes").put("type", "boolean");
        nullable(caller.putObject("allowed_write_ops"), "array");
        nullable(caller.putObject("allowed_tables"), "array");
        nullable(caller.putObject("mask"), "array");
        nullable(caller.putObject("rate_limit"), "string");
        nullable(caller.putObject("server_rate_limit"), "string");
        return s;
    }

    private static void nullable(ObjectNode o, String type) {
        o.putArray("type").add(type).add("null");
    }
}
