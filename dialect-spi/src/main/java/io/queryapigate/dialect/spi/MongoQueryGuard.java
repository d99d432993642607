package io.queryapigate.dialect.spi;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read-only check of a MongoDB query document, shared by the service (before the dialect) and the {@code mongo}
 * dialect (after parameters are bound), so that a refusal never depends on one of them alone.
 *
 * <p>A query document is a {@link Map} whose values are maps, lists, strings, numbers, booleans or null (a Jackson
 * tree converted to maps, an {@code org.bson.Document}): either a find, {@code {"collection": ..., "filter": {...},
 * "projection": {...}, "sort": {...}}}, or an aggregation, {@code {"collection": ..., "pipeline": [...]}}; both may
 * carry {@code skip} and {@code limit}. It is admitted when
 * <ul>
 *   <li>it has only those keys, a collection name that is not a system collection, and the right shapes;
 *   <li>every stage of the pipeline, and of the pipelines nested in {@code $lookup}, {@code $unionWith} and
 *       {@code $facet}, is one of {@link #READ_STAGES} (so {@code $out} and {@code $merge}, which write, and the
 *       stages that read server state such as {@code $currentOp}, are refused wherever they are);
 *   <li>no key anywhere in it is one of {@link #JAVASCRIPT_OPERATORS}, which run JavaScript on the server.
 * </ul>
 *
 * <p>Stateless; thread-safe.
 *
 * @since SPI 1.5
 */
public final class MongoQueryGuard {
    /** The aggregation stages that only read the collections they name. */
    public static final Set<String> READ_STAGES = Set.of("$match", "$project", "$addFields", "$set", "$unset",
            "$sort", "$limit", "$skip", "$group", "$count", "$unwind", "$lookup", "$graphLookup", "$facet",
            "$unionWith", "$bucket", "$bucketAuto", "$sortByCount", "$replaceRoot", "$replaceWith", "$sample",
            "$densify", "$fill", "$setWindowFields", "$redact", "$geoNear", "$documents");
    /** The operators that run JavaScript on the server: refused as keys anywhere in a query document. */
    public static final Set<String> JAVASCRIPT_OPERATORS = Set.of("$where", "$function", "$accumulator");
    /** The keys a query document may have. */
    public static final Set<String> KEYS = Set.of("collection", "filter", "projection", "sort", "pipeline", "skip",
            "limit");
    private static final int MAX_DEPTH = 100;

    private MongoQueryGuard() {}

    /** Why a query document was refused. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String code;

        /**
         * A refusal.
         *
         * @param code {@code mongo_operator_forbidden} (JavaScript), {@code mongo_stage_forbidden} (a stage that
         *     writes or reads server state) or {@code invalid_query} (a malformed document)
         * @param message what was refused and why, for the caller
         */
        public Refused(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        /**
         * The machine-readable reason.
         *
         * @return the code
         */
        public String code() {
            return code;
        }
    }

    /**
     * Checks one query document.
     *
     * @param query the document
     * @return {@code query}
     * @throws Refused when it is malformed or could write or run JavaScript
     */
    public static Map<?, ?> check(Object query) {
        if (!(query instanceof Map<?, ?> doc)) {
            throw invalid("A MongoDB query must be a JSON object.");
        }
        for (Object key : doc.keySet()) {
            if (!KEYS.contains(String.valueOf(key))) {
                throw invalid("Unknown key '" + key + "' in a MongoDB query; it takes " + String.join(", ",
                        List.of("collection", "filter", "projection", "sort", "pipeline", "skip", "limit")) + ".");
            }
        }
        collection(doc.get("collection"));
        Object pipeline = doc.get("pipeline");
        if (pipeline != null && (doc.containsKey("filter") || doc.containsKey("projection")
                || doc.containsKey("sort"))) {
            throw invalid("A MongoDB query is a find (filter, projection, sort) or a pipeline, not both.");
        }
        for (String key : List.of("filter", "projection", "sort")) {
            Object part = doc.get(key);
            if (part != null && !(part instanceof Map)) {
                throw invalid(key + " must be a JSON object.");
            }
        }
        for (String key : List.of("skip", "limit")) {
            Object n = doc.get(key);
            if (n != null && !(n instanceof Number number && number.doubleValue() >= 0
                    && number.doubleValue() == Math.rint(number.doubleValue()))) {
                throw invalid(key + " must be a whole number, zero or more.");
            }
        }
        if (doc.containsKey("pipeline")) {
            pipeline(pipeline, "pipeline", 0);
        }
        noJavaScript(doc, 0);
        return doc;
    }

    /**
     * The collection name of a query document: a non-empty string that is not a system collection.
     *
     * @param name the {@code collection} value
     * @return the name
     * @throws Refused when it is missing or not allowed
     */
    public static String collection(Object name) {
        if (!(name instanceof String s) || s.isBlank()) {
            throw new Refused("collection_required", "Collection is missing.");
        }
        if (s.startsWith("system.") || s.indexOf('$') >= 0 || s.indexOf('\0') >= 0) {
            throw new Refused("collection_not_allowed", "Collection '" + s.replace("\0", "\\0")
                    + "' is not allowed: system collections and names with '$' cannot be queried.");
        }
        return s;
    }

    private static void pipeline(Object pipeline, String where, int depth) {
        if (!(pipeline instanceof List<?> stages)) {
            throw invalid(where + " must be a JSON array of stages.");
        }
        if (depth > MAX_DEPTH) {
            throw invalid("The MongoDB query is nested too deeply.");
        }
        for (Object stage : stages) {
            if (!(stage instanceof Map<?, ?> s) || s.size() != 1) {
                throw invalid("Each stage of " + where + " must be an object with one key, such as {\"$match\": {}}.");
            }
            Map.Entry<?, ?> only = s.entrySet().iterator().next();
            String name = String.valueOf(only.getKey());
            if (!READ_STAGES.contains(name)) {
                throw new Refused("mongo_stage_forbidden", "The stage '" + name + "' is not allowed: "
                        + (name.equals("$out") || name.equals("$merge") ? "it writes to a collection"
                        : "only stages that read the collections they name are") + " (in " + where + ").");
            }
            Object body = only.getValue();
            switch (name) {
                case "$lookup", "$unionWith" -> {
                    if (body instanceof Map<?, ?> b && b.get("pipeline") != null) {
                        pipeline(b.get("pipeline"), name + ".pipeline", depth + 1);
                    }
                }
                case "$facet" -> {
                    if (!(body instanceof Map<?, ?> facets)) {
                        throw invalid("$facet takes an object of pipelines.");
                    }
                    for (Map.Entry<?, ?> facet : facets.entrySet()) {
                        pipeline(facet.getValue(), "$facet." + facet.getKey(), depth + 1);
                    }
                }
                default -> { }
            }
        }
    }

    private static void noJavaScript(Object node, int depth) {
        if (depth > MAX_DEPTH) {
            throw invalid("The MongoDB query is nested too deeply.");
        }
        if (node instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                if (JAVASCRIPT_OPERATORS.contains(key)) {
                    throw new Refused("mongo_operator_forbidden", "'" + key
                            + "' is not allowed - it runs arbitrary server-side JavaScript");
                }
                if (key.equals("$out") || key.equals("$merge")) {
                    throw new Refused("mongo_stage_forbidden", "'" + key + "' is not allowed: it writes to a"
                            + " collection.");
                }
                noJavaScript(e.getValue(), depth + 1);
            }
        } else if (node instanceof List<?> list) {
            for (Object item : list) {
                noJavaScript(item, depth + 1);
            }
        }
    }

    /**
     * The parameters a query document uses: its string leaves that are exactly {@code :name} (a leaf is replaced
     * whole by the bound value, never spliced into text), once each, in order of appearance.
     *
     * @param node the document, or any part of it
     * @return the names, without the colon
     */
    public static List<String> placeholders(Object node) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        placeholders(node, names, 0);
        return List.copyOf(names);
    }

    /**
     * The parameter name of a string leaf, or null when it is not exactly {@code :name}.
     *
     * @param leaf a string value of a query document
     * @return the name, or null
     */
    public static String placeholder(String leaf) {
        if (leaf.length() < 2 || leaf.charAt(0) != ':' || !(Character.isLetter(leaf.charAt(1))
                || leaf.charAt(1) == '_')) {
            return null;
        }
        for (int i = 2; i < leaf.length(); i++) {
            char c = leaf.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) {
                return null;
            }
        }
        return leaf.substring(1);
    }

    private static void placeholders(Object node, java.util.Set<String> names, int depth) {
        if (depth > MAX_DEPTH) {
            throw invalid("The MongoDB query is nested too deeply.");
        }
        if (node instanceof String s) {
            String name = placeholder(s);
            if (name != null) {
                names.add(name);
            }
        } else if (node instanceof Map<?, ?> map) {
            map.values().forEach(v -> placeholders(v, names, depth + 1));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> placeholders(v, names, depth + 1));
        }
    }

    private static Refused invalid(String message) {
        return new Refused("invalid_query", message);
    }
}
