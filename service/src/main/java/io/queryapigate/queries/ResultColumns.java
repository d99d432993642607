package io.queryapigate.queries;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.errors.ApiException;
import io.queryapigate.params.ParamRules;
import io.queryapigate.sql.SqlText;
import java.io.IOException;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A saved-query version's result columns: asked of its connection's database when the version is saved ({@code
 * Dialect.describe}: the statement is described, never run), and kept with the version as JSON text, {@code
 * [{"name", "type_name", "jdbc_type", "nullable"}]} ({@code nullable} true, false or null when the database does not
 * say); {@code []} for a statement that returns no rows. Unknown (null) when the version cannot run yet (a draft), the
 * database cannot be reached or does not answer within {@link #TIME_LIMIT}, or cannot describe the statement without
 * running it; a failure is logged in one line, naming the query, the connection and the failure's class, never the
 * SQL or a value, and the save goes on.
 */
public final class ResultColumns {
    /** How long a describe may take, the wait for a pooled session included. */
    public static final Duration TIME_LIMIT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(ResultColumns.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ConnectionRegistry connections;

    public ResultColumns(ConnectionRegistry connections) {
        this.connections = connections;
    }

    /** What describing a version gave: its columns as stored (null when unknown), and the failure's class, if any. */
    public record Described(String json, DialectError failure) {}

    /**
     * Describes a version's statement on its connection, before the version is stored.
     *
     * @param query the query's name, for the log
     * @param sql the SQL as saved, with {@code :name} markers
     * @param parameters the parameter rules ({@code ParamRules.toJson})
     * @param connection the connection's name
     * @return the columns as stored, or null with the failure
     */
    public Described describe(String query, String sql, JsonNode parameters, String connection) {
        Connection c = connection == null ? null : connections.get(connection).orElse(null);
        if (c == null) {
            return new Described(null, null); // a draft on a connection that does not exist (yet)
        }
        if (!c.dialect().queryLanguage().equals("sql")) {
            return new Described(null, null); // a MongoDB collection has no columns to describe before a run
        }
        SqlText text = SqlText.parse(sql, c.lexicalRules());
        List<Parameter> typedNulls;
        try {
            typedNulls = typedNulls(text, ParamRules.parse(parameters));
        } catch (ApiException e) {
            return new Described(null, null);
        }
        if (typedNulls == null) {
            return new Described(null, null); // a draft that uses markers it does not declare
        }
        QueryRequest request = new QueryRequest(text.jdbcSql(), typedNulls, AccessMode.READ, TIME_LIMIT, 1, false,
                "describe");
        try {
            Optional<List<ColumnInfo>> columns = c.dialect().describe(request);
            if (columns.isEmpty()) {
                LOG.info("The result columns of saved query '{}' are unknown: connection '{}' ({}) cannot describe"
                        + " its statement without running it", query, connection, c.dialectName());
            }
            return new Described(columns.map(ResultColumns::toJson).orElse(null), null);
        } catch (DialectException e) {
            LOG.warn("The result columns of saved query '{}' are unknown: describing its statement on connection '{}'"
                    + " failed ({}{})", query, connection, e.error(),
                    e.sqlState() == null ? "" : ", SQLSTATE " + e.sqlState());
            return new Described(null, e.error());
        } catch (RuntimeException e) {
            LOG.warn("The result columns of saved query '{}' are unknown: describing its statement on connection '{}'"
                    + " failed ({})", query, connection, e.getClass().getSimpleName());
            return new Described(null, DialectError.INTERNAL);
        }
    }

    /** One NULL of its declared type per marker, in marker order; null when a marker has no rule. */
    private static List<Parameter> typedNulls(SqlText text, ParamRules rules) {
        if (!rules.specs().keySet().containsAll(text.markerNames())) {
            return null;
        }
        return rules.bind(text.markers(), Map.of());
    }

    /**
     * Columns as stored.
     *
     * @param columns the columns
     * @return the JSON array's text
     */
    public static String toJson(List<ColumnInfo> columns) {
        ArrayNode array = JSON.arrayNode();
        for (ColumnInfo c : columns) {
            ObjectNode o = array.addObject();
            o.put("name", c.name());
            o.put("type_name", c.typeName());
            o.put("jdbc_type", c.type().getName());
            switch (c.nullability()) {
                case NO_NULLS -> o.put("nullable", false);
                case NULLABLE -> o.put("nullable", true);
                case UNKNOWN -> o.putNull("nullable");
            }
        }
        return array.toString();
    }

    /**
     * Columns as stored, read back; empty when unknown (null or not a stored array).
     *
     * @param json the stored text, or null
     * @return the columns
     */
    public static Optional<List<ColumnInfo>> fromJson(String json) {
        if (json == null) {
            return Optional.empty();
        }
        JsonNode array;
        try {
            array = MAPPER.readTree(json);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (array == null || !array.isArray()) {
            return Optional.empty();
        }
        List<ColumnInfo> columns = new ArrayList<>(array.size());
        for (JsonNode o : array) {
            JsonNode nullable = o.path("nullable");
            columns.add(new ColumnInfo(o.path("name").asText(""), o.path("type_name").asText(""),
                    jdbcType(o.path("jdbc_type").asText("")),
                    nullable.isBoolean() ? (nullable.booleanValue() ? Nullability.NULLABLE : Nullability.NO_NULLS)
                            : Nullability.UNKNOWN));
        }
        return Optional.of(List.copyOf(columns));
    }

    private static JDBCType jdbcType(String name) {
        try {
            return JDBCType.valueOf(name);
        } catch (IllegalArgumentException e) {
            return JDBCType.OTHER;
        }
    }
}
