package io.queryapigate.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A saved-query version's parameter rules as the original reads them at run time (params.py's {@code
 * read_definition}: a definition it cannot read degrades to an untyped, required parameter), written in our rule
 * format ({@code params.ParamRules}): the same types, bounds, defaults, enums and patterns. What ours has no rule for
 * is dropped with a note ({@code example}: documentation only), or stops the query ({@code from_claim}, {@code
 * embed}: values that do not come from the caller). Every marker of the SQL ends up declared, as ours requires.
 */
final class PythonParameters {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Set<String> RULE_KEYS = Set.of("type", "required", "default", "enum", "min", "max",
            "min_length", "max_length", "pattern", "description", "example", "embed", "from_claim");
    private static final Map<String, String> TYPES = Map.of("int", "int", "integer", "int", "float", "float",
            "number", "float", "str", "str", "string", "str", "bool", "bool", "boolean", "bool");

    /** Our rules, what was changed on the way ({@code notes}), or why the version cannot be imported. */
    record Converted(ObjectNode rules, List<String> notes, String blocker) {}

    private PythonParameters() {}

    /**
     * @param declared the version's {@code query_parameters} as stored
     * @param markers the SQL's {@code :name} markers, as our lexer reads them for its connection
     */
    static Converted convert(JsonNode declared, Set<String> markers) {
        ObjectNode out = F.objectNode();
        List<String> notes = new ArrayList<>();
        if (declared != null && declared.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = declared.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String name = e.getKey();
                if (!markers.contains(name)) {
                    notes.add("parameter '" + name + "' is declared but the SQL does not use it: dropped");
                    continue;
                }
                JsonNode spec = lenient(e.getValue());
                if (spec == null) {
                    notes.add("parameter '" + name + "' has a definition the original could not read (it treated"
                            + " it as required text): declared as required text");
                    spec = F.objectNode();
                }
                if (spec.hasNonNull("from_claim")) {
                    return new Converted(null, notes, "parameter '" + name + "' takes its value from the caller's"
                            + " sign-in token (from_claim); this gateway has no sign-in tokens");
                }
                if (spec.path("embed").asBoolean(false)) {
                    return new Converted(null, notes, "parameter '" + name + "' is embedded into a vector by the"
                            + " server (embed); this gateway has no embeddings");
                }
                out.set(name, rule(name, (ObjectNode) spec, notes));
            }
        }
        for (String marker : markers) {
            if (!out.has(marker)) {
                ObjectNode rule = out.putObject(marker);
                rule.put("type", "str");
                notes.add("parameter '" + marker + "' is used but not declared: declared as required text");
            }
        }
        return new Converted(out, notes, null);
    }

    /** As params.py's {@code read_definition}: the definition as an object of rules, or null when it degrades. */
    private static JsonNode lenient(JsonNode spec) {
        if (spec.isTextual()) {
            String type = TYPES.get(spec.asText().toLowerCase(Locale.ROOT));
            ObjectNode o = F.objectNode();
            if (type != null) {
                o.put("type", type);
            }
            return o;
        }
        if (!spec.isObject()) {
            return null;
        }
        for (Iterator<String> it = spec.fieldNames(); it.hasNext(); ) {
            if (!RULE_KEYS.contains(it.next())) {
                return null;
            }
        }
        JsonNode type = spec.get("type");
        if (type != null && !type.isNull() && TYPES.get(type.asText().toLowerCase(Locale.ROOT)) == null) {
            return null;
        }
        return spec;
    }

    private static ObjectNode rule(String name, ObjectNode spec, List<String> notes) {
        JsonNode typeNode = spec.get("type");
        String declaredType = typeNode == null || typeNode.isNull() ? null
                : TYPES.get(typeNode.asText().toLowerCase(Locale.ROOT));
        String type = declaredType != null ? declaredType : inferred(spec);
        if (declaredType == null) {
            notes.add("parameter '" + name + "' has no type in the original (any text, number or true/false):"
                    + " typed " + type + " here" + (type.equals("str") ? "" : ", from its rules' values"));
        }
        ObjectNode out = F.objectNode();
        out.put("type", type);
        if (spec.has("required") && spec.get("required").isBoolean() && !spec.has("default")) {
            out.put("required", spec.get("required").asBoolean());
        }
        if (spec.has("default")) {
            out.set("default", coerce(type, spec.get("default")));
        }
        if (spec.hasNonNull("enum") && spec.get("enum").isArray()) {
            ArrayNode values = out.putArray("enum");
            spec.get("enum").forEach(v -> values.add(coerce(type, v)));
        }
        boolean numeric = type.equals("int") || type.equals("float");
        for (String bound : List.of("min", "max")) {
            if (spec.hasNonNull(bound)) {
                if (numeric) {
                    out.set(bound, spec.get(bound));
                } else {
                    notes.add("parameter '" + name + "': " + bound + " dropped (the original applied it only to"
                            + " JSON numbers given for an untyped parameter)");
                }
            }
        }
        for (String length : List.of("min_length", "max_length")) {
            if (spec.hasNonNull(length) && type.equals("str")) {
                out.set(length, spec.get(length));
            }
        }
        if (spec.hasNonNull("pattern") && type.equals("str")) {
            String pattern = javaPattern(spec.get("pattern").asText());
            if (!pattern.equals(spec.get("pattern").asText())) {
                notes.add("parameter '" + name + "': pattern written in Java's syntax as " + pattern);
            }
            out.put("pattern", pattern);
        }
        if (spec.hasNonNull("description")) {
            out.set("description", spec.get("description"));
        }
        if (spec.has("example")) {
            notes.add("parameter '" + name + "': example dropped (this gateway has no per-parameter example)");
        }
        return out;
    }

    /** An untyped parameter's type here: what its enum, default and bounds hold, text when they hold nothing. */
    private static String inferred(ObjectNode spec) {
        List<JsonNode> values = new ArrayList<>();
        spec.path("enum").forEach(values::add);
        for (String k : List.of("default", "min", "max")) {
            if (spec.hasNonNull(k)) {
                values.add(spec.get(k));
            }
        }
        if (values.isEmpty() || values.stream().anyMatch(JsonNode::isTextual)) {
            return "str";
        }
        if (values.stream().allMatch(JsonNode::isBoolean)) {
            return "bool";
        }
        if (values.stream().allMatch(JsonNode::isNumber)) {
            return values.stream().allMatch(JsonNode::isIntegralNumber) ? "int" : "float";
        }
        return "str";
    }

    /** A rule's value as params.py's {@code _coerce} makes it (the text "5" of an int rule is the number 5). */
    private static JsonNode coerce(String type, JsonNode v) {
        if (v == null || v.isNull() || !v.isTextual()) {
            return type.equals("str") && v != null && (v.isNumber() || v.isBoolean()) ? F.textNode(v.asText()) : v;
        }
        String text = v.asText().strip();
        try {
            return switch (type) {
                case "int" -> F.numberNode(new BigDecimal(text).longValueExact());
                case "float" -> F.numberNode(Double.parseDouble(text));
                case "bool" -> switch (text.toLowerCase(Locale.ROOT)) {
                    case "true", "1", "yes" -> F.booleanNode(true);
                    case "false", "0", "no" -> F.booleanNode(false);
                    default -> v;
                };
                default -> v;
            };
        } catch (NumberFormatException | ArithmeticException e) {
            return v;
        }
    }

    /**
     * A Python {@code re} pattern in {@code java.util.regex}'s syntax: named groups ({@code (?P<n>...)}, {@code
     * (?P=n)}), {@code \Z}, and Unicode classes ({@code \d \w \s \b} match any script's letters and digits in Python,
     * only ASCII in Java unless {@code (?U)}).
     */
    static String javaPattern(String python) {
        StringBuilder out = new StringBuilder();
        boolean unicodeClasses = false;
        for (int i = 0; i < python.length(); i++) {
            char c = python.charAt(i);
            if (c == '\\' && i + 1 < python.length()) {
                char n = python.charAt(++i);
                if (n == 'Z') {
                    out.append("\\z");
                } else {
                    unicodeClasses |= "dwsbDWSB".indexOf(n) >= 0;
                    out.append(c).append(n);
                }
            } else if (python.startsWith("(?P<", i)) {
                out.append("(?<");
                i += 3;
            } else if (python.startsWith("(?P=", i) && python.indexOf(')', i) > 0) {
                int end = python.indexOf(')', i);
                out.append("\\k<").append(python, i + 4, end).append('>');
                i = end;
            } else {
                out.append(c);
            }
        }
        return (unicodeClasses ? "(?U)" : "") + out;
    }
}
