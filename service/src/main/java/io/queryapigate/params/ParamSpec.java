package io.queryapigate.params;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules declared for one parameter of a saved query. {@code defaultValue} and {@code allowed} hold coerced
 * values; {@code required} is false when a default is given. {@code fromClaim} names the caller's claim the value
 * comes from (never from the request), or is null for a parameter the caller supplies.
 */
public record ParamSpec(
        String name,
        ParamType type,
        boolean required,
        Object defaultValue,
        boolean hasDefault,
        List<Object> allowed,
        java.math.BigDecimal min,
        java.math.BigDecimal max,
        Integer minLength,
        Integer maxLength,
        Pattern pattern,
        String description,
        String fromClaim) {

    /** A parameter the caller supplies. */
    public ParamSpec(String name, ParamType type, boolean required, Object defaultValue, boolean hasDefault,
            List<Object> allowed, java.math.BigDecimal min, java.math.BigDecimal max, Integer minLength,
            Integer maxLength, Pattern pattern, String description) {
        this(name, type, required, defaultValue, hasDefault, allowed, min, max, minLength, maxLength, pattern,
                description, null);
    }

    /** True when the value comes from the caller's claims and may not be sent. */
    public boolean bindsClaim() {
        return fromClaim != null;
    }

    /** A required text parameter without rules (the Python original's reading of a marker it does not declare). */
    public static ParamSpec plain(String name) {
        return new ParamSpec(name, ParamType.STR, true, null, false, null, null, null, null, null, null, null);
    }
}
