package io.queryapigate.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.output.format.ColumnNames;
import java.util.List;

/**
 * A saved query's JSON rows as JSON Schema: one property per result column, named as the JSON writer names it
 * (duplicates get {@code _2}), typed as {@code output.format.Values} writes the value the column's JDBC type
 * carries. Every column may be null, whatever the database said when it described the statement: drivers report the
 * source column's constraint (pgjdbc's {@code NOT NULL} of {@code film.title}) even where an outer join makes the
 * result column null. Unknown columns (the database could not describe the statement) give rows of any shape.
 */
final class ResultSchemas {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ResultSchemas() {}

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
