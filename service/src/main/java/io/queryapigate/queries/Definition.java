package io.queryapigate.queries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import java.util.List;

/**
 * A new version of a saved query, read and checked.
 *
 * @param sql the SQL as saved (stripped)
 * @param parameters the parameter rules, normalised ({@code ParamRules.toJson})
 * @param connection the connection it runs on
 * @param description the description, or null
 * @param author who saved it
 * @param cacheTtl seconds its answers are cached, 0 for none
 * @param tags its tags
 * @param details what is kept as given without changing how it runs ({@code columns}, {@code mcp}); may be empty
 * @param problems why it cannot run yet (an unknown connection, markers it does not declare), each the refusal that
 *     publishing it would give; empty for a version that can be published
 */
public record Definition(String sql, JsonNode parameters, String connection, String description, String author,
        int cacheTtl, List<String> tags, ObjectNode details, List<ApiException> problems) {

    public Definition {
        tags = List.copyOf(tags);
        problems = List.copyOf(problems);
    }

    /** True when it can be published and run. */
    public boolean runnable() {
        return problems.isEmpty();
    }

    /** Throws the first reason it cannot be published, if any. */
    public void requireRunnable() {
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
    }

    /** What saving it as a draft answers: one line per problem. */
    public List<String> warnings() {
        return problems.stream().map(p -> p.getMessage() + " It is saved as a draft; it cannot be published or run"
                + " until this is fixed.").toList();
    }
}
