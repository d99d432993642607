package io.queryapigate.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The differential test's corpus ({@code compat/corpus.yaml}): named setups (requests that put both gateways in the
 * same state) and cases grouped by area, each replayed against both gateways in file order.
 */
record Corpus(Map<String, List<Step>> setups, List<Step> cases) {
    /** A case id is also the request's {@code X-Request-Id}, so it has that header's accepted shape. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final Set<String> CASE_FIELDS = Set.of("id", "method", "path", "query", "headers", "body",
            "raw_body", "content_type", "key", "auth", "save", "setup", "unordered", "only", "ignore", "normalise",
            "note");
    private static final Set<String> SETUP_FIELDS = Set.of("id", "method", "path", "query", "headers", "body",
            "raw_body", "content_type", "key", "auth", "save", "side", "python", "jvm", "why", "note");
    private static final Set<String> SIDES = Set.of("python", "jvm");

    /**
     * One request. {@code key} names who calls: {@code admin}, a variable a setup saved (a key's secret),
     * {@code none}, or {@code =literal}; {@code save} keeps values of the answer (JSON pointers) as variables of
     * that gateway, used as {@code ${name}} in later paths, query values, headers and bodies. Only setup steps have
     * {@code side} (run on one gateway only) and per-gateway bodies ({@code bodies}), each with a {@code why}.
     */
    record Step(String id, String area, String method, String path, List<Map.Entry<String, String>> query,
            Map<String, String> headers, JsonNode body, String rawBody, String contentType, String key, String auth,
            Map<String, String> save, List<String> setup, List<String> unordered, List<String> only,
            List<String> ignore, List<String> normalise, String side, Map<String, JsonNode> bodies) {

        /** The body this gateway is sent. */
        JsonNode bodyFor(String sideName) {
            return bodies.getOrDefault(sideName, body);
        }

        boolean runsOn(String sideName) {
            return side == null || side.equals(sideName);
        }

        /** What the report shows of the request: method, path and query. */
        String request() {
            StringBuilder s = new StringBuilder(method).append(' ').append(path);
            char sep = '?';
            for (Map.Entry<String, String> e : query) {
                s.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = '&';
            }
            return s.toString();
        }
    }

    static Corpus load(String resource) {
        try (InputStream in = Corpus.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static Corpus parse(String text) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not YAML", e);
        }
        Set<String> ids = new HashSet<>();
        Map<String, List<Step>> setups = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("setups").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            List<Step> steps = new ArrayList<>();
            for (JsonNode s : e.getValue()) {
                steps.add(step(s, "setup:" + e.getKey(), SETUP_FIELDS, List.of(), ids));
            }
            setups.put(e.getKey(), steps);
        }
        List<Step> cases = new ArrayList<>();
        for (JsonNode area : root.path("areas")) {
            String name = text(area, "area", null);
            List<String> setup = strings(area.path("setup"));
            for (JsonNode c : area.path("cases")) {
                Step step = step(c, name, CASE_FIELDS, setup, ids);
                for (String s : step.setup()) {
                    if (!setups.containsKey(s)) {
                        throw new IllegalArgumentException("case " + step.id() + ": no setup named " + s);
                    }
                }
                cases.add(step);
            }
        }
        return new Corpus(setups, cases);
    }

    private static Step step(JsonNode n, String area, Set<String> allowed, List<String> areaSetup, Set<String> ids) {
        String id = text(n, "id", null);
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("step without a valid id (" + ID + ") in " + area + ": " + n);
        }
        if (!ids.add(id)) {
            throw new IllegalArgumentException("duplicate id " + id);
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException(id + ": unknown field '" + f + "' (allowed: " + allowed + ")");
            }
        }
        List<Map.Entry<String, String>> query = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("query").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isArray()) {
                e.getValue().forEach(v -> query.add(Map.entry(e.getKey(), v.asText())));
            } else {
                query.add(Map.entry(e.getKey(), e.getValue().asText()));
            }
        }
        Map<String, JsonNode> bodies = new LinkedHashMap<>();
        for (String side : SIDES) {
            if (n.has(side)) {
                JsonNode override = n.get(side);
                if (!override.isObject() || override.size() != 1 || !override.has("body")) {
                    throw new IllegalArgumentException(id + ": '" + side + "' holds only {body: ...}");
                }
                if (!n.has("why")) {
                    throw new IllegalArgumentException(id + ": a body for one gateway needs a 'why'");
                }
                bodies.put(side, override.get("body"));
            }
        }
        String side = text(n, "side", null);
        if (side != null && (!SIDES.contains(side) || !n.has("why"))) {
            throw new IllegalArgumentException(id + ": side is python or jvm, with a 'why'");
        }
        List<String> setup = n.has("setup") ? strings(n.get("setup")) : areaSetup;
        return new Step(id, area, text(n, "method", "GET").toUpperCase(Locale.ROOT), text(n, "path", null),
                List.copyOf(query), stringMap(n.path("headers")), n.get("body"), text(n, "raw_body", null),
                text(n, "content_type", null), text(n, "key", "admin"), text(n, "auth", "x-api-key"),
                stringMap(n.path("save")), setup, strings(n.path("unordered")), strings(n.path("only")),
                strings(n.path("ignore")), strings(n.path("normalise")), side, bodies);
    }

    private static String text(JsonNode n, String field, String fallback) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? fallback : v.asText();
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(v -> out.add(v.asText()));
        } else if (!n.isMissingNode() && !n.isNull()) {
            out.add(n.asText());
        }
        return List.copyOf(out);
    }

    private static Map<String, String> stringMap(JsonNode n) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n instanceof ObjectNode o) {
            o.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }
}
