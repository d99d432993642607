package io.queryapigate.queries;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.errors.ApiException;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Guarding;
import io.queryapigate.mongo.MongoStatements;
import io.queryapigate.params.ParamRules;
import io.queryapigate.sql.SqlDialectFamily;
import io.queryapigate.sql.SqlShape;
import io.queryapigate.sql.SqlText;
import io.queryapigate.store.QueryVersionRow;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads and checks a saved query's definition from a request body. The body is read as the Python original reads
 * it: its fields ({@code tags}, {@code author}, {@code columns}, {@code mcp}, {@code collection}, ...), its codes
 * ({@code invalid_body} naming the first problem) and its leniency (a draft may name a connection that does not
 * exist or use markers it does not declare). Then come this gateway's own checks, which are security properties and
 * apply to drafts too: one statement, within the length limit, that the SQL guard admits for saving.
 */
public final class Definitions {
    /** The fields of a version. */
    static final Set<String> VERSION_FIELDS = Set.of("description", "author", "tags", "query_type", "sql",
            "connection_name", "parameters", "cache_ttl", "columns", "agent_writes", "max_affected_rows", "mask",
            "mcp", "publish", "mongo_collection", "mongo_filter", "mongo_projection", "mongo_sort",
            "mongo_pipeline");
    /** The fields of a new query: a version's, its name and collection. */
    static final Set<String> QUERY_FIELDS;

    static {
        Set<String> all = new LinkedHashSet<>(VERSION_FIELDS);
        all.add("name");
        all.add("collection");
        QUERY_FIELDS = Set.copyOf(all);
    }

    /** How agents may write through a saved query: every call approved by a person, or inserts only, at once. */
    public static final List<String> AGENT_WRITE_MODES = List.of("approval", "insert");
    /** The most rows {@code max_affected_rows} may allow, as the original's. */
    public static final int MAX_AFFECTED_ROWS = 100_000;
    private static final List<String> AGENT_WRITE_STATEMENTS = List.of("insert", "update", "delete");
    private static final int MAX_COLUMN_DESCRIPTIONS = 500;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper READER = new ObjectMapper();
    private static final String MONGO = "mongo";
    private static final List<String> MONGO_FIELDS = List.of("mongo_collection", "mongo_filter", "mongo_projection",
            "mongo_sort", "mongo_pipeline");

    private final Guarding guarding;
    private final ConnectionRegistry connections;
    private final long maxSqlLength;
    private final ResultColumns resultColumns;

    public Definitions(Guarding guarding, ConnectionRegistry connections, long maxSqlLength) {
        this.guarding = guarding;
        this.connections = connections;
        this.maxSqlLength = maxSqlLength;
        this.resultColumns = new ResultColumns(connections);
    }

    /** Describes a version's result columns on its connection, as it is saved. */
    public ResultColumns resultColumns() {
        return resultColumns;
    }

    /** A body's fields, read; not yet checked against a connection. */
    record Input(String sql, JsonNode parameters, String connection, String description, String author,
            int cacheTtl, List<String> tags, ObjectNode details) {}

    /**
     * Reads a body's version fields, refusing the first problem as the original does.
     *
     * @param allowed the fields the route takes
     * @param author the caller's name, when the body names no author
     * @param fallbackConnection the connection when the body names none (a new version: the latest's), or null
     */
    Input read(JsonNode body, Set<String> allowed, String author, String fallbackConnection) {
        ObjectNode o = object(body);
        Set<String> unknown = new TreeSet<>();
        o.fieldNames().forEachRemaining(f -> {
            if (!allowed.contains(f)) {
                unknown.add(f);
            }
        });
        if (!unknown.isEmpty()) {
            Map<String, String> errors = new LinkedHashMap<>();
            unknown.forEach(f -> errors.put(f, "is not a known field"));
            throw new ApiException(400, "unknown_field", "Unknown field(s): " + String.join(", ", unknown), errors);
        }
        String queryType = text(o, "query_type", "query_type must be 'sql' or 'mongo'");
        boolean mongo = MONGO.equals(queryType);
        if (queryType != null && !queryType.equals("sql") && !mongo) {
            throw invalid("query_type", "query_type must be 'sql' or 'mongo'");
        }
        String writtenBy = text(o, "author", "author must be text");
        String description = text(o, "description", "description must be text");
        String sql;
        if (mongo) {
            if (present(o, "sql")) {
                throw invalid("sql", "A query_type 'mongo' query has no sql: it is mongo_collection and mongo_filter"
                        + " (mongo_projection, mongo_sort), or mongo_pipeline");
            }
            sql = MongoStatements.fromSavedFields(o::get);
        } else {
            for (String field : MONGO_FIELDS) {
                if (present(o, field)) {
                    throw invalid(field, field + " is for MongoDB queries: set query_type to 'mongo'");
                }
            }
            sql = text(o, "sql", "SQL query is missing");
            if (sql == null || sql.isBlank()) {
                throw invalid("sql", "SQL query is missing");
            }
        }
        List<String> tags = tags(o.get("tags"));
        JsonNode parameters = o.get("parameters");
        if (parameters != null && !parameters.isNull() && !parameters.isObject()) {
            throw invalid("parameters", "query_parameters must be a JSON object");
        }
        String connection = text(o, "connection_name", "connection_name must be a string");
        int cacheTtl = cacheTtl(o.get("cache_ttl"));
        ObjectNode details = JSON.objectNode();
        if (mongo) {
            details.put("query_type", MONGO);
        }
        ObjectNode columns = columns(o.get("columns"));
        if (!columns.isEmpty()) {
            details.set("columns", columns);
        }
        agentWrites(o, details);
        if (mongo && agentWriteMode(details) != null) {
            throw invalid("agent_writes", "Agents can't write through a MongoDB query: it only reads");
        }
        JsonNode mask = o.get("mask");
        if (mask != null && !mask.isNull() && !(mask.isArray() && mask.isEmpty())) {
            throw invalid("mask", "A saved query cannot carry mask rules here: mask columns per API key (its"
                    + " \"mask\" grant)");
        }
        JsonNode mcp = o.get("mcp");
        if (mcp != null && !mcp.isNull()) {
            if (!mcp.isBoolean()) {
                throw invalid("mcp", "mcp must be true or false");
            }
            if (!mcp.booleanValue()) {
                details.put("mcp", false);
            }
        }
        return new Input(sql.strip(), parameters, connection == null || connection.isBlank() ? fallbackConnection
                : connection, description, writtenBy == null || writtenBy.isBlank() ? author : writtenBy, cacheTtl,
                tags, details);
    }

    /**
     * Checks what was read: the connection, the SQL (shape and the guard, on the connection when it exists) and the
     * parameter rules against the SQL's markers. Problems that only keep it from running are collected
     * ({@link Definition#problems()}); the rest are thrown.
     */
    Definition check(Input in) {
        List<ApiException> problems = new ArrayList<>();
        ApiException missing = connectionProblem(in.connection());
        if (missing != null && in.connection() == null) {
            throw missing;
        }
        if (missing != null) {
            problems.add(missing);
        }
        boolean mongo = MongoStatements.isSaved(in.details());
        ApiException language = languageProblem(mongo, in.connection());
        if (language != null) {
            throw language;
        }
        SqlText text;
        if (mongo) {
            MongoStatements.checkForSaving(in.sql());
            text = MongoStatements.text(in.sql());
        } else {
            text = sqlText(in.sql(), in.connection());
            ApiException sqlProblem = sqlProblem(text, in.connection());
            if (sqlProblem != null) {
                throw sqlProblem;
            }
            checkAgentWrites(in.details(), text, in.connection());
        }
        ParamRules rules = rules(in.parameters());
        ApiException markers = markerProblem(rules, text);
        if (markers != null) {
            if (markers.errors().values().stream().anyMatch(m -> m.startsWith("is declared"))) {
                throw markers;
            }
            problems.add(markers);
        }
        return new Definition(in.sql(), rules.toJson(), in.connection(), in.description(), in.author(),
                in.cacheTtl(), in.tags(), in.details(), problems);
    }

    /**
     * A version given whole, as a request body gives it (the importer, from the Python original's store), checked as
     * saving a draft checks it: what only keeps it from running (an unknown connection) is in its problems.
     */
    public Definition draft(JsonNode body) {
        return check(read(body, VERSION_FIELDS, null, null));
    }

    /** A definition given whole (the seed queries of the configuration, the examples), which must be runnable. */
    public Definition define(String sql, JsonNode parameters, String connection, String description, String author,
            int cacheTtl, List<String> tags) {
        Definition d = check(new Input(sql.strip(), parameters, connection, description, author, cacheTtl, tags,
                JSON.objectNode()));
        d.requireRunnable();
        return d;
    }

    /** The SQL's markers, read with its connection's lexical rules (the generic ones when it does not exist). */
    public SqlText sqlText(String sql, String connection) {
        Connection c = connection == null ? null : connections.visible(connection).orElse(null);
        return SqlText.parse(sql, c == null ? SqlDialectFamily.GENERIC.lexicalRules() : c.lexicalRules());
    }

    /** A version's statement with its markers: a MongoDB query document's placeholders, or the SQL's markers. */
    public SqlText text(QueryVersionRow v) {
        return isMongo(v) ? MongoStatements.text(v.sqlText()) : sqlText(v.sqlText(), v.connectionName());
    }

    /** True for a version whose statement is a MongoDB query document ({@code query_type: mongo}). */
    public static boolean isMongo(QueryVersionRow v) {
        if (v.details() == null || !v.details().contains("\"query_type\"")) {
            return false;
        }
        try {
            return MongoStatements.isSaved(READER.readValue(v.details(), ObjectNode.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored details of query " + v.queryId() + " v" + v.version()
                    + " are unreadable", e);
        }
    }

    /**
     * Null, or why the statement's language is not its connection's (when it exists): a MongoDB query document on
     * a SQL connection, SQL on a {@code mongo} one; 400 {@code wrong_connection_type}.
     */
    ApiException languageProblem(boolean mongo, String connection) {
        Connection c = connection == null ? null : connections.visible(connection).orElse(null);
        if (c == null || c.dialect().queryLanguage().equals(mongo ? MONGO : "sql")) {
            return null;
        }
        String problem = mongo ? "'" + connection + "' is not a mongo connection: a query_type 'mongo' query runs"
                + " on a mongo connection" : "'" + connection + "' is a " + c.dialect().queryLanguage()
                + " connection: save its queries with query_type 'mongo', not SQL";
        return new ApiException(400, "wrong_connection_type", problem, Map.of("connection_name", problem));
    }

    /** Null, or why the connection cannot be used. */
    ApiException connectionProblem(String connection) {
        if (connection == null || connection.isBlank()) {
            return new ApiException(400, "connection_required", "connection_name is required.",
                    Map.of("connection_name", "is required"));
        }
        if (connections.visible(connection).isEmpty()) {
            return new ApiException(400, "connection_not_found", "No connection named '" + connection + "'.",
                    Map.of("connection_name", "names no configured connection"));
        }
        return null;
    }

    /** Null, or why the SQL is refused: its shape, then (on a known connection) the SQL guard for saving. */
    ApiException sqlProblem(SqlText text, String connection) {
        try {
            SqlShape.checkShape(text, maxSqlLength);
            Connection c = connection == null ? null : connections.visible(connection).orElse(null);
            if (c != null) {
                guarding.checkForSaving(c, text.jdbcSql());
            }
            return null;
        } catch (ApiException e) {
            return e;
        }
    }

    /** What the guard admits the SQL as on its connection, or null when it cannot tell. */
    GuardResult verdict(SqlText text, String connection) {
        Connection c = connection == null ? null : connections.visible(connection).orElse(null);
        if (c == null) {
            return null;
        }
        try {
            return guarding.checkForSaving(c, text.jdbcSql());
        } catch (ApiException e) {
            return null;
        }
    }

    /** The SQL family of a connection, or null when there is no such connection. */
    SqlDialectFamily family(String connection) {
        return connection == null ? null : connections.visible(connection).map(Connection::family).orElse(null);
    }

    /** The parameter rules; a rule that does not parse is refused as the original refuses it ({@code invalid_body}). */
    static ParamRules rules(JsonNode parameters) {
        try {
            return ParamRules.parse(parameters);
        } catch (ApiException e) {
            throw new ApiException(400, "invalid_body", e.getMessage(), e.errors());
        }
    }

    /** Null, or the markers and rules that do not match: declared but unused, used but undeclared. */
    static ApiException markerProblem(ParamRules rules, SqlText text) {
        try {
            rules.checkAgainst(text.markerNames());
            return null;
        } catch (ApiException e) {
            return new ApiException(400, "invalid_body", e.getMessage(), e.errors());
        }
    }

    static ObjectNode object(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new ApiException(400, "invalid_body", "Request body must be a JSON object");
        }
        return (ObjectNode) body;
    }

    static ApiException invalid(String field, String message) {
        return new ApiException(400, "invalid_body", message, Map.of(field, message));
    }

    private static boolean present(ObjectNode o, String field) {
        JsonNode v = o.get(field);
        return v != null && !v.isNull();
    }

    private static String text(ObjectNode o, String field, String problem) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw invalid(field, problem);
        }
        return v.textValue();
    }

    /** A list of text (other members dropped) or one comma-separated text, as the original reads tags. */
    static List<String> tags(JsonNode v) {
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (v.isTextual()) {
            for (String t : v.textValue().split(",")) {
                if (!t.isBlank()) {
                    out.add(t.strip());
                }
            }
        } else if (v.isArray()) {
            v.forEach(t -> {
                if (t.isTextual()) {
                    out.add(t.textValue());
                }
            });
        } else {
            throw invalid("tags", "tags must be a string or a list");
        }
        return out;
    }

    /**
     * {@code agent_writes} and {@code max_affected_rows} as the original reads them (definitions.validate_agent_writes):
     * a mode of {@link #AGENT_WRITE_MODES}, a ceiling from 1 to {@link #MAX_AFFECTED_ROWS} (1 when absent), kept in
     * the version's details; a ceiling without a mode is refused.
     */
    private static void agentWrites(ObjectNode o, ObjectNode details) {
        JsonNode mode = o.get("agent_writes");
        JsonNode ceiling = o.get("max_affected_rows");
        if (mode == null || mode.isNull()) {
            if (ceiling != null && !ceiling.isNull()) {
                throw invalid("max_affected_rows", "max_affected_rows is for agent-writable queries - set agent_writes"
                        + " too");
            }
            return;
        }
        if (!mode.isTextual() || !AGENT_WRITE_MODES.contains(mode.textValue())) {
            throw invalid("agent_writes", "agent_writes must be one of: " + String.join(", ", AGENT_WRITE_MODES));
        }
        int max = 1;
        if (ceiling != null && !ceiling.isNull()) {
            if (!ceiling.isIntegralNumber() || !ceiling.canConvertToInt() || ceiling.intValue() < 1
                    || ceiling.intValue() > MAX_AFFECTED_ROWS) {
                throw invalid("max_affected_rows", "max_affected_rows must be a whole number from 1 to "
                        + MAX_AFFECTED_ROWS);
            }
            max = ceiling.intValue();
        }
        details.put("agent_writes", mode.textValue());
        details.put("max_affected_rows", max);
    }

    /**
     * An agent-writable version must be one statement that only changes data (INSERT, UPDATE or DELETE; an INSERT
     * alone in insert mode), on a connection whose dialect can run it in a transaction and roll it back above its
     * ceiling ({@code Capability.AFFECTED_ROWS_CEILING}). A draft on a connection that does not exist yet is checked
     * when it is published on one.
     */
    private void checkAgentWrites(ObjectNode details, SqlText text, String connection) {
        String mode = agentWriteMode(details);
        if (mode == null) {
            return;
        }
        Connection c = connection == null ? null : connections.visible(connection).orElse(null);
        if (c == null) {
            return;
        }
        if (!c.dialect().capabilities().contains(Capability.AFFECTED_ROWS_CEILING)) {
            throw invalid("agent_writes", "Agents can't write on '" + c.dialectName() + "' connections - only on"
                    + " those whose dialect runs a write in a transaction and counts the rows it changed"
                    + " (postgres, mysql, duckdb)");
        }
        GuardResult verdict = guarding.checkForSaving(c, text.jdbcSql());
        List<String> allowed = mode.equals("insert") ? List.of("insert") : AGENT_WRITE_STATEMENTS;
        boolean oneChange = verdict.parsed() && verdict.writeOps().size() == 1
                && allowed.contains(verdict.writeOps().first());
        if (!oneChange) {
            String what = mode.equals("insert") ? "an INSERT" : "an INSERT, UPDATE or DELETE";
            throw invalid("agent_writes", "An agent-writable query" + (mode.equals("insert") ? " in insert mode" : "")
                    + " must be " + what + " - one statement that changes data and nothing else");
        }
    }

    /** The version's agent-write mode ({@code approval}, {@code insert}), or null when agents cannot write with it. */
    public static String agentWriteMode(ObjectNode details) {
        return details == null ? null : details.path("agent_writes").asText(null);
    }

    /** The most rows one agent write through the version may change (1 unless it says otherwise). */
    public static int maxAffectedRows(ObjectNode details) {
        return details == null ? 1 : details.path("max_affected_rows").asInt(1);
    }

    /** A cache TTL: a non-negative whole number of seconds; null or absent is 0 (no caching). */
    static int cacheTtl(JsonNode v) {
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
            throw invalid("cache_ttl", "cache_ttl must be a non-negative integer number of seconds");
        }
        return v.intValue();
    }

    private static ObjectNode columns(JsonNode v) {
        ObjectNode out = JSON.objectNode();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isObject()) {
            throw invalid("columns", "columns must be a JSON object");
        }
        if (v.size() > MAX_COLUMN_DESCRIPTIONS) {
            throw invalid("columns", "At most " + MAX_COLUMN_DESCRIPTIONS + " column descriptions");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode d = e.getValue();
            if (e.getKey().isEmpty() || e.getKey().length() > 128 || !d.isTextual() || d.textValue().length() > 2000) {
                throw invalid("columns", "columns maps each result column (up to 128 characters) to its description"
                        + " (text, up to 2000 characters)");
            }
            if (!d.textValue().isBlank()) {
                out.put(e.getKey(), d.textValue().strip());
            }
        }
        return out;
    }
}
