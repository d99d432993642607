package io.queryapigate.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a scoped key may do. {@code connections}: names, or {@code "*"} for all; a connection grant covers every
 * saved query on it (and ad-hoc SQL when {@code adhocSql}). {@code queries}: saved-query names, or {@code "*"};
 * a query grant covers that query on its own connection only.
 */
public record Grants(
        @JsonProperty("connections") List<String> connections,
        @JsonProperty("queries") List<String> queries,
        @JsonProperty("adhoc_sql") boolean adhocSql) {

    public Grants {
        connections = connections == null ? List.of() : List.copyOf(connections);
        queries = queries == null ? List.of() : List.copyOf(queries);
    }

    public boolean hasConnection(String connection) {
        return connections.contains("*") || connections.contains(connection);
    }

    public boolean hasQueryByName(String query) {
        return queries.contains("*") || queries.contains(query);
    }

    public boolean hasAnyConnection() {
        return !connections.isEmpty();
    }
}
