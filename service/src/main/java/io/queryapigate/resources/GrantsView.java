package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.auth.Grants;
import java.math.BigDecimal;
import java.util.List;

/** A key's or a role's grant fields as the management API writes them, in the Python original's shapes. */
final class GrantsView {
    private GrantsView() {}

    /** Puts the grant fields of {@code g} into {@code o}, in the original's order. */
    static void put(ObjectNode o, Grants g, ObjectMapper mapper) {
        o.set("connections", names(g.connections(), mapper));
        o.set("queries", names(g.queries(), mapper));
        o.putArray("collections");
        o.put("allow_writes", g.allowWrites());
        o.put("adhoc_sql", g.adhocSql());
        o.set("allowed_write_ops", mapper.valueToTree(g.allowedWriteOps()));
        o.set("allowed_tables", mapper.valueToTree(g.allowedTables()));
        o.put("rate_limit", g.rateLimit());
        o.set("allowed_ips", mapper.valueToTree(g.allowedIps()));
        o.set("mask", g.mask().isEmpty() ? null : mapper.valueToTree(g.mask()));
        o.set("max_concurrent", mapper.valueToTree(g.maxConcurrent()));
        o.set("query_timeout", g.queryTimeout() == null ? null : seconds(g.queryTimeout(), mapper));
        o.set("max_rows", mapper.valueToTree(g.maxRows()));
        o.set("quota", mapper.valueToTree(g.quota()));
    }

    // "*" alone is written as the original writes it, a string
    static JsonNode names(List<String> names, ObjectMapper mapper) {
        return names.equals(List.of("*")) ? mapper.getNodeFactory().textNode("*") : mapper.valueToTree(names);
    }

    /** Seconds as the original writes them: {@code 10}, {@code 2.5} (never {@code 1E+1} nor {@code 10.0}). */
    static JsonNode seconds(BigDecimal value, ObjectMapper mapper) {
        BigDecimal plain = value.stripTrailingZeros();
        return plain.scale() <= 0 ? mapper.getNodeFactory().numberNode(plain.longValueExact())
                : mapper.getNodeFactory().numberNode(new BigDecimal(plain.toPlainString()));
    }
}
