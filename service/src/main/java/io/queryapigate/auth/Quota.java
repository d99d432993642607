package io.queryapigate.auth;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key's usage quota, as the Python original writes it: {@code {"calls": N, "rows": M, "per": "day"|"month"}}, at
 * least one of the counts. Periods are calendar days or months in the server's time zone. The JVM's earlier form
 * {@code "N/day"} or {@code "N/month"} (calls only) is read too.
 *
 * @param calls successful calls per period, or null
 * @param rows rows returned per period, or null
 * @param per {@code day} or {@code month}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Quota(@JsonProperty("calls") Long calls, @JsonProperty("rows") Long rows,
        @JsonProperty("per") String per) {
    public static final long MAX_COUNT = 1_000_000_000_000L;
    private static final Pattern LEGACY = Pattern.compile("\\s*(\\d{1,13})\\s*/\\s*(day|month)s?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Set<String> FIELDS = Set.of("calls", "rows", "per");

    /**
     * Reads a quota from JSON: the object form, or the legacy {@code "N/day"} text.
     *
     * @return the quota, or null for JSON null
     * @throws IllegalArgumentException saying what is wrong with it (after the word "quota"), as the original does
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Quota of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isTextual()) {
            Matcher m = LEGACY.matcher(node.textValue());
            if (m.matches() && Long.parseLong(m.group(1)) >= 1 && Long.parseLong(m.group(1)) <= MAX_COUNT) {
                return new Quota(Long.parseLong(m.group(1)), null, m.group(2).toLowerCase(Locale.ROOT));
            }
        }
        if (!node.isObject() || !FIELDS.containsAll(names(node))) {
            throw new IllegalArgumentException("is an object with calls and/or rows, and per (\"day\" or \"month\"),"
                    + " or null for none");
        }
        String per = node.path("per").isTextual() ? node.get("per").textValue() : null;
        if (!"day".equals(per) && !"month".equals(per)) {
            throw new IllegalArgumentException("per must be \"day\" or \"month\"");
        }
        Long calls = count(node, "calls");
        Long rows = count(node, "rows");
        if (calls == null && rows == null) {
            throw new IllegalArgumentException("needs calls, rows or both");
        }
        return new Quota(calls, rows, per);
    }

    /** {@code daily} or {@code monthly}. */
    public String adjective() {
        return per.equals("day") ? "daily" : "monthly";
    }

    private static Long count(JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 1 || v.longValue() > MAX_COUNT) {
            throw new IllegalArgumentException(field + " must be a whole number from 1 to "
                    + String.format(Locale.ROOT, "%,d", MAX_COUNT));
        }
        return v.longValue();
    }

    private static Set<String> names(JsonNode node) {
        Set<String> out = new java.util.HashSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }
}
