package io.queryapigate.keys;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Quota;
import io.queryapigate.errors.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A key's (or a role's) fields as a request body (or a configuration-as-code file) gives them, applied to its state:
 * absent fields are kept, null clears what can be cleared, each present one checked by {@link KeyFields}. A problem
 * is 400 {@code invalid_body} naming the field; {@link #applyAll} names every bad field at once.
 */
public final class KeyBody {
    /** The grant and limit fields a key carries. */
    public static final Set<String> GRANT_FIELDS = Set.of("connections", "queries", "collections", "adhoc_sql",
            "allow_writes", "allowed_write_ops", "allowed_tables", "allowed_ips", "mask", "rate_limit", "quota",
            "max_rows", "max_concurrent", "query_timeout");
    /** A new key's state before its body: no reach, no restrictions, no expiry, active. */
    public static final ApiKeys.State NONE = new ApiKeys.State(new Grants(null, null, false, false, null, null,
            null, null, null, null, null, null, null), null, true);
    /** A new key made from {@code role}: everything the role has until its own fields narrow it. */
    public static ApiKeys.State fromRole(String role) {
        return new ApiKeys.State(Narrowing.AS_THE_ROLE, null, true, role, Map.of());
    }

    private KeyBody() {}

    /**
     * As {@link #apply}, with every bad field named at once: each field is checked on its own first, and 400
     * {@code invalid_body} lists all of them in {@code errors}.
     */
    public static ApiKeys.State applyAll(JsonNode node, ApiKeys.State read, Predicate<String> knownConnection,
            boolean hashMasking) {
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        for (var it = node.fields(); it.hasNext(); ) {
            var e = it.next();
            try {
                apply(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                        .set(e.getKey(), e.getValue()), read, knownConnection, hashMasking);
            } catch (ApiException ex) {
                if (ex.errors() == null || ex.errors().isEmpty()) {
                    errors.put(e.getKey(), ex.getMessage());
                } else {
                    errors.putAll(ex.errors());
                }
            }
        }
        if (!errors.isEmpty()) {
            throw fieldErrors(errors);
        }
        return apply(node, read, knownConnection, hashMasking);
    }

    /** 400 {@code invalid_body} naming each field with its problem, in {@code errors} and in the message. */
    public static ApiException fieldErrors(Map<String, String> errors) {
        StringBuilder message = new StringBuilder();
        errors.forEach((field, problem) -> message.append(message.isEmpty() ? "" : " ").append(field).append(' ')
                .append(problem).append('.'));
        return new ApiException(400, "invalid_body", message.toString(), errors);
    }

    /**
     * The state {@code node}'s fields make of {@code read}.
     *
     * @param knownConnection whether a connection of that name exists ({@code "*"} is always accepted)
     * @param hashMasking whether the server has a masking key (hash mask rules)
     */
    public static ApiKeys.State apply(JsonNode node, ApiKeys.State read, Predicate<String> knownConnection,
            boolean hashMasking) {
        Grants g = read.grants();
        List<String> conns = node.has("connections") ? names(node, "connections") : null;
        if (conns != null) {
            for (String c : conns) {
                if (!c.equals("*") && !knownConnection.test(c)) {
                    throw fieldError("connections", "names an unknown connection '" + c + "'");
                }
            }
        }
        List<String> collections = list(node, "collections");
        if (collections != null && !collections.isEmpty()) {
            throw fieldError("collections", "is not supported: this server grants queries by name");
        }
        List<String> queries = node.has("queries") ? names(node, "queries") : null;
        Grants next = new Grants(
                conns != null ? conns : g.connections(),
                queries != null ? queries : g.queries(),
                bool(node, "adhoc_sql") != null ? bool(node, "adhoc_sql") : g.adhocSql(),
                bool(node, "allow_writes") != null ? bool(node, "allow_writes") : g.allowWrites(),
                node.has("allowed_write_ops") ? field("allowed_write_ops",
                        () -> KeyFields.writeOps(names(node, "allowed_write_ops"))) : g.allowedWriteOps(),
                node.has("allowed_tables") ? field("allowed_tables",
                        () -> KeyFields.tables(names(node, "allowed_tables"))) : g.allowedTables(),
                node.has("allowed_ips") ? field("allowed_ips", () -> KeyFields.ips(list(node, "allowed_ips")))
                        : g.allowedIps(),
                node.has("mask") ? field("mask", () -> KeyFields.masks(node.get("mask"), hashMasking)) : g.mask(),
                node.has("rate_limit") ? field("rate_limit", () -> KeyFields.rateLimit(text(node, "rate_limit")))
                        : g.rateLimit(),
                node.has("quota") ? field("quota", () -> Quota.of(node.get("quota"))) : g.quota(),
                node.has("max_rows") ? field("max_rows", () -> KeyFields.maxRows(node.get("max_rows")))
                        : g.maxRows(),
                node.has("max_concurrent") ? field("max_concurrent",
                        () -> KeyFields.maxConcurrent(node.get("max_concurrent"))) : g.maxConcurrent(),
                node.has("query_timeout") ? field("query_timeout",
                        () -> KeyFields.queryTimeout(node.get("query_timeout"))) : g.queryTimeout());
        String expires = node.has("expires_at") ? field("expires_at", () -> KeyFields.expiresAt(
                text(node, "expires_at"))) : read.expiresAt();
        boolean active = bool(node, "active") != null ? bool(node, "active") : read.active();
        String role = node.has("role") ? text(node, "role") : read.role();
        if (role != null && role.isBlank()) {
            throw fieldError("role", "must name a role, or be null for none");
        }
        Map<String, Object> claims = node.has("claims") ? field("claims", () -> KeyFields.claims(node.get("claims")))
                : read.claims();
        return new ApiKeys.State(next, expires, active, role, claims);
    }

    /** 400 {@code invalid_body}: "{@code field problem}." with the field in {@code errors}. */
    public static ApiException fieldError(String field, String problem) {
        return new ApiException(400, "invalid_body", field + " " + problem + ".", Map.of(field, problem));
    }

    private static <T> T field(String name, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw fieldError(name, e.getMessage());
        }
    }

    private static JsonNode get(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = get(node, field);
        if (v != null && !v.isTextual()) {
            throw fieldError(field, "must be text");
        }
        return v == null ? null : v.textValue();
    }

    private static Boolean bool(JsonNode node, String field) {
        JsonNode v = get(node, field);
        if (v != null && !v.isBoolean()) {
            throw fieldError(field, "must be true or false");
        }
        return v == null ? null : v.booleanValue();
    }

    /** A list of names, or the single string {@code "*"} meaning all. */
    private static List<String> names(JsonNode node, String field) {
        JsonNode v = get(node, field);
        if (v == null) {
            return null;
        }
        if (v.isTextual() && v.textValue().equals("*")) {
            return List.of("*");
        }
        if (!v.isArray()) {
            throw fieldError(field, "must be a list of names or \"*\"");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual() || e.textValue().isBlank()) {
                throw fieldError(field, "must be a list of names or \"*\"");
            }
            if (!out.contains(e.textValue())) {
                out.add(e.textValue());
            }
        }
        return out;
    }

    /** A list of non-empty strings (no "*" shorthand); an empty list is kept (it means "none"). */
    private static List<String> list(JsonNode node, String field) {
        JsonNode v = get(node, field);
        if (v == null) {
            return null;
        }
        if (!v.isArray()) {
            throw fieldError(field, "must be a list");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode e : v) {
            if (!e.isTextual() || e.textValue().isBlank()) {
                throw fieldError(field, "must be a list of non-empty strings");
            }
            out.add(e.textValue().strip());
        }
        return out;
    }
}
