package io.queryapigate.accesslog;

/**
 * A query string as the logs show it: each parameter's name kept, its value replaced by {@code ...}
 * ({@code email=alice@example.com&id=7} becomes {@code email=...&id=...}). A name that does not look like one (more
 * than 64 characters, or anything but letters, digits and {@code _.-[]%}) is replaced too, and so is a word without
 * {@code =} ({@code ?sk_live_...}): a value in a name's place.
 */
public final class QueryStrings {
    static final String HIDDEN = "...";

    private QueryStrings() {}

    /** {@code query} (without the {@code ?}) with its values removed; null stays null. */
    public static String withoutValues(String query) {
        if (query == null || query.isEmpty()) {
            return query;
        }
        StringBuilder out = new StringBuilder(query.length());
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            int eq = query.indexOf('=', start);
            boolean hasValue = eq >= 0 && eq < end;
            String name = query.substring(start, hasValue ? eq : end);
            if (start > 0) {
                out.append('&');
            }
            if (name.isEmpty() && !hasValue) {
                // an empty pair (a&&b): nothing to hide
            } else if (hasValue && looksLikeName(name)) {
                out.append(name).append('=').append(HIDDEN);
            } else {
                out.append(HIDDEN);
            }
            start = end + 1;
        }
        return out.toString();
    }

    private static boolean looksLikeName(String name) {
        if (name.isEmpty() || name.length() > 64) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == '-' || c == '[' || c == ']' || c == '%';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
