package io.queryapigate.collections;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import io.queryapigate.params.ParamExamples;
import io.queryapigate.params.ParamRules;
import io.queryapigate.params.ParamSpec;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Published queries as a Postman Collection v2.1 file, as the Python original writes it: one {@code GET /q/<name>}
 * per query, its parameters filled with example values their rules accept ({@link ParamExamples}, checked by the
 * same validation a call goes through) and documented; authentication is an {@code X-API-Key} header from the
 * {@code {{apiKey}}} variable, left empty: the file holds no credential.
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
        return build(collection, "The '" + collection + "' collection, exported from QueryAPIGate. A snapshot of the"
                + " latest version of each query - export again after queries change. Set the apiKey variable to a key"
                + " that may run them.", collections.published(collection), baseUrl);
    }

    /**
     * A file of any published queries (a collection's, or those a caller may run), one request each, in the order
     * given.
     *
     * @param title       the collection's name in Postman
     * @param description its description
     * @param queries     each query with the version its request runs
     * @param baseUrl     the {@code {{baseUrl}}} variable's value (trailing slashes dropped)
     */
    public ObjectNode build(String title, String description,
            List<Map.Entry<SavedQueryRow, QueryVersionRow>> queries, String baseUrl) {
        ObjectNode out = JSON.objectNode();
        out.putObject("info").put("name", title).put("schema", SCHEMA).put("description", description);
        ObjectNode auth = out.putObject("auth").put("type", "apikey");
        ArrayNode apikey = auth.putArray("apikey");
        apikey.addObject().put("key", "key").put("value", "X-API-Key").put("type", "string");
        apikey.addObject().put("key", "value").put("value", "{{apiKey}}").put("type", "string");
        apikey.addObject().put("key", "in").put("value", "header").put("type", "string");
        ArrayNode variables = out.putArray("variable");
        variables.addObject().put("key", "baseUrl").put("value", stripSlashes(baseUrl));
        variables.addObject().put("key", "apiKey").put("value", "");
        ArrayNode items = out.putArray("item");
        for (Map.Entry<SavedQueryRow, QueryVersionRow> m : queries) {
            items.add(request(m.getKey().name(), m.getValue()));
        }
        return out;
    }

    private ObjectNode request(String name, QueryVersionRow v) {
        List<ObjectNode> query = new ArrayList<>();
        JsonNode declared = saved.parameters(v);
        Map<String, ParamSpec> specs = specs(declared);
        for (String marker : saved.definitions().text(v).markerNames()) {
            ParamSpec spec = specs.get(marker);
            if (spec != null && spec.bindsClaim()) {
                continue; // filled from the caller's claims, never sent
            }
            query.add(parameter(marker, declared.get(marker), spec == null ? ParamSpec.plain(marker) : spec));
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

    /** The rules as a call reads them; none when they do not parse (such a version cannot run either). */
    private static Map<String, ParamSpec> specs(JsonNode declared) {
        try {
            return ParamRules.parse(declared).specs();
        } catch (ApiException unreadable) {
            return Map.of();
        }
    }

    /**
     * One parameter's entry: an example value its rules accept ({@link ParamExamples}), its rules in words,
     * disabled when it is optional. Where no valid example could be made, the description says why.
     */
    static ObjectNode parameter(String name, JsonNode rule, ParamSpec spec) {
        JsonNode r = rule == null ? JSON.objectNode() : rule;
        String type = TYPE_NAMES.getOrDefault(r.path("type").asText("str"), r.path("type").asText("str"));
        boolean required = r.path("required").asBoolean(true);
        ParamExamples.Example example = ParamExamples.of(spec);
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
            rules.add("must match /" + r.get("pattern").asText() + "/");
        }
        if (!example.valid()) {
            rules.add("no valid example (" + example.problem() + ") - fill this in");
        }
        String notes = (r.hasNonNull("description") ? r.get("description").asText() + " " : "")
                + (required ? "Required. " : "Optional (enable to send). ") + String.join(", ", rules);
        ObjectNode entry = JSON.objectNode().put("key", name).put("value", example.text())
                .put("description", notes.strip());
        if (!required) {
            entry.put("disabled", true);
        }
        return entry;
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
