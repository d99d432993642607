package io.queryapigate.collections;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A collection as a Postman Collection v2.1 file, as the Python original writes it: one {@code GET /q/<name>} per
 * published query, its parameters filled with values their rules accept and documented; authentication is an
 * {@code X-API-Key} header from the {@code {{apiKey}}} variable, left empty: the file holds no credential.
 */
public final class PostmanExport {
    static final String SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Map<String, String> TYPE_NAMES = Map.of("int", "integer", "float", "number", "str",
            "string", "bool", "boolean");

    private final QueryCollections collections;
    private final SavedQueries saved;

    public PostmanExport(QueryCollections collections, SavedQueries saved) {
        this.collections = collections;
        this.saved = saved;
    }

    /** The file for a collection, its base URL the one the request came in on. */
    public ObjectNode build(String collection, String baseUrl) {
        List<Map.Entry<SavedQueryRow, QueryVersionRow>> members = collections.published(collection);
        ObjectNode out = JSON.objectNode();
        out.putObject("info").put("name", collection).put("schema", SCHEMA).put("description", "The '" + collection
                + "' collection, exported from QueryAPIGate. A snapshot of the latest version of each query - export"
                + " again after queries change. Set the apiKey variable to a key that may run them.");
        ObjectNode auth = out.putObject("auth").put("type", "apikey");
        ArrayNode apikey = auth.putArray("apikey");
        apikey.addObject().put("key", "key").put("value", "X-API-Key").put("type", "string");
        apikey.addObject().put("key", "value").put("value", "{{apiKey}}").put("type", "string");
        apikey.addObject().put("key", "in").put("value", "header").put("type", "string");
        ArrayNode variables = out.putArray("variable");
        variables.addObject().put("key", "baseUrl").put("value", stripSlashes(baseUrl));
        variables.addObject().put("key", "apiKey").put("value", "");
        ArrayNode items = out.putArray("item");
        for (Map.Entry<SavedQueryRow, QueryVersionRow> m : members) {
            items.add(request(m.getKey().name(), m.getValue()));
        }
        return out;
    }

    private ObjectNode request(String name, QueryVersionRow v) {
        List<ObjectNode> query = new ArrayList<>();
        JsonNode declared = saved.parameters(v);
        for (String marker : saved.definitions().sqlText(v.sqlText(), v.connectionName()).markerNames()) {
            query.add(parameter(marker, declared.get(marker)));
        }
        query.add(JSON.objectNode().put("key", "format").put("value", "json").put("disabled", true)
                .put("description", "json (default), csv, tsv, ndjson, ..."));
        query.add(JSON.objectNode().put("key", "page").put("value", "1").put("disabled", true)
                .put("description", "Page number (1-based)."));
        query.add(JSON.objectNode().put("key", "page_size").put("value", "10").put("disabled", true)
                .put("description", "Rows per page."));
        String encoded = quote(name);
        List<String> active = new ArrayList<>();
        for (ObjectNode q : query) {
            if (!q.path("disabled").asBoolean(false)) {
                active.add(q.get("key").asText() + "=" + quote(q.get("value").asText()));
            }
        }
        String description = (v.description() == null || v.description().isEmpty() ? "Run the saved query " + name
                : v.description()) + "\n\nRuns version " + v.version() + " of `" + name + "`.";
        ObjectNode item = JSON.objectNode().put("name", name);
        ObjectNode request = item.putObject("request").put("method", "GET");
        request.putArray("header");
        request.put("description", description);
        ObjectNode url = request.putObject("url").put("raw", "{{baseUrl}}/q/" + encoded
                + (active.isEmpty() ? "" : "?" + String.join("&", active)));
        url.putArray("host").add("{{baseUrl}}");
        url.putArray("path").add("q").add(encoded);
        query.forEach(url.putArray("query")::add);
        return item;
    }

    /** One parameter's entry: an example value, its rules in words, disabled when it is optional. */
    static ObjectNode parameter(String name, JsonNode rule) {
        JsonNode r = rule == null ? JSON.objectNode() : rule;
        String type = TYPE_NAMES.getOrDefault(r.path("type").asText("str"), r.path("type").asText("str"));
        boolean required = r.path("required").asBoolean(true);
        List<String> rules = new ArrayList<>();
        rules.add(type);
        if (r.path("enum").isArray()) {
            List<String> values = new ArrayList<>();
            r.get("enum").forEach(e -> values.add(text(e)));
            rules.add("one of " + String.join(", ", values));
        }
        for (String key : List.of("min", "max", "min_length", "max_length")) {
            if (r.hasNonNull(key)) {
                rules.add(key + " " + text(r.get(key)));
            }
        }
        if (r.hasNonNull("pattern")) {
            rules.add("must match /" + r.get("pattern").asText() + "/ - fill this in");
        }
        String notes = (r.hasNonNull("description") ? r.get("description").asText() + " " : "")
                + (required ? "Required. " : "Optional (enable to send). ") + String.join(", ", rules);
        ObjectNode entry = JSON.objectNode().put("key", name).put("value", example(r, type))
                .put("description", notes.strip());
        if (!required) {
            entry.put("disabled", true);
        }
        return entry;
    }

    /** A value the rule accepts, as a query string carries it; empty when none can be made (a pattern). */
    static String example(JsonNode r, String type) {
        if (r.has("default")) {
            return r.get("default").isNull() ? "" : text(r.get("default"));
        }
        if (r.path("enum").isArray() && !r.get("enum").isEmpty()) {
            return text(r.get("enum").get(0));
        }
        switch (type) {
            case "integer", "number", "decimal" -> {
                BigDecimal low = r.hasNonNull("min") ? r.get("min").decimalValue() : null;
                BigDecimal high = r.hasNonNull("max") ? r.get("max").decimalValue() : null;
                BigDecimal value = low != null ? low
                        : high == null || high.compareTo(BigDecimal.ONE) >= 0 ? BigDecimal.ONE : high;
                if (type.equals("integer")) {
                    BigDecimal floor = value.setScale(0, java.math.RoundingMode.FLOOR);
                    value = floor.compareTo(value) == 0 ? floor : floor.add(BigDecimal.ONE);
                }
                return value.stripTrailingZeros().toPlainString();
            }
            case "boolean" -> {
                return "true";
            }
            case "date" -> {
                return "2024-01-01";
            }
            case "timestamp" -> {
                return "2024-01-01T00:00:00";
            }
            default -> {
                if (r.hasNonNull("pattern")) {
                    return "";
                }
                return "x".repeat(Math.max(1, r.path("min_length").asInt(0)));
            }
        }
    }

    private static String text(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue() ? "true" : "false";
        }
        return v.isNumber() ? v.decimalValue().toPlainString() : v.asText();
    }

    /** Percent-encodes all but letters, digits and {@code _.-~}, as Python's {@code quote(s, safe='')}. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
                    || c == '-' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return out.toString();
    }

    private static String stripSlashes(String url) {
        String u = url;
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        return u;
    }
}
