package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.openapi.CallableQueries.Callable;
import io.queryapigate.output.format.ColumnNames;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A saved query's JSON rows as JSON Schema: one property per result column, named as the JSON writer names it
 * (duplicates get {@code _2}), typed as {@code output.format.Values} writes the value the column's JDBC type
 * carries. Every column may be null. Unknown columns (the database could not describe the statement) give rows of
 * any shape. Each saved query's row schema is a named component ({@link #names}), so that client generators make
 * one model per query with a name a person would choose.
 */
final class ResultSchemas {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ResultSchemas() {}

    /**
     * The component name of each query's row schema, by query name: the name's ASCII letters and digits in
     * PascalCase, then {@code Row} ({@code films by rating} gives {@code FilmsByRatingRow}), {@code Query} in front
     * when that would start with a digit. When several names give the same identifier the oldest query (the lowest
     * id: a query saved later never renames an earlier one's model) keeps it and the others add 2, 3, ... in the
     * order they were saved; names in {@code taken} are never given.
     */
    static Map<String, String> names(List<Callable> queries, Set<String> taken) {
        Map<String, String> out = new HashMap<>();
        Set<String> used = new HashSet<>(taken);
        queries.stream().sorted(Comparator.comparingLong(q -> q.query().id())).forEach(q -> {
            String base = identifier(q.name());
            String name = base + "Row";
            for (int n = 2; !used.add(name); n++) {
                name = base + n + "Row";
            }
            out.put(q.name(), name);
        });
        return out;
    }

    private static String identifier(String queryName) {
        StringBuilder out = new StringBuilder();
        boolean upper = true;
        for (char c : queryName.toCharArray()) {
            boolean ascii = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!ascii) {
                upper = true;
                continue;
            }
            out.append(upper ? Character.toUpperCase(c) : c);
            upper = false;
        }
        if (out.isEmpty() || Character.isDigit(out.charAt(0))) {
            out.insert(0, "Query");
        }
        return out.toString();
    }

    /** The schema of one row; {@code columns} null or empty when unknown. */
    static ObjectNode row(List<ColumnInfo> columns) {
        ObjectNode row = JSON.objectNode().put("type", "object");
        if (columns == null || columns.isEmpty()) {
            return row;
        }
        ObjectNode properties = row.putObject("properties");
        ArrayNode required = row.putArray("required");
        List<String> names = ColumnNames.unique(columns);
        for (int i = 0; i < columns.size(); i++) {
            properties.set(names.get(i), column(columns.get(i)));
            required.add(names.get(i));
        }
        row.put("additionalProperties", false);
        return row;
    }

    static ObjectNode column(ColumnInfo c) {
        ObjectNode s = JSON.objectNode();
        String typeName = c.typeName().toLowerCase(java.util.Locale.ROOT);
        if (typeName.equals("json") || typeName.equals("jsonb")) { // output.format.JsonColumns nests them
            return s.put("x-database-type", c.typeName());
        }
        switch (c.type()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> types(s, "integer");
            case DECIMAL, NUMERIC -> types(s, "number");
            case REAL, FLOAT, DOUBLE -> types(s, "number", "string"); // NaN and infinities are written as text
            case BOOLEAN -> types(s, "boolean");
            case BIT -> types(s, "boolean", "integer", "string");
            case CHAR, VARCHAR, LONGVARCHAR, NCHAR, NVARCHAR, LONGNVARCHAR, CLOB, NCLOB -> types(s, "string");
            case DATE -> types(s, "string").put("format", "date");
            case TIME, TIME_WITH_TIMEZONE -> types(s, "string");
            case TIMESTAMP, TIMESTAMP_WITH_TIMEZONE -> types(s, "string")
                    .put("description", "YYYY-MM-DD HH:MM:SS[.ffffff], in the gateway's time zone");
            case BINARY, VARBINARY, LONGVARBINARY, BLOB -> types(s, "string").put("contentEncoding", "base64");
            default -> { } // arrays, structs, JSON and engine types: any JSON value
        }
        s.put("x-database-type", c.typeName());
        return s;
    }

    private static ObjectNode types(ObjectNode s, String... types) {
        ArrayNode t = s.putArray("type");
        for (String type : types) {
            t.add(type);
        }
        t.add("null");
        return s;
    }
}
