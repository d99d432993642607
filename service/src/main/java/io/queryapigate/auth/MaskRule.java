package io.queryapigate.auth;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One masking rule on a key: the result values of {@code column} ({@code schema.table.column}, or {@code
 * table.column} in the connection's default schema) are replaced by {@code action}: {@code null}; {@code fixed}
 * ({@code value}); {@code last} (only the last {@code keep} characters kept, the rest {@code *}); {@code hash}
 * (HMAC-SHA-256 with the server's masking key, hex, so equal values stay equal and joins on them still work).
 * With {@code strict}, the column may be used nowhere but the select list: filtering, joining, grouping or ordering
 * on it (an oracle that recovers values one comparison at a time) is refused.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MaskRule(
        @JsonProperty("column") String column,
        @JsonProperty("action") String action,
        @JsonProperty("value") String value,
        @JsonProperty("keep") Integer keep,
        @JsonProperty("strict") Boolean strict) {

    /** A rule that allows predicates on the column (the default). */
    public MaskRule(String column, String action, String value, Integer keep) {
        this(column, action, value, keep, null);
    }

    /** True when the column may appear only in the select list. */
    public boolean isStrict() {
        return Boolean.TRUE.equals(strict);
    }
}
