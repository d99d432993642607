package io.queryapigate.queries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.descriptions.Descriptions;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.http.ServerTime;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The management API's shapes of a saved query, as the Python original writes them: a summary (16 fields, for
 * lists), the detail (the summary and every version with its run count), one version, and the ETag that changes with
 * any edit. Parameter types carry the original's names ({@code integer}, {@code number}, {@code string},
 * {@code boolean}; {@code decimal}, {@code date} and {@code timestamp} are this gateway's own).
 */
public final class QueryViews {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Map<String, String> TYPE_NAMES = Map.of("int", "integer", "float", "number", "str",
            "string", "bool", "boolean");

    private final SavedQueries saved;
    private final Definitions definitions;
    private final Descriptions descriptions;

    public QueryViews(SavedQueries saved, Descriptions descriptions) {
        this.saved = saved;
        this.definitions = saved.definitions();
        this.descriptions = descriptions;
    }

    /**
     * Every query's summary, by name, filtered as the original filters: {@code collection}, {@code connection}
     * (the shown version's), {@code search} (in the name, description or tags, ignoring case) and {@code status}
     * ({@code published}, {@code unpublished} or {@code draft}: has a version newer than the published one).
     */
    public ArrayNode list(String collection, String connection, String search, String status) {
        if (status != null && !status.isEmpty() && !List.of("published", "unpublished", "draft").contains(status)) {
            throw new ApiException(400, "invalid_filter", "status must be 'published', 'unpublished' or 'draft'");
        }
        String needle = search == null ? "" : search.strip().toLowerCase(Locale.ROOT);
        Map<Long, List<QueryVersionRow>> versions = saved.allVersions();
        Map<Long, Long> lastRuns = saved.lastRuns();
        Set<String> examples = saved.exampleNames();
        ArrayNode items = JSON.arrayNode();
        for (SavedQueryRow q : saved.list()) {
            List<QueryVersionRow> vs = versions.get(q.id());
            if (vs == null || vs.isEmpty()) {
                continue;
            }
            ObjectNode s = summary(q, vs, lastRuns.get(q.id()), examples.contains(q.name()));
            if (!empty(collection) && !collection.equals(q.collection())
                    || !empty(connection) && !connection.equals(s.path("connection_name").asText(null))
                    || !needle.isEmpty() && !matches(s, needle)
                    || "published".equals(status) && q.publishedVersion() == null
                    || "unpublished".equals(status) && q.publishedVersion() != null
                    || "draft".equals(status) && !s.get("has_draft").asBoolean()) {
                continue;
            }
            items.add(s);
        }
        return items;
    }

    /** One query's detail, read now. */
    public ObjectNode detail(String name) {
        SavedQueryRow q = saved.get(name);
        return detail(q, saved.versions(q.id()), saved.lastRun(q.id()), saved.exampleNames().contains(name),
                saved.runCounts(q.id()));
    }

    /** One query's ETag, read now. */
    public String etag(String name) {
        SavedQueryRow q = saved.get(name);
        return etag(q, saved.versions(q.id()));
    }

    private static boolean matches(ObjectNode summary, String needle) {
        if (summary.get("name").asText().toLowerCase(Locale.ROOT).contains(needle)
                || summary.get("description").asText().toLowerCase(Locale.ROOT).contains(needle)) {
            return true;
        }
        for (JsonNode t : summary.get("tags")) {
            if (t.asText().toLowerCase(Locale.ROOT).contains(needle)) {
                return true;
            }
        }
        return false;
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    /** A query as lists show it. */
    public ObjectNode summary(SavedQueryRow q, List<QueryVersionRow> versions, Long lastRun, boolean example) {
        QueryVersionRow latest = versions.get(versions.size() - 1);
        QueryVersionRow shown = latest;
        for (QueryVersionRow v : versions) {
            if (q.publishedVersion() != null && v.version() == q.publishedVersion()) {
                shown = v;
            }
        }
        ObjectNode o = JSON.objectNode();
        o.put("name", q.name());
        o.put("description", shown.description() == null ? "" : shown.description());
        o.put("query_type", MongoStatements.isSaved(saved.details(shown)) ? "mongo" : "sql");
        o.put("connection_name", shown.connectionName());
        o.put("collection", q.collection());
        tags(o.putArray("tags"), shown);
        putNullable(o, "published_version", q.publishedVersion());
        o.put("latest_version", latest.version());
        o.put("has_draft", latest.version() > (q.publishedVersion() == null ? 0 : q.publishedVersion()));
        o.put("version_count", versions.size());
        o.put("example", example);
        o.put("endpoint", "/q/" + q.name());
        long created = Long.MAX_VALUE;
        long modified = Long.MIN_VALUE;
        for (QueryVersionRow v : versions) {
            created = Math.min(created, v.createdAt());
            modified = Math.max(modified, v.createdAt());
        }
        o.put("updated_at", ServerTime.format(modified));
        o.put("created_at", ServerTime.format(created));
        if (lastRun == null) {
            o.putNull("last_used_at");
        } else {
            o.put("last_used_at", ServerTime.format(lastRun));
        }
        putNullable(o, "cache_ttl", shown.cacheTtl() > 0 ? shown.cacheTtl() : null);
        return o;
    }

    /** A query with every version and how many of its runs are kept. */
    public ObjectNode detail(SavedQueryRow q, List<QueryVersionRow> versions, Long lastRun, boolean example,
            Map<Integer, Long> runCounts) {
        ObjectNode o = summary(q, versions, lastRun, example);
        ArrayNode out = o.putArray("versions");
        for (QueryVersionRow v : versions) {
            out.add(version(q, v).put("run_count", runCounts.getOrDefault(v.version(), 0L)));
        }
        return o;
    }

    /** One version. */
    public ObjectNode version(SavedQueryRow q, QueryVersionRow v) {
        ObjectNode o = JSON.objectNode();
        o.put("version", v.version());
        o.put("status", status(q, v.version()));
        o.put("uuid", uuid(v));
        o.put("author", v.author());
        o.put("description", v.description() == null ? "" : v.description());
        tags(o.putArray("tags"), v);
        ObjectNode details = saved.details(v);
        boolean mongo = MongoStatements.isSaved(details);
        o.put("query_type", mongo ? "mongo" : "sql");
        if (mongo) {
            o.putNull("sql");
            o.set("mongo", MongoStatements.savedFields(v.sqlText()));
        } else {
            o.put("sql", v.sqlText());
            o.putNull("mongo");
        }
        o.put("connection_name", v.connectionName());
        o.set("parameters", parameters(saved.parameters(v)));
        ArrayNode placeholders = o.putArray("placeholders");
        definitions.text(v).markerNames().forEach(placeholders::add);
        putNullable(o, "cache_ttl", v.cacheTtl() > 0 ? v.cacheTtl() : null);
        o.set("columns", details.has("columns") ? details.get("columns") : JSON.objectNode());
        o.set("column_descriptions", columnDescriptions(v, details.get("columns")));
        String agentWrites = Definitions.agentWriteMode(details);
        if (agentWrites == null) {
            o.putNull("agent_writes");
        } else {
            o.put("agent_writes", agentWrites);
        }
        putNullable(o, "max_affected_rows", agentWrites == null ? null : Definitions.maxAffectedRows(details));
        o.putArray("mask");
        o.put("mcp", !details.has("mcp") || details.get("mcp").asBoolean(true));
        o.put("created_at", ServerTime.format(v.createdAt()));
        o.put("last_modified_at", ServerTime.format(v.createdAt()));
        return o;
    }

    /** What the version's result columns mean: its own {@code columns}, else the tables' descriptions it reads. */
    private ObjectNode columnDescriptions(QueryVersionRow v, JsonNode own) {
        GuardResult verdict = MongoStatements.isSaved(saved.details(v)) ? null
                : definitions.verdict(definitions.sqlText(v.sqlText(), v.connectionName()), v.connectionName());
        List<String> names = saved.resultColumns(v).map(cs -> cs.stream().map(ColumnInfo::name).toList())
                .orElse(List.of());
        return descriptions.forVersion(v.connectionName(), verdict == null ? Set.of() : verdict.tablesRead(), names,
                own);
    }

    /**
     * A validator of the query's whole state: which version is served, its collection, and every version's
     * identity, cache TTL and details. Any edit changes it, so {@code If-Match} catches edits made elsewhere.
     */
    public String etag(SavedQueryRow q, List<QueryVersionRow> versions) {
        StringBuilder state = new StringBuilder();
        state.append(q.publishedVersion()).append('|').append(q.collection());
        for (QueryVersionRow v : versions) {
            state.append('|').append(v.version()).append(',').append(uuid(v)).append(',').append(v.cacheTtl())
                    .append(',').append(v.details());
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(state.toString()
                    .getBytes(StandardCharsets.UTF_8));
            return "\"" + HexFormat.of().formatHex(digest).substring(0, 32) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code published}, {@code draft} (newer than the published version, or none is) or {@code previous}. */
    static String status(SavedQueryRow q, int version) {
        Integer published = q.publishedVersion();
        if (published != null && published == version) {
            return "published";
        }
        return published == null || version > published ? "draft" : "previous";
    }

    /** The parameter rules with the original's type names. */
    static ObjectNode parameters(JsonNode stored) {
        ObjectNode out = JSON.objectNode();
        if (stored == null || !stored.isObject()) {
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = stored.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ObjectNode rule = e.getValue().deepCopy();
            String type = rule.path("type").asText();
            rule.put("type", TYPE_NAMES.getOrDefault(type, type));
            out.set(e.getKey(), rule);
        }
        return out;
    }

    /** The version's UUID; one derived from its query and number for versions saved before there were any. */
    static String uuid(QueryVersionRow v) {
        return v.uuid() != null ? v.uuid()
                : UUID.nameUUIDFromBytes((v.queryId() + "/" + v.version()).getBytes(StandardCharsets.UTF_8))
                        .toString();
    }

    private void tags(ArrayNode out, QueryVersionRow v) {
        saved.tags(v).forEach(out::add);
    }

    private static void putNullable(ObjectNode o, String field, Integer value) {
        if (value == null) {
            o.putNull(field);
        } else {
            o.put(field, value);
        }
    }
}
