package io.queryapigate.configcode;

import io.queryapigate.errors.ApiException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every problem found in a configuration directory, each at {@code file:line}, so that one run reports all of them;
 * {@link #throwIfAny} turns them into 400 {@code invalid_config} with the {@code errors} map.
 */
final class Problems {
    private static final int MAX = 200;

    private final Map<String, String> found = new LinkedHashMap<>();

    void add(String file, int line, String message) {
        if (found.size() < MAX) {
            found.merge(file + ":" + line, message, (a, b) -> a + "; " + b);
        }
    }

    boolean isEmpty() {
        return found.isEmpty();
    }

    void throwIfAny() {
        if (found.isEmpty()) {
            return;
        }
        Map.Entry<String, String> first = found.entrySet().iterator().next();
        throw new ApiException(400, "invalid_config", "The configuration directory has " + found.size()
                + " problem(s); nothing was applied. First: " + first.getKey() + ": " + first.getValue(),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(found))).with("problems", found.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).toList());
    }
}
