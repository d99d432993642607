package io.queryapigate.auth;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.List;

/**
 * What a scoped key may do. Reach adds up, restrictions narrow:
 * <ul>
 *   <li>{@code connections}: names, or {@code "*"}; a connection grant covers every saved query on it, and ad-hoc
 *       SQL when {@code adhocSql};</li>
 *   <li>{@code queries}: saved-query names, or {@code "*"}; a query grant covers that query on its own connection;</li>
 *   <li>{@code allowWrites}: may run writes where the server allows writes at all; {@code allowedWriteOps} narrows
 *       them to statement keywords ({@code insert}, {@code update}, ...; null = any);</li>
 *   <li>{@code allowedTables}: every table a statement touches must be listed (bare names mean the connection's
 *       default schema); null = unrestricted, empty = none;</li>
 *   <li>{@code allowedIps}: addresses or CIDR blocks the key may be used from; null = anywhere, empty = nowhere;</li>
 *   <li>{@code mask}: result columns replaced for this key;</li>
 *   <li>{@code rateLimit} ({@code N/second|minute|hour|day}, a token bucket) and {@code quota} (calls and rows per
 *       calendar day or month) on this key's calls;</li>
 *   <li>the key's own limits, each narrowing the server's: {@code maxRows} (rows per call: smaller pages, a lower
 *       row cap), {@code maxConcurrent} (calls running at once), {@code queryTimeout} (seconds).</li>
 * </ul>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Grants(
        @JsonProperty("connections") List<String> connections,
        @JsonProperty("queries") List<String> queries,
        @JsonProperty("adhoc_sql") boolean adhocSql,
        @JsonProperty("allow_writes") boolean allowWrites,
        @JsonProperty("allowed_write_ops") List<String> allowedWriteOps,
        @JsonProperty("allowed_tables") List<String> allowedTables,
        @JsonProperty("allowed_ips") List<String> allowedIps,
        @JsonProperty("mask") List<MaskRule> mask,
        @JsonProperty("rate_limit") String rateLimit,
        @JsonProperty("quota") Quota quota,
        @JsonProperty("max_rows") Integer maxRows,
        @JsonProperty("max_concurrent") Integer maxConcurrent,
        @JsonProperty("query_timeout") BigDecimal queryTimeout) {

    public Grants {
        connections = connections == null ? List.of() : List.copyOf(connections);
        queries = queries == null ? List.of() : List.copyOf(queries);
        allowedWriteOps = allowedWriteOps == null ? null : List.copyOf(allowedWriteOps);
        allowedTables = allowedTables == null ? null : List.copyOf(allowedTables);
        allowedIps = allowedIps == null ? null : List.copyOf(allowedIps);
        mask = mask == null ? List.of() : List.copyOf(mask);
    }

    /** Reach only: connections, queries and ad-hoc SQL, no restrictions. */
    public static Grants reach(List<String> connections, List<String> queries, boolean adhocSql) {
        return new Grants(connections, queries, adhocSql, false, null, null, null, null, null, null, null, null, null);
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
