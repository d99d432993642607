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
 * carries. Every column may be null, whatever the database said when it described the statement: drivers report the
 * source column's constraint (pgjdbc's {@code NOT NULL} of {@code film.title}) even where an outer join makes the
 * result column null. Unknown columns (the database could not describe the statement) give rows of any shape. A
 * saved query's schemas are named components ({@link #names}, {@link #components}), so that client generators make
 * models with the names a person would choose.
 */
final class ResultSchemas {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String ROW = "Row";
    static final String ROWS = "Rows";
    static final String PAGE = "Page";
    static final String EMPTY_PAGE = "EmptyPage";

    private ResultSchemas() {}

    /**
     * The component names of each query's schemas, by query name: the base of {@code <base>Row} (one row),
     * {@code <base>Rows} (the rows) and {@code <base>Page} (the rows or the empty-page message). The base is the
     * name's ASCII letters and digits in PascalCase ({@code films by rating} gives {@code FilmsByRating}), with
     * {@code Query} in front when it would start with a digit. When several names give the same base the oldest query
     * (the lowest id: a query saved later never renames an earlier one's models) keeps it and the others add 2, 3,
     * ... in the order they were saved; no name in {@code taken} is given.
     */
    static Map<String, String> names(List<Callable> queries, Set<String> taken) {
        Map<String, String> out = new HashMap<>();
        Set<String> used = new HashSet<>(taken);
        queries.stream().sorted(Comparator.comparingLong(q -> q.query().id())).forEach(q -> {
            String base = identifier(q.name());
            String name = base;
            for (int n = 2; !free(used, name); n++) {
                name = base + n;
            }
            used.addAll(List.of(name + ROW, name + ROWS, name + PAGE));
            out.put(q.name(), name);
        });
        return out;
    }

    private static boolean free(Set<String> used, String base) {
        return !used.contains(base + ROW) && !used.contains(base + ROWS) && !used.contains(base + PAGE);
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

    /**
     * Adds a saved query's {@code <base>Row}, {@code <base>Rows} and {@code <base>Page} to {@code schemas}.
     *
     * @return a reference to the page, the schema of its JSON answer
     */
    static ObjectNode components(ObjectNode schemas, String base, List<ColumnInfo> columns) {
        schemas.set(base + ROW, row(columns));
        schemas.set(base + ROWS, rows(ref(base + ROW)));
        schemas.set(base + PAGE, page(ref(base + ROWS)));
        return ref(base + PAGE);
    }

    /** The JSON answer of a call: the page's rows, or {@code {"message": "No results returned"}} when it has none. */
    static ObjectNode page(ObjectNode rows) {
        ObjectNode page = JSON.objectNode();
        page.putArray("oneOf").add(rows).add(ref(EMPTY_PAGE));
        return page;
    }

    /** The rows, each matching {@code row}. */
    static ObjectNode rows(ObjectNode row) {
        ObjectNode rows = JSON.objectNode().put("type", "array");
        rows.set("items", row);
        return rows;
    }

    /** The empty page's message, a component shared by every call route. */
    static ObjectNode emptyPage() {
        ObjectNode empty = JSON.objectNode().put("type", "object")
                .put("description", "A page without rows: {\"message\": \"No results returned\"}");
        empty.putArray("required").add("message");
        empty.putObject("properties").putObject("message").put("type", "string");
        return empty;
    }

    private static ObjectNode ref(String component) {
        return JSON.objectNode().put("$ref", "#/components/schemas/" + component);
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
            case TINYINT, SMALLINT, INTEGER -> types(s, "integer").put("format", "int32");
            case BIGINT -> types(s, "integer").put("format", "int64");
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
