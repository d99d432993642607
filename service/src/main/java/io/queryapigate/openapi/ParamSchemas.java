package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.params.ParamSpec;
import java.math.BigDecimal;

/**
 * A saved query's parameter rules as JSON Schema (OpenAPI 3.1): the same rules {@code params.ParamRules} checks on
 * every call, so a value the schema allows is a value the call accepts.
 */
public final class ParamSchemas {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ParamSchemas() {}

    /** The schema of one parameter's value. */
    public static ObjectNode of(ParamSpec spec) {
        ObjectNode s = JSON.objectNode();
        switch (spec.type()) {
            case INT -> s.put("type", "integer").put("format", "int64");
            case FLOAT -> s.put("type", "number").put("format", "double");
            case DECIMAL -> s.put("type", "number").put("format", "decimal");
            case BOOL -> s.put("type", "boolean");
            case DATE -> s.put("type", "string").put("format", "date");
            case TIMESTAMP -> s.put("type", "string").put("format", "date-time");
            case STR -> s.put("type", "string");
        }
        if (spec.allowed() != null) {
            ArrayNode values = s.putArray("enum");
            spec.allowed().forEach(v -> values.add(value(v)));
        }
        if (spec.min() != null) {
            s.put("minimum", spec.min());
        }
        if (spec.max() != null) {
            s.put("maximum", spec.max());
        }
        if (spec.minLength() != null) {
            s.put("minLength", spec.minLength());
        }
        if (spec.maxLength() != null) {
            s.put("maxLength", spec.maxLength());
        }
        if (spec.pattern() != null) {
            s.put("pattern", "^(?:" + spec.pattern().pattern() + ")$"); // the rule must match the whole value
        }
        if (spec.description() != null && !spec.description().isEmpty()) {
            s.put("description", spec.description());
        }
        if (spec.hasDefault() && spec.defaultValue() != null) {
            s.set("default", value(spec.defaultValue()));
        }
        return s;
    }

    private static com.fasterxml.jackson.databind.JsonNode value(Object v) {
        return switch (v) {
            case Long l -> JSON.numberNode(l);
            case Integer i -> JSON.numberNode(i);
            case Double d -> JSON.numberNode(d);
            case BigDecimal b -> JSON.numberNode(b);
            case Boolean b -> JSON.booleanNode(b);
            default -> JSON.textNode(v.toString());
        };
    }
}
