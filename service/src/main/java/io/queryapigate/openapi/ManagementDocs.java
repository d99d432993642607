package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the management API's operations do, as people wrote it ({@code management-api.yaml} beside this class): a
 * summary, a tag, the success status and, where written, the request and response schemas, extra query parameters
 * and the deprecated and experimental markers. The routes themselves come from Jersey ({@link Routes}); a route
 * without an entry here is still listed, and {@code OpenApiRoutesTest} fails on it.
 */
public final class ManagementDocs {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String PREFIX = "/api/";
    /** Console sign-in's routes, described here too. */
    static final String CONSOLE_SIGN_IN = "/auth/";
    private static final List<Integer> DEFAULT_ERRORS = List.of(400, 401, 403, 404, 429);

    private final ObjectNode operations;
    private final ArrayNode tags;
    private final ObjectNode schemas;

    ManagementDocs(JsonNode root) {
        this.operations = root.path("operations") instanceof ObjectNode o ? o : JSON.objectNode();
        this.tags = root.path("tags") instanceof ArrayNode a ? a : JSON.arrayNode();
        this.schemas = root.path("schemas") instanceof ObjectNode o ? o : JSON.objectNode();
    }

    /** The descriptions shipped in the jar. */
    public static ManagementDocs load() {
        try (InputStream in = ManagementDocs.class.getResourceAsStream("management-api.yaml")) {
            if (in == null) {
                throw new IllegalStateException("management-api.yaml is missing from the jar");
            }
            return new ManagementDocs(new ObjectMapper(new YAMLFactory()).readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The keys ({@code GET /api/v1/queries}) that have an entry. */
    public List<String> documented() {
        List<String> out = new ArrayList<>();
        operations.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The management API's tags, with their descriptions. */
    List<JsonNode> tags() {
        List<JsonNode> out = new ArrayList<>();
        tags.forEach(out::add);
        return out;
    }

    /** The names of the schemas {@link #describe} adds to the components. */
    Set<String> schemaNames() {
        Set<String> out = new HashSet<>();
        schemas.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** Adds every management route to {@code paths}, and the shared schemas to {@code components}. */
    void describe(List<Routes.Route> routes, ObjectNode paths, ObjectNode components) {
        ObjectNode target = components.with("schemas");
        for (Iterator<Map.Entry<String, JsonNode>> it = schemas.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            target.set(e.getKey(), e.getValue().deepCopy());
        }
        for (Routes.Route route : routes) {
            if (!route.path().startsWith(PREFIX) && !route.path().startsWith(CONSOLE_SIGN_IN)) {
                continue;
            }
            JsonNode doc = operations.path(route.key());
            ObjectNode item = paths.get(route.path()) instanceof ObjectNode existing ? existing
                    : paths.putObject(route.path());
            item.set(route.method().toLowerCase(java.util.Locale.ROOT), operation(route, doc));
        }
    }

    private static ObjectNode operation(Routes.Route route, JsonNode doc) {
        ObjectNode op = JSON.objectNode();
        op.put("operationId", operationId(route));
        op.put("summary", doc.path("summary").asText(route.key()));
        String description = doc.path("description").asText("");
        if (doc.path("experimental").asBoolean(false)) {
            op.put("x-experimental", true);
            description = ("**Experimental**: may change in any minor release. " + description).strip();
        }
        if (doc.path("deprecated").asBoolean(false)) {
            op.put("deprecated", true);
            description = ("**Deprecated**: " + doc.path("successor").asText("") + " " + description).strip();
        }
        if (!description.isEmpty()) {
            op.put("description", description);
        }
        op.putArray("tags").add(doc.path("tag").asText("Management"));
        if (route.path().startsWith(CONSOLE_SIGN_IN)) {
            op.putArray("security").addObject(); // a browser's: no key, at most the session cookie
        }
        ArrayNode params = JSON.arrayNode();
        for (Routes.PathParam p : route.pathParams()) {
            ObjectNode schema = JSON.objectNode().put("type", "string");
            if (p.pattern() != null) {
                schema.put("pattern", p.pattern());
            }
            params.addObject().put("name", p.name()).put("in", "path").put("required", true).set("schema", schema);
        }
        for (Routes.Param p : route.params()) {
            ObjectNode param = params.addObject().put("name", p.name()).put("in", p.in()).put("required", false);
            param.set("schema", schemaOf(p.type(), p.defaultValue()));
        }
        for (JsonNode extra : doc.path("params")) {
            params.add(extra.deepCopy());
        }
        refine(params, doc.path("parameters"));
        if (!params.isEmpty()) {
            op.set("parameters", params);
        }
        if (route.body()) {
            JsonNode request = doc.path("request");
            ObjectNode body = op.putObject("requestBody").put("required", doc.path("bodyRequired").asBoolean(false));
            body.putObject("content").putObject("application/json").set("schema",
                    request.isMissingNode() ? JSON.objectNode().put("type", "object") : request.deepCopy());
        }
        ObjectNode responses = op.putObject("responses");
        int status = doc.path("status").asInt(200);
        ObjectNode ok = responses.putObject(Integer.toString(status))
                .put("description", doc.path("responseDescription").asText("Done"));
        if (status != 204 && status / 100 != 3) {
            JsonNode response = doc.path("response");
            String media = doc.path("mediaType").asText("application/json");
            ok.putObject("content").putObject(media).set("schema",
                    response.isMissingNode() ? JSON.objectNode().put("type", "object") : response.deepCopy());
        }
        for (JsonNode extra : doc.path("also")) {
            responses.putObject(extra.path("status").asText()).put("description", extra.path("description").asText());
        }
        List<Integer> errors = new ArrayList<>();
        if (doc.path("errors").isArray()) {
            doc.path("errors").forEach(e -> errors.add(e.asInt()));
        } else {
            errors.addAll(DEFAULT_ERRORS);
        }
        responses.setAll(OpenApiDocument.errorResponses(errors.stream().mapToInt(Integer::intValue).toArray()));
        return op;
    }

    /**
     * What the documentation says of a parameter Jersey reports (its schema's pattern, enum or bounds, whether it is
     * required, a description): merged into the generated one. Jersey sees only a name and a Java type.
     */
    private static void refine(ArrayNode params, JsonNode refinements) {
        for (JsonNode p : params) {
            JsonNode r = refinements.path(p.path("name").asText());
            if (!(p instanceof ObjectNode param) || !r.isObject()) {
                continue;
            }
            if (r.has("schema")) {
                ObjectNode schema = r.get("schema").deepCopy();
                if (param.path("schema").has("default") && !schema.has("default")) {
                    schema.set("default", param.path("schema").get("default"));
                }
                param.set("schema", schema);
            }
            if (r.has("required")) {
                param.put("required", r.get("required").asBoolean());
            }
            if (r.has("description")) {
                param.put("description", r.get("description").asText());
            }
        }
    }

    private static ObjectNode schemaOf(Class<?> type, String defaultValue) {
        ObjectNode s = JSON.objectNode();
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            s.put("type", "integer");
        } else if (type == boolean.class || type == Boolean.class) {
            s.put("type", "boolean");
        } else {
            s.put("type", "string");
        }
        if (defaultValue != null) {
            switch (s.get("type").asText()) {
                case "integer" -> s.put("default", Long.parseLong(defaultValue));
                case "boolean" -> s.put("default", Boolean.parseBoolean(defaultValue));
                default -> s.put("default", defaultValue);
            }
        }
        return s;
    }

    private static String operationId(Routes.Route route) {
        String tail = route.path().substring(route.path().startsWith(PREFIX) ? PREFIX.length() : 1).replaceAll("[^A-Za-z0-9]+", "_")
                .replaceAll("^_+|_+$", "");
        return route.method().toLowerCase(java.util.Locale.ROOT) + "_" + tail;
    }
}
