package io.queryapigate.importer;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.Quota;
import io.queryapigate.importer.PythonStore.PyKey;
import io.queryapigate.keys.KeyFields;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An API key's grants in the original (apikeys.py) as explicit grants here, giving the same effective rights: a
 * connection grant there reaches every saved query on it and ad-hoc SQL (here: the connection and {@code
 * adhoc_sql}); a {@code queries} grant reaches each named query on its own connection (the same here); a {@code
 * collections} grant reaches the queries in the collection now (here: those queries by name). Restrictions, limits
 * and quotas carry over, checked by this gateway's rules for them ({@link KeyFields}); a restriction it cannot
 * express stops the key (never imported wider).
 */
final class PythonGrants {
    private static final Pattern RATE = Pattern.compile("\\s*(\\d+)\\s*/\\s*(second|minute|hour|day)s?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    /**
     * What grants refer to, as imported.
     *
     * @param queries each original saved-query name with its name here; null when it is not imported
     * @param collections each collection with its queries' original names
     * @param connections each original connection name with its name here
     * @param maskingKey whether {@code security.maskingKey} is configured (hash masking needs it)
     */
    record Context(Map<String, String> queries, Map<String, List<String>> collections,
            Map<String, String> connections, boolean maskingKey) {}

    /** The key's grants here, with what differs ({@code warnings}), or why it cannot be imported. */
    record Converted(Grants grants, List<String> warnings, String blocker) {}

    private PythonGrants() {}

    static Converted convert(PyKey key, Context context) {
        List<String> warnings = new ArrayList<>();
        if (key.hash() == null || !HASH.matcher(key.hash()).matches()) {
            return new Converted(null, warnings, "its stored secret hash is not a SHA-256");
        }
        if (key.expiresAt() != null) {
            try {
                LocalDate.parse(key.expiresAt());
            } catch (DateTimeParseException e) {
                return new Converted(null, warnings, "its expiry '" + key.expiresAt() + "' is not a date (the"
                        + " original treats the key as expired)");
            }
        }
        JsonNode d = key.details();
        List<String> connections = new ArrayList<>();
        JsonNode conns = d.path("connections");
        if (conns.isTextual() && conns.asText().equals("*")) {
            connections.add("*");
            warnings.add("broad: runs every saved query and ad-hoc SQL on every connection, including ones added"
                    + " later (connections \"*\"; the original's default for a key created without connections)");
        } else {
            conns.forEach(c -> connections.add(context.connections().getOrDefault(c.asText(), Names.valid(c.asText()))));
            if (!connections.isEmpty()) {
                warnings.add("runs ad-hoc SQL on " + String.join(", ", connections) + " (the original allows it with"
                        + " every connection grant; here it is the explicit adhoc_sql)");
            }
        }
        boolean allowWrites = d.path("allow_writes").asBoolean(false);
        TreeSet<String> queries = new TreeSet<>();
        JsonNode qs = d.path("queries");
        if (qs.isTextual() && qs.asText().equals("*")) {
            queries.add("*");
            warnings.add("broad: runs every saved query by name, including ones created later (queries \"*\")");
        } else {
            for (JsonNode q : qs) {
                String name = q.isTextual() ? q.asText() : q.path("name").asText();
                if (!q.isTextual() && q.path("allow_writes").asBoolean(false) && !allowWrites) {
                    warnings.add("narrower: its write grant through query '" + name + "' is not imported (writes"
                            + " are granted per key here): it runs that query read-only");
                }
                grantQuery(name, context, queries, warnings);
            }
        }
        for (JsonNode collection : d.path("collections")) {
            List<String> members = context.collections().getOrDefault(collection.asText(), List.of());
            warnings.add("its grant on collection '" + collection.asText() + "' became grants on the queries in it"
                    + " now (" + (members.isEmpty() ? "none" : String.join(", ", members)) + "); a query filed there"
                    + " later is not reached");
            members.forEach(m -> grantQuery(m, context, queries, warnings));
        }
        List<String> writeOps = strings(d.get("allowed_write_ops"));
        if (writeOps != null) {
            List<String> known = new ArrayList<>();
            for (String op : writeOps) {
                try {
                    KeyFields.writeOps(List.of(op)).forEach(o -> {
                        if (!known.contains(o)) {
                            known.add(o);
                        }
                    });
                } catch (IllegalArgumentException e) {
                    warnings.add("narrower: allowed_write_ops '" + op + "' dropped (not an operation the guard"
                            + " reports, so it allowed nothing)");
                }
            }
            writeOps = known.stream().sorted().toList();
        }
        List<String> tables;
        List<String> ips;
        String listed = "allowed_tables";
        try {
            tables = KeyFields.tables(strings(d.get(listed)));
            ips = KeyFields.ips(strings(d.get(listed = "allowed_ips")));
        } catch (IllegalArgumentException e) {
            return new Converted(null, warnings, "its " + listed + " " + e.getMessage());
        }
        List<MaskRule> mask = new ArrayList<>();
        for (JsonNode rule : d.path("mask")) {
            String column = rule.path("column").asText().toLowerCase(Locale.ROOT);
            String action = rule.path("action").asText();
            if (column.contains("*")) {
                return new Converted(null, warnings, "its mask rule on '" + column + "' has a wildcard; masks here"
                        + " name each column");
            }
            switch (action) {
                case "null" -> mask.add(new MaskRule(column, "null", null, null));
                case "hash" -> {
                    if (!context.maskingKey()) {
                        return new Converted(null, warnings, "its mask rule hashes '" + column + "': configure"
                                + " security.maskingKey first");
                    }
                    mask.add(new MaskRule(column, "hash", null, null));
                    warnings.add("mask '" + column + "': hashed with this gateway's masking key (other values than"
                            + " the original's)");
                }
                case "mask", "drop" -> {
                    mask.add(new MaskRule(column, "null", null, null));
                    warnings.add("mask '" + column + "': " + action + " became null (no " + action + " action here;"
                            + " null hides every value)");
                }
                case "keep" -> warnings.add("mask '" + column + "': keep dropped (it only settles view columns in"
                        + " the original; here an untraceable column is refused)");
                default -> {
                    return new Converted(null, warnings, "its mask rule on '" + column + "' has an unknown action '"
                            + action + "'");
                }
            }
        }
        String rateLimit = null;
        if (d.hasNonNull("rate_limit")) {
            Matcher m = RATE.matcher(d.get("rate_limit").asText());
            if (m.matches()) {
                rateLimit = m.group(1) + "/" + m.group(2).toLowerCase(Locale.ROOT);
            } else {
                warnings.add("rate_limit '" + d.get("rate_limit").asText() + "' was unreadable (the original ignored"
                        + " it): not imported");
            }
        }
        Quota quota;
        Integer maxRows;
        Integer maxConcurrent;
        BigDecimal queryTimeout;
        String field = "quota";
        try {
            quota = Quota.of(d.get(field));
            maxRows = KeyFields.maxRows(d.get(field = "max_rows"));
            maxConcurrent = KeyFields.maxConcurrent(d.get(field = "max_concurrent"));
            queryTimeout = KeyFields.queryTimeout(d.get(field = "query_timeout"));
        } catch (IllegalArgumentException e) {
            return new Converted(null, warnings, "its " + field + " " + e.getMessage());
        }
        return new Converted(new Grants(connections, List.copyOf(queries), !connections.isEmpty(), allowWrites,
                writeOps, tables, ips, mask, rateLimit, quota, maxRows, maxConcurrent, queryTimeout), warnings, null);
    }

    /** A query grant by the query's name here; dropped (with a warning) when that query is not imported. */
    private static void grantQuery(String name, Context context, TreeSet<String> out, List<String> warnings) {
        if (!context.queries().containsKey(name)) {
            if (Names.validQuery(name).equals(name)) {
                out.add(name); // names no query (yet), as in the original
            }
            return;
        }
        String here = context.queries().get(name);
        if (here == null) {
            warnings.add("narrower: its grant on query '" + name + "' is dropped (that query is not imported)");
        } else {
            out.add(here);
        }
    }

    private static List<String> strings(JsonNode node) {
        if (node == null || node.isNull() || !node.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        node.forEach(v -> out.add(v.asText()));
        return out;
    }
}
