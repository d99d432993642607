package io.queryapigate.params;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules declared for one parameter of a saved query. {@code defaultValue} and {@code allowed} hold coerced
 * values; {@code required} is false when a default is given.
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
        String description) {

    /** A required text parameter without rules (the Python original's reading of a marker it does not declare). */
    public static ParamSpec plain(String name) {
        return new ParamSpec(name, ParamType.STR, true, null, false, null, null, null, null, null, null, null);
    }
}
