package io.queryapigate.collections;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.QueryVersionRow;
import io.queryapigate.store.SavedQueryRow;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Collections: the names saved queries are filed under ({@code PATCH /api/v1/queries/{name}} moves one), listed with
 * their queries, renamed or merged, and exported as Postman collections ({@link PostmanExport}). Keys are granted
 * queries by name here, never a collection, so a collection's {@code keys} and {@code roles} are always empty and
 * moving a query gives or takes no one's access.
 */
public final class QueryCollections {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final SavedQueries saved;

    public QueryCollections(SavedQueries saved) {
        this.saved = saved;
    }

    /** {@code {"items": [{"name", "queries", "keys", "roles"}], "uncollected": [...]}}, by name. */
    public ObjectNode listing() {
        Map<String, List<String>> members = members();
        Set<Long> withVersions = saved.allVersions().keySet();
        ObjectNode out = JSON.objectNode();
        ArrayNode items = out.putArray("items");
        members.forEach((name, queries) -> {
            ObjectNode c = items.addObject().put("name", name);
            queries.forEach(c.putArray("queries")::add);
            c.putArray("keys");
            c.putArray("roles");
        });
        ArrayNode uncollected = out.putArray("uncollected");
        for (SavedQueryRow q : saved.list()) {
            if (q.collection() == null && withVersions.contains(q.id())) {
                uncollected.add(q.name());
            }
        }
        return out;
    }

    /**
     * Renames a collection ({@code {"name": "new"}}), into an existing one only with {@code "merge": true}:
     * {@code {"name", "moved": {"queries", "keys", "roles"}}}.
     */
    public ObjectNode rename(String old, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiException(400, "invalid_body", "The request body must be a JSON object");
        }
        Set<String> unknown = new TreeSet<>();
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!f.equals("name") && !f.equals("merge")) {
                unknown.add(f);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ApiException(400, "unknown_field", "Unknown field(s): " + String.join(", ", unknown));
        }
        JsonNode merge = body.get("merge");
        if (merge != null && !merge.isBoolean()) {
            throw new ApiException(400, "invalid_body", "merge must be true or false");
        }
        valid(JSON.textNode(old), "Collection");
        String to = valid(body.get("name"), "New name");
        Map<String, List<String>> members = members();
        if (!members.containsKey(old)) {
            throw notFound(old);
        }
        if (old.equals(to)) {
            throw new ApiException(400, "invalid_name", "The new name is the same as the current one");
        }
        if (members.containsKey(to) && (merge == null || !merge.booleanValue())) {
            throw new ApiException(409, "collection_exists", "Collection '" + to + "' already exists - pass merge:"
                    + " true to merge '" + old + "' into it");
        }
        List<String> moved = saved.moveCollection(old, to);
        ObjectNode out = JSON.objectNode().put("name", to);
        ObjectNode m = out.putObject("moved");
        moved.forEach(m.putArray("queries")::add);
        m.putArray("keys");
        m.putArray("roles");
        return out;
    }

    /** The published version of each query in a collection, by name; 404 when there is none. */
    public List<Map.Entry<SavedQueryRow, QueryVersionRow>> published(String collection) {
        valid(JSON.textNode(collection), "Collection");
        if (!members().containsKey(collection)) {
            throw notFound(collection);
        }
        Map<Long, List<QueryVersionRow>> versions = saved.allVersions();
        List<Map.Entry<SavedQueryRow, QueryVersionRow>> out = new ArrayList<>();
        for (SavedQueryRow q : saved.list()) {
            if (collection.equals(q.collection()) && q.publishedVersion() != null) {
                for (QueryVersionRow v : versions.getOrDefault(q.id(), List.of())) {
                    if (v.version() == q.publishedVersion()) {
                        out.add(Map.entry(q, v));
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw ApiException.notFound("collection_not_found", "Collection '" + collection
                    + "' not found or empty");
        }
        return out;
    }

    /** Each collection's queries, by collection name, then query name. */
    private Map<String, List<String>> members() {
        Map<String, List<String>> members = new TreeMap<>();
        for (SavedQueryRow q : saved.list()) {
            if (q.collection() != null) {
                members.computeIfAbsent(q.collection(), k -> new ArrayList<>()).add(q.name());
            }
        }
        return members;
    }

    private static String valid(JsonNode name, String what) {
        try {
            return SavedQueries.checkCollection(name);
        } catch (ApiException e) {
            throw new ApiException(400, "invalid_name", what + ": " + e.getMessage());
        }
    }

    private static ApiException notFound(String name) {
        return ApiException.notFound("collection_not_found", "Collection '" + name + "' not found");
    }
}
