package io.queryapigate.mongo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.auth.Caller;
import io.queryapigate.dialect.spi.MongoQueryGuard;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.StatementKind;
import io.queryapigate.guard.TableName;
import io.queryapigate.paging.PageRequest;
import io.queryapigate.paging.PagedSql;
import io.queryapigate.sql.SqlText;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The service's side of a MongoDB query document (a statement of a connection whose dialect's language is {@code
 * mongo}): read and checked by {@link MongoQueryGuard} before the dialect checks it again, its collection checked
 * against a key's table grant, its {@code :name} placeholders listed (they are bound by name, as SQL markers are),
 * and its page written into its {@code skip} and {@code limit}.
 */
public final class MongoStatements {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A saved query's parts, each kept as the field {@code mongo_<part>}; the collection first. */
    private static final List<String> SAVED_PARTS = List.of("collection", "filter", "projection", "sort", "pipeline");

    private MongoStatements() {}

    /**
     * The query document checked: well formed, no stage that writes, no server-side JavaScript, a collection the
     * caller may read.
     *
     * @return the verdict: a read of the collection
     * @throws ApiException 400 for a malformed document, 403 for a refused stage, operator or collection
     */
    public static GuardResult check(String queryDocument, Caller caller) {
        String collection = collection(queryDocument);
        if (!caller.admin() && !caller.grants().mask().isEmpty()) {
            throw ApiException.forbidden("column_masked_unresolvable", "Column masking isn't supported for MongoDB"
                    + " connections yet, so a caller with mask rules is refused on them");
        }
        List<String> allowed = caller.admin() ? null : caller.grants().allowedTables();
        if (allowed != null && allowed.stream().noneMatch(t -> t.equalsIgnoreCase(collection))) {
            throw ApiException.forbidden("table_not_allowed", "This API key may only query these tables: "
                    + String.join(", ", new TreeSet<>(allowed)) + ". Forbidden: " + collection + ".");
        }
        return verdict(collection);
    }

    /**
     * The query document checked as saving a query checks it, for no caller in particular: well formed, no stage
     * that writes, no server-side JavaScript.
     *
     * @return the verdict: a read of the collection
     * @throws ApiException 400 for a malformed document, 403 for a refused stage, operator or collection
     */
    public static GuardResult checkForSaving(String queryDocument) {
        return verdict(collection(queryDocument));
    }

    /**
     * True for a saved query's version whose statement is a query document: its details say {@code query_type:
     * mongo}.
     */
    public static boolean isSaved(ObjectNode details) {
        return details != null && "mongo".equals(details.path("query_type").asText(null));
    }

    /** The document's placeholders as a statement's markers, once each, in order of appearance. */
    public static SqlText text(String queryDocument) {
        return SqlText.document(queryDocument, placeholders(queryDocument));
    }

    /**
     * A saved query's document as the Python original's fields: {@code mongo_collection}, {@code mongo_filter},
     * {@code mongo_projection}, {@code mongo_sort} (and this gateway's {@code mongo_pipeline}), those it has.
     */
    public static ObjectNode savedFields(String queryDocument) {
        ObjectNode doc = tree(queryDocument);
        ObjectNode out = JSON.createObjectNode();
        for (String part : SAVED_PARTS) {
            JsonNode v = doc.get(part);
            if (v != null && !v.isNull()) {
                out.set("mongo_" + part, v);
            }
        }
        return out;
    }

    /**
     * A query document from a saved query's fields ({@link #savedFields}'s), not yet checked: the collection, then
     * the pipeline, or the filter ({@code {}} when absent), projection and sort.
     *
     * @param field a field's value by its name ({@code mongo_collection}, ...), null when absent
     * @throws ApiException 400 {@code invalid_body} naming the field, for a missing collection or a part of the
     *     wrong JSON type
     */
    public static String fromSavedFields(Function<String, JsonNode> field) {
        JsonNode collection = field.apply("mongo_collection");
        if (collection == null || !collection.isTextual() || collection.textValue().isBlank()) {
            throw new ApiException(400, "invalid_body", "Mongo collection is missing",
                    Map.of("mongo_collection", "is required: the collection the query reads"));
        }
        ObjectNode doc = JSON.createObjectNode().put("collection", collection.textValue());
        for (String part : SAVED_PARTS.subList(1, SAVED_PARTS.size())) {
            JsonNode v = field.apply("mongo_" + part);
            if (v == null || v.isNull()) {
                continue;
            }
            boolean pipeline = part.equals("pipeline");
            if (pipeline ? !v.isArray() : !v.isObject()) {
                String problem = "mongo_" + part + " must be a JSON " + (pipeline ? "array of stages" : "object");
                throw new ApiException(400, "invalid_body", problem, Map.of("mongo_" + part, problem));
            }
            doc.set(part, v);
        }
        if (!doc.has("pipeline") && !doc.has("filter")) {
            doc.putObject("filter");
        }
        return doc.toString();
    }

    private static String collection(String queryDocument) {
        Map<?, ?> doc = parse(queryDocument);
        try {
            MongoQueryGuard.check(doc);
            return (String) doc.get("collection");
        } catch (MongoQueryGuard.Refused e) {
            int status = switch (e.code()) {
                case "mongo_operator_forbidden", "mongo_stage_forbidden", "collection_not_allowed" -> 403;
                default -> 400;
            };
            throw new ApiException(status, e.code(), e.getMessage());
        }
    }

    private static GuardResult verdict(String collection) {
        return new GuardResult(StatementKind.READ, new TreeSet<>(),
                Set.of(new TableName(null, null, collection.toLowerCase(Locale.ROOT))), Set.of(), Set.of(), Set.of(),
                false, true, null);
    }

    /** The placeholder names the document uses, in order of appearance. */
    public static List<String> placeholders(String queryDocument) {
        return MongoQueryGuard.placeholders(parse(queryDocument));
    }

    /** The document's page: {@code skip} the offset, {@code limit} one more row than the page. */
    public static PagedSql page(String queryDocument, PageRequest page) {
        ObjectNode doc = tree(queryDocument);
        long skip = doc.path("skip").asLong(0) + page.offset();
        long own = doc.path("limit").asLong(0);
        long limit = own > 0 ? Math.min(Math.max(0, own - page.offset()), page.fetch()) : page.fetch();
        doc.put("skip", skip);
        doc.put("limit", Math.max(limit, 1));
        return new PagedSql(doc.toString(), page, PagedSql.Mode.APPENDED, 0);
    }

    private static Map<?, ?> parse(String queryDocument) {
        return JSON.convertValue(tree(queryDocument), Map.class);
    }

    private static ObjectNode tree(String queryDocument) {
        try {
            JsonNode node = JSON.readTree(queryDocument);
            if (node instanceof ObjectNode o) {
                return o;
            }
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_query", "The MongoDB query is not valid JSON: "
                    + e.getOriginalMessage());
        }
        throw ApiException.badRequest("invalid_query", "A MongoDB query must be a JSON object.");
    }
}
