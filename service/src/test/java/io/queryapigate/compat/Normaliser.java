package io.queryapigate.compat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An answer as it is compared: status, error code, the headers that matter and the body, with what differs by nature
 * between two servers replaced by a placeholder that keeps its shape: times ({@code <time 9999-99-99 99:99:99>}:
 * the format stays visible, the value not), uuids, secrets, cursors, durations and error messages (clients read
 * codes, not prose). Rows ({@code /q}, {@code /execute_sql}) are compared as they are; only an error envelope in
 * them is normalised. The corpus can normalise more ({@code normalise}), drop fields ({@code ignore}), compare only
 * some ({@code only}) and sort arrays whose order means nothing ({@code unordered}).
 */
final class Normaliser {
    /** Decimals kept exact, trailing zeros included: {@code 1.10} and {@code 1.1} differ. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    /** Compared headers (lower case). ETag and Retry-After by presence; Connection only as "close" or absent. */
    static final List<String> HEADERS = List.of("content-type", "content-disposition", "cache-control", "etag",
            "x-cache", "x-page", "x-page-size", "x-row-count", "x-has-more", "retry-after", "x-request-id",
            "x-content-type-options", "referrer-policy", "content-security-policy", "access-control-allow-origin",
            "location", "connection");
    private static final List<String> PRESENCE_ONLY = List.of("etag", "retry-after");

    private static final Pattern TIME = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}(?:[ T]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?(?:Z|[+-]\\d{2}:?\\d{2})?");
    private static final Pattern FRACTION = Pattern.compile("\\.9+");
    private static final Pattern SECRET = Pattern.compile("(?:sk|qag)_[A-Za-z0-9_-]{20,}");

    private Normaliser() {}

    /** What a body is: JSON (parsed, or decoded from XLSX/Parquet), text, or nothing. */
    enum Kind { JSON, TEXT, EMPTY }

    /** One answer, normalised. */
    record View(int status, String code, Map<String, String> headers, Kind kind, JsonNode json, String text) {}

    static View view(Corpus.Step step, Side.Answer a) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h : HEADERS) {
            String v = a.header(h);
            if (v != null) {
                v = v.trim();
                if (PRESENCE_ONLY.contains(h)) {
                    v = "(present)";
                } else if (h.equals("connection")) {
                    v = v.toLowerCase(Locale.ROOT).contains("close") ? "close" : null;
                } else if (h.equals("content-type")) {
                    v = v.toLowerCase(Locale.ROOT).replace(" ", "");
                }
            }
            if (v != null) {
                headers.put(h, step.normalise().contains("header:" + h) ? "(present)" : v);
            }
        }
        if (a.body().length == 0) {
            // what a body is and how a browser may show it mean nothing without one (a 204, a 304)
            headers.keySet().removeAll(List.of("content-type", "content-security-policy", "referrer-policy"));
        }
        String contentType = headers.getOrDefault("content-type", "");
        JsonNode json = Bodies.decode(contentType, a.body());
        if (json == null && !contentType.startsWith("text/") && !contentType.contains("xml")
                && !contentType.contains("yaml") && !contentType.contains("ndjson")) {
            json = a.json();
        }
        String code = json != null && a.status() >= 400 && json.path("code").isTextual() ? json.get("code").asText()
                : null;
        if (json == null) {
            Kind kind = a.body().length == 0 ? Kind.EMPTY : Kind.TEXT;
            return new View(a.status(), code, headers, kind, null, a.text().replace("\r\n", "\n"));
        }
        boolean rows = step.path().startsWith("/q/") || step.path().startsWith("/execute_sql");
        if (a.status() >= 400 && json.isObject() && json.has("code")) {
            envelope((ObjectNode) json);
        } else if (!rows) {
            json = management(null, json);
        }
        for (String p : step.normalise()) {
            if (p.startsWith("header:")) {
                continue;
            }
            for (Map.Entry<String, JsonNode> e : Pointers.select(json, p).entrySet()) {
                json = replace(json, e.getKey(), placeholder(e.getValue(), "<normalised>"));
            }
        }
        for (String p : step.ignore()) {
            List<String> at = new ArrayList<>(Pointers.select(json, p).keySet());
            for (String one : at.reversed()) {
                json = remove(json, one);
            }
        }
        for (String p : step.unordered()) {
            Pointers.select(json, p).forEach((at, n) -> {
                if (n instanceof ArrayNode arr) {
                    List<JsonNode> items = new ArrayList<>();
                    arr.forEach(items::add);
                    items.sort(Comparator.comparing(JsonNode::toString));
                    arr.removeAll();
                    arr.addAll(items);
                }
            });
        }
        return new View(a.status(), code, headers, Kind.JSON, json, null);
    }

    private static void envelope(ObjectNode o) {
        for (String f : List.of("error", "detail")) {
            if (o.path(f).isTextual()) {
                o.put(f, "<message>");
            }
        }
        if (o.get("errors") instanceof ObjectNode errors) {
            errors.fieldNames().forEachRemaining(f -> errors.put(f, "<message>"));
        }
        o.remove("trace_id");
    }

    /** Management answers: placeholders chosen by the field's name, recursively. */
    private static JsonNode management(String field, JsonNode n) {
        if (n instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                e.setValue(management(e.getKey(), e.getValue()));
            }
            return o;
        }
        if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                a.set(i, management(field, a.get(i)));
            }
            return a;
        }
        if (n.isNull() || field == null) {
            return n;
        }
        if (n.isTextual()) {
            String s = n.asText();
            if (SECRET.matcher(s).matches() || field.equals("secret")) {
                return TextNode.valueOf("<secret>");
            }
            if (field.endsWith("_at") || field.equals("time") || field.equals("since") || field.equals("until")) {
                return TextNode.valueOf(timeShape(s));
            }
            return switch (field) {
                case "uuid" -> TextNode.valueOf("<uuid>");
                case "prefix" -> TextNode.valueOf("<secret prefix>");
                case "next_cursor" -> TextNode.valueOf("<cursor>");
                case "error", "detail" -> TextNode.valueOf("<message>");
                default -> n;
            };
        }
        if (n.isNumber() && (field.endsWith("_ms") || field.equals("next_cursor"))) {
            return IntNode.valueOf(0);
        }
        return n;
    }

    /** {@code 2026-12-01T20:26:43.787Z} → {@code <time 9999-99-99T99:99:99.fZ>}; other text unchanged. */
    static String timeShape(String s) {
        Matcher m = TIME.matcher(s);
        if (!m.matches()) {
            return s;
        }
        return "<time " + FRACTION.matcher(s.replaceAll("\\d", "9")).replaceAll(".f") + ">";
    }

    private static JsonNode placeholder(JsonNode n, String text) {
        return n.isNull() ? n : n.isNumber() ? IntNode.valueOf(0) : TextNode.valueOf(text);
    }

    private static JsonNode replace(JsonNode root, String at, JsonNode value) {
        if (at.isEmpty()) {
            return value;
        }
        int cut = at.lastIndexOf('/');
        JsonNode parent = root.at(at.substring(0, cut));
        String last = Pointers.segments(at).getLast();
        if (parent instanceof ObjectNode o) {
            o.set(last, value);
        } else if (parent instanceof ArrayNode a) {
            a.set(Integer.parseInt(last), value);
        }
        return root;
    }

    private static JsonNode remove(JsonNode root, String at) {
        if (at.isEmpty()) {
            return MAPPER.nullNode();
        }
        int cut = at.lastIndexOf('/');
        JsonNode parent = root.at(at.substring(0, cut));
        String last = Pointers.segments(at).getLast();
        if (parent instanceof ObjectNode o) {
            o.remove(last);
        } else if (parent instanceof ArrayNode a) {
            a.remove(Integer.parseInt(last));
        }
        return root;
    }
}
