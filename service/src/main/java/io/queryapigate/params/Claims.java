package io.queryapigate.params;

import java.util.Map;

/** Reading a claim out of a caller's claims (a verified token's, or an API key's fixed ones). */
public final class Claims {
    private Claims() {}

    /**
     * A claim by name, or, for a dotted name that is not itself a claim, by path ({@code realm_access.roles}).
     * Namespaced claims ({@code https://example.com/tenant}) contain dots too, so the exact name is tried first.
     *
     * @return the value (text, number, boolean, list or map), or null when there is none
     */
    public static Object lookup(Map<String, ?> claims, String name) {
        Object exact = claims.get(name);
        if (exact != null || name.indexOf('.') < 0) {
            return exact;
        }
        Object value = claims;
        int from = 0;
        while (from <= name.length()) {
            int dot = name.indexOf('.', from);
            String part = name.substring(from, dot < 0 ? name.length() : dot);
            if (!(value instanceof Map<?, ?> map)) {
                return null;
            }
            value = map.get(part);
            if (value == null || dot < 0) {
                return value;
            }
            from = dot + 1;
        }
        return null;
    }
}
