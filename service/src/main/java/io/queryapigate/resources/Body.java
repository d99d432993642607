package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.errors.ApiException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A JSON request body: an object, each known field of the expected JSON type. */
final class Body {
    private final JsonNode node;

    private Body(JsonNode node) {
        this.node = node;
    }

    /**
     * A call's body ({@code /q}, {@code /execute_sql}), read as the Python original reads it: fields it does not
     * know are ignored (clients send {@code placeholders}, {@code tags} and their own), the known ones still checked.
     */
    static Body lenient(JsonNode node, boolean required) {
        return of(node, required, null);
    }

    /** A management body: with {@code fields} non-null, a field outside them is 400 {@code unknown_field}. */
    static Body of(JsonNode node, boolean required, Set<String> fields) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            if (required) {
                throw ApiException.badRequest("invalid_body", "A JSON object body is required.");
            }
            return new Body(null);
        }
        if (!node.isObject()) {
            throw ApiException.badRequest("invalid_body", "The request body must be a JSON object.");
        }
        Map<String, String> unknown = new LinkedHashMap<>();
        for (Iterator<String> it = node.fieldNames(); fields != null && it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f)) {
                unknown.put(f, "is not a known field");
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiException(400, "unknown_field", "Unknown field(s): " + String.join(", ", unknown.keySet())
                    + ".", unknown);
        }
        return new Body(node);
    }

    /** An optional body read as JSON text: null when there is none, 400 {@code invalid_body} when it is not JSON. */
    static JsonNode optionalJson(com.fasterxml.jackson.databind.ObjectMapper mapper, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return mapper.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiException.badRequest("invalid_body", "Request body must be a JSON object");
        }
    }

    JsonNode get(String field) {
        if (node == null) {
            return null;
        }
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    String text(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isTextual()) {
            throw fieldError(field, "must be text");
        }
        return v.textValue();
    }

    /** A number or numeric text (query-string compatible fields such as timeout). */
    String numberText(String field) {
        JsonNode v = get(field);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() && !v.isTextual()) {
            throw fieldError(field, "must be a number");
        }
        return v.asText();
    }

    JsonNode object(String field) {
        JsonNode v = get(field);
        if (v != null && !v.isObject()) {
            throw fieldError(field, "must be an object");
        }
        return v;
    }

    static ApiException fieldError(String field, String problem) {
        return new ApiException(400, "invalid_body", field + " " + problem + ".", Map.of(field, problem));
    }
}
