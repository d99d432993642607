package io.queryapigate.dialect.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one call sends to the database, in order.
 *
 * @param before statements sent before the user's statement (possibly in the same message)
 * @param statement the user's statement as it will be sent (possibly rewritten, for example with a time-limit hint)
 * @param after statements sent after it, typically when the session goes back to the pool
 * @param settings per-request settings that travel with the request instead of as statements (HTTP engines)
 * @param roundTrips how many network round trips the call costs once a pooled session is at hand
 * @param description one line for operators: how the strategy keeps this call safe
 */
public record SessionPlan(
        List<String> before,
        String statement,
        List<String> after,
        Map<String, String> settings,
        int roundTrips,
        String description) {

    /** Validates and freezes the fields. */
    public SessionPlan {
        before = List.copyOf(Objects.requireNonNull(before, "before is null"));
        Objects.requireNonNull(statement, "statement is null");
        after = List.copyOf(Objects.requireNonNull(after, "after is null"));
        settings = Map.copyOf(Objects.requireNonNull(settings, "settings is null"));
        Objects.requireNonNull(description, "description is null");
        if (roundTrips < 0) {
            throw new IllegalArgumentException("roundTrips is negative");
        }
    }
}
