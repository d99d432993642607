package io.queryapigate.queries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.SqlJoins;
import io.queryapigate.guard.TableName;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.params.ParamRules;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.sql.SqlText;
import io.queryapigate.store.QueryVersionRow;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What an administrator asks about a definition without saving it ({@code POST /queries/validate}: every problem,
 * the placeholders, the tables) and about a saved version ({@code GET .../versions/{v}/flow}: the tables it reads and
 * its joins). Tables are the SQL guard's (CTE names are not tables); joins are {@link SqlJoins}'s.
 */
public final class QueryAnalysis {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Definitions definitions;

    public QueryAnalysis(Definitions definitions) {
        this.definitions = definitions;
    }

    /**
     * Checks a definition as saving it published would, and answers every problem instead of the first:
     * {@code {"valid", "errors": [{"message", "field" | "parameters"}], "placeholders", "tables"}}.
     */
    public ObjectNode validate(JsonNode body, String caller) {
        ObjectNode o = Definitions.object(body);
        ObjectNode out = JSON.objectNode();
        ArrayNode errors = JSON.arrayNode();
        Definitions.Input in = null;
        try {
            in = definitions.read(o, Definitions.QUERY_FIELDS, caller, null);
        } catch (ApiException e) {
            ObjectNode error = errors.addObject().put("message", e.getMessage());
            if (e.errors().size() == 1) {
                error.put("field", e.errors().keySet().iterator().next());
            }
        }
        String sql = o.path("sql").isTextual() ? o.get("sql").textValue() : null;
        String connection = o.path("connection_name").isTextual() ? o.get("connection_name").textValue() : null;
        ApiException missing = definitions.connectionProblem(connection);
        if (missing != null && connection != null) {
            errors.addObject().put("message", "Connection '" + connection + "' not found")
                    .put("field", "connection_name");
        }
        ArrayNode placeholders = JSON.arrayNode();
        ArrayNode tables = JSON.arrayNode();
        if (in != null && MongoStatements.isSaved(in.details())) {
            SqlText text = MongoStatements.text(in.sql());
            text.markerNames().forEach(placeholders::add);
            try {
                ApiException language = definitions.languageProblem(true, connection);
                if (language != null) {
                    throw language;
                }
                bareNames(MongoStatements.checkForSaving(in.sql())).forEach(tables::add);
            } catch (ApiException e) {
                errors.addObject().put("message", e.getMessage()).put("field", e.errors().size() == 1
                        ? e.errors().keySet().iterator().next() : "mongo_collection");
            }
            parameterProblem(o.get("parameters"), text, errors);
        } else if (sql != null && !sql.isBlank()) {
            SqlText text = definitions.sqlText(sql, connection);
            text.markerNames().forEach(placeholders::add);
            ApiException sqlProblem = definitions.sqlProblem(text, connection);
            if (sqlProblem != null) {
                errors.addObject().put("message", sqlProblem.getMessage()).put("field", "sql");
            } else {
                bareNames(definitions.verdict(text, connection)).forEach(tables::add);
            }
            parameterProblem(o.get("parameters"), text, errors);
        }
        out.put("valid", errors.isEmpty());
        out.set("errors", errors);
        out.set("placeholders", placeholders);
        out.set("tables", tables);
        return out;
    }

    /**
     * The tables a version reads and writes, its joins, and {@code error} when it cannot be analysed:
     * {@code {"tables", "qualified_tables", "joins": [{"left", "right", "type", "on"}], "formatted", "error"}}.
     * {@code formatted} is always null (no SQL formatter here).
     */
    public ObjectNode flow(QueryVersionRow v) {
        ObjectNode out = JSON.objectNode();
        ArrayNode tables = out.putArray("tables");
        ArrayNode qualified = out.putArray("qualified_tables");
        ArrayNode joins = out.putArray("joins");
        out.putNull("formatted");
        if (Definitions.isMongo(v)) {
            out.put("error", "SQL analysis isn't available for a MongoDB query");
            return out;
        }
        SqlDialectFamily family = definitions.family(v.connectionName());
        if (family == null) {
            out.put("error", "SQL analysis isn't available: there is no connection named '" + v.connectionName()
                    + "'");
            return out;
        }
        SqlText text = definitions.sqlText(v.sqlText(), v.connectionName());
        ApiException refused = definitions.sqlProblem(text, v.connectionName());
        GuardResult verdict = refused == null ? definitions.verdict(text, v.connectionName()) : null;
        if (verdict == null || !verdict.parsed()) {
            out.put("error", "Could not analyze this query" + (refused == null ? "" : ": " + refused.getMessage()));
            return out;
        }
        bareNames(verdict).forEach(tables::add);
        verdict.tables().forEach(t -> qualified.add(t.toString()));
        for (SqlJoins.SqlJoin j : SqlJoins.of(v.sqlText(), family)) {
            joins.addObject().put("left", j.left()).put("right", j.right()).put("type", j.type()).put("on", j.on());
        }
        out.putNull("error");
        return out;
    }

    private static Set<String> bareNames(GuardResult verdict) {
        Set<String> names = new LinkedHashSet<>();
        if (verdict != null) {
            for (TableName t : verdict.tables()) {
                names.add(t.name());
            }
        }
        return names;
    }

    private static void parameterProblem(JsonNode parameters, SqlText text, ArrayNode errors) {
        if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
            return; // reported with the body's fields
        }
        try {
            ParamRules rules = Definitions.rules(parameters);
            ApiException markers = Definitions.markerProblem(rules, text);
            if (markers != null) {
                addParameters(errors.addObject().put("message", markers.getMessage()), markers.errors());
            }
        } catch (ApiException e) {
            if (errors.isEmpty() || !errors.get(0).path("message").asText().equals(e.getMessage())) {
                addParameters(errors.addObject().put("message", e.getMessage()), e.errors());
            }
        }
    }

    private static void addParameters(ObjectNode error, Map<String, String> problems) {
        ObjectNode p = error.putObject("parameters");
        problems.forEach(p::put);
    }
}
