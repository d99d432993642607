package io.queryapigate.keys;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.IpRange;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.limits.Rate;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The rules of an API key's fields, as creating and changing a key apply them. Each check returns the value as stored,
 * or throws {@link IllegalArgumentException} with the problem (a phrase that follows the field's name).
 */
public final class KeyFields {
    /** Names as the Python original accepts them: letters (any script), digits, spaces, '.', '_', '-'. */
    private static final Pattern NAME = Pattern.compile("[\\w .\\-]{1,100}", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Set<String> RESERVED = Set.of("admin", "cli", "startup");
    private static final Set<String> WRITE_OPS = Set.of("insert", "update", "delete", "merge", "replace", "upsert",
            "create", "drop", "alter", "truncate", "call", "copy", "grant", "revoke", "comment", "rename");
    private static final Set<String> MASK_FIELDS = Set.of("column", "action", "value", "keep", "strict");
    private static final Set<String> MASK_ACTIONS = Set.of("null", "fixed", "last", "hash");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    /** At most this many claims on a key, each name at most {@value #MAX_CLAIM_NAME} characters (as from_claim). */
    public static final int MAX_CLAIMS = 50;
    public static final int MAX_CLAIM_NAME = 200;
    public static final int MAX_CLAIM_TEXT = 1000;

    private KeyFields() {}

    /** A key's name: 1-100 letters, digits, spaces, '.', '_' or '-', not one the gateway uses for itself. */
    public static String name(String name) {
        objectName(name);
        if (RESERVED.contains(name.strip().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("'" + name + "' is reserved (admin, cli and startup name the gateway's"
                    + " own actions)");
        }
        return name;
    }

    /** A key's or a role's name: 1-100 letters, digits, spaces, '.', '_' or '-'. */
    public static String objectName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("is 1-100 letters, digits, spaces, '.', '_' or '-'");
        }
        return name;
    }

    /** {@code YYYY-MM-DD}: the key works through the end of that day (UTC). */
    public static String expiresAt(String text) {
        if (text == null) {
            return null;
        }
        if (!DATE.matcher(text).matches()) {
            throw new IllegalArgumentException("must be a date in YYYY-MM-DD format, or null for no expiry");
        }
        try {
            LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("must be a valid calendar date");
        }
        return text;
    }

    /**
     * A key's fixed values for {@code from_claim} parameters: an object of at most {@value #MAX_CLAIMS} claims, each
     * name 1-{@value #MAX_CLAIM_NAME} characters (no spaces around it, no control characters), each value text (at
     * most {@value #MAX_CLAIM_TEXT} characters), a number or true/false. Null or {@code {}}: none.
     *
     * @return the claims by name (whole numbers as {@code Long}, others as {@code BigDecimal})
     */
    public static java.util.SortedMap<String, Object> claims(JsonNode node) {
        java.util.SortedMap<String, Object> out = new java.util.TreeMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("must be an object of claim names to values (text, numbers or"
                    + " true/false), e.g. {\"org_id\": \"acme\"}");
        }
        if (node.size() > MAX_CLAIMS) {
            throw new IllegalArgumentException("has " + node.size() + " claims: at most " + MAX_CLAIMS);
        }
        for (var it = node.fields(); it.hasNext(); ) {
            var e = it.next();
            String name = e.getKey();
            if (name.isEmpty() || name.codePointCount(0, name.length()) > MAX_CLAIM_NAME
                    || !name.equals(name.strip()) || name.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("has a claim name that is not 1-" + MAX_CLAIM_NAME
                        + " characters without spaces around it: '" + name + "'");
            }
            JsonNode v = e.getValue();
            if (v.isTextual() && v.textValue().codePointCount(0, v.textValue().length()) <= MAX_CLAIM_TEXT) {
                out.put(name, v.textValue());
            } else if (v.isBoolean()) {
                out.put(name, v.booleanValue());
            } else if (v.isIntegralNumber() && v.canConvertToLong()) {
                out.put(name, v.longValue());
            } else if (v.isNumber()) {
                out.put(name, v.decimalValue());
            } else {
                throw new IllegalArgumentException("'" + name + "' must be text (at most " + MAX_CLAIM_TEXT
                        + " characters), a number or true/false");
            }
        }
        return out;
    }

    /** Write operations, lower-cased, each one the guard knows. */
    public static List<String> writeOps(List<String> ops) {
        if (ops == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String op : ops) {
            String lower = op.toLowerCase(Locale.ROOT);
            if (!WRITE_OPS.contains(lower)) {
                throw new IllegalArgumentException("names an unknown operation '" + op + "' (one of "
                        + String.join(", ", new TreeSet<>(WRITE_OPS)) + ")");
            }
            if (!out.contains(lower)) {
                out.add(lower);
            }
        }
        return out;
    }

    /** Table names, each {@code table}, {@code schema.table} or {@code catalog.schema.table}. */
    public static List<String> tables(List<String> tables) {
        if (tables == null) {
            return null;
        }
        if (tables.contains("*")) {
            throw new IllegalArgumentException("must list tables (omit it for no restriction)");
        }
        for (String t : tables) {
            if (!t.matches("[^.\\s]+(\\.[^.\\s]+){0,2}")) {
                throw new IllegalArgumentException("has an invalid table name '" + t + "'");
            }
        }
        return tables;
    }

    /** Addresses and CIDR blocks. */
    public static List<String> ips(List<String> ips) {
        if (ips != null) {
            for (String ip : ips) {
                IpRange.parse(ip);
            }
        }
        return ips;
    }

    /** {@code N/second|minute|hour|day|month}. */
    public static String rateLimit(String rate) {
        if (rate != null) {
            Rate.parse(rate);
        }
        return rate;
    }

    /** {@code max_rows}: 1 to 10,000,000 rows per call. */
    public static Integer maxRows(JsonNode v) {
        return whole(v, 10_000_000);
    }

    /** {@code max_concurrent}: 1 to 1,000 calls at once. */
    public static Integer maxConcurrent(JsonNode v) {
        return whole(v, 1_000);
    }

    /** {@code query_timeout}: 0.1 to 86,400 seconds. */
    public static BigDecimal queryTimeout(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || v.decimalValue().compareTo(new BigDecimal("0.1")) < 0
                || v.decimalValue().compareTo(BigDecimal.valueOf(86_400)) > 0) {
            throw new IllegalArgumentException("must be a number of seconds from 0.1 to 86,400, or null for none");
        }
        return v.decimalValue();
    }

    /** A rotation's grace period: 0 to 10,080 minutes (a week). */
    public static int graceMinutes(JsonNode v, int byDefault, int max) {
        if (v == null || v.isNull()) {
            return byDefault;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0 || v.intValue() > max) {
            throw new IllegalArgumentException("is a whole number of minutes from 0 to " + max + " (a week)");
        }
        return v.intValue();
    }

    /**
     * Masking rules: {@code column} ({@code [schema.]table.column}), {@code action} ({@code null}, {@code fixed}
     * with a {@code value}, {@code last} with {@code keep}, {@code hash} where the server has a masking key), and
     * {@code strict}.
     */
    public static List<MaskRule> masks(JsonNode node, boolean hashMasking) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("must be a list of rules");
        }
        List<MaskRule> out = new ArrayList<>();
        for (JsonNode r : node) {
            if (!r.isObject()) {
                throw new IllegalArgumentException("must be a list of rules");
            }
            r.fieldNames().forEachRemaining(f -> {
                if (!MASK_FIELDS.contains(f)) {
                    throw new IllegalArgumentException("rule has an unknown field '" + f + "'");
                }
            });
            String column = r.path("column").asText("");
            if (!column.matches("[^.\\s]+(\\.[^.\\s]+){1,3}")) {
                throw new IllegalArgumentException("column must be table.column or schema.table.column, got '"
                        + column + "'");
            }
            String action = r.path("action").asText("");
            if (!MASK_ACTIONS.contains(action)) {
                throw new IllegalArgumentException("action must be one of null, fixed, last, hash");
            }
            String value = r.hasNonNull("value") ? r.get("value").asText() : null;
            Integer keep = r.hasNonNull("keep") ? r.get("keep").asInt(-1) : null;
            if (action.equals("fixed") && value == null) {
                throw new IllegalArgumentException("a fixed rule needs a value");
            }
            if (action.equals("last") && (keep == null || keep < 0 || keep > 64)) {
                throw new IllegalArgumentException("a last rule needs keep between 0 and 64");
            }
            if (action.equals("hash") && !hashMasking) {
                throw new IllegalArgumentException("hash rules need security.maskingKey in the server configuration");
            }
            JsonNode strict = r.get("strict");
            if (strict != null && !strict.isBoolean() && !strict.isNull()) {
                throw new IllegalArgumentException("strict must be true or false");
            }
            out.add(new MaskRule(column, action, value, keep, strict != null && strict.asBoolean() ? true : null));
        }
        return out;
    }

    private static Integer whole(JsonNode v, int max) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 1 || v.intValue() > max) {
            throw new IllegalArgumentException("must be a whole number from 1 to "
                    + String.format(Locale.ROOT, "%,d", max) + ", or null for none");
        }
        return v.intValue();
    }
}
