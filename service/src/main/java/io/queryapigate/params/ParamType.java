package io.queryapigate.params;

import java.sql.JDBCType;
import java.util.Locale;

/** The declarable parameter types and the SQL type each binds as. */
public enum ParamType {
    INT(JDBCType.BIGINT, "an integer"),
    FLOAT(JDBCType.DOUBLE, "a number"),
    DECIMAL(JDBCType.DECIMAL, "a decimal number"),
    STR(JDBCType.VARCHAR, "text"),
    BOOL(JDBCType.BOOLEAN, "true or false"),
    DATE(JDBCType.DATE, "a date (YYYY-MM-DD)"),
    TIMESTAMP(JDBCType.TIMESTAMP, "a timestamp (ISO-8601)");

    private final JDBCType jdbcType;
    private final String noun;

    ParamType(JDBCType jdbcType, String noun) {
        this.jdbcType = jdbcType;
        this.noun = noun;
    }

    public JDBCType jdbcType() {
        return jdbcType;
    }

    String noun() {
        return noun;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Accepts the canonical names and the Python original's aliases. */
    public static ParamType fromName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "int", "integer", "bigint" -> INT;
            case "float", "number", "double" -> FLOAT;
            case "decimal", "numeric" -> DECIMAL;
            case "str", "string", "text" -> STR;
            case "bool", "boolean" -> BOOL;
            case "date" -> DATE;
            case "timestamp", "datetime" -> TIMESTAMP;
            default -> null;
        };
    }
}
