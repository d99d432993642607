package io.queryapigate.dialect.jdbc;

import java.sql.JDBCType;
import java.util.Locale;

/**
 * The nearest JDBC type for a type name as a database's catalogue spells it ({@code character varying(100)},
 * {@code DECIMAL(12,2)}, {@code int4}, {@code INTEGER[]}), for {@link io.queryapigate.dialect.spi.SchemaColumn}s.
 * It knows the standard names and the common spellings of PostgreSQL, MySQL and DuckDB; a dialect whose driver
 * reports a type differently in a run (MySQL's {@code tinyint(1)}, PostgreSQL's {@code bool}) decides those
 * itself before asking here.
 */
public final class SqlTypeNames {
    private SqlTypeNames() {}

    /**
     * The nearest JDBC type.
     *
     * @param typeName the catalogue's type name, with or without its parameters
     * @return the type; {@link JDBCType#OTHER} for a name it does not know
     */
    public static JDBCType nearest(String typeName) {
        String name = typeName.strip().toLowerCase(Locale.ROOT);
        if (name.endsWith("[]") || name.startsWith("array") || name.startsWith("list(")) {
            return JDBCType.ARRAY;
        }
        if (name.startsWith("struct") || name.startsWith("row(")) {
            return JDBCType.STRUCT;
        }
        String base = name.replaceAll("\\(.*?\\)", "").replaceAll("\\s+", " ").strip();
        return switch (base) {
            case "boolean", "bool" -> JDBCType.BOOLEAN;
            case "bit" -> JDBCType.BIT;
            case "tinyint", "int1", "utinyint" -> JDBCType.TINYINT;
            case "smallint", "int2", "short", "usmallint" -> JDBCType.SMALLINT;
            case "integer", "int", "int4", "mediumint", "signed", "uinteger", "serial" -> JDBCType.INTEGER;
            case "bigint", "int8", "long", "ubigint", "bigserial" -> JDBCType.BIGINT;
            case "numeric" -> JDBCType.NUMERIC;
            case "decimal", "dec", "hugeint", "uhugeint" -> JDBCType.DECIMAL;
            case "real", "float4" -> JDBCType.REAL;
            case "float" -> JDBCType.FLOAT;
            case "double", "double precision", "float8" -> JDBCType.DOUBLE;
            case "char", "character", "bpchar", "nchar" -> JDBCType.CHAR;
            case "varchar", "character varying", "nvarchar", "string", "text", "tinytext", "mediumtext", "longtext",
                    "name", "citext", "enum", "set" -> JDBCType.VARCHAR;
            case "date" -> JDBCType.DATE;
            case "time", "time without time zone" -> JDBCType.TIME;
            case "timetz", "time with time zone" -> JDBCType.TIME_WITH_TIMEZONE;
            case "timestamp", "timestamp without time zone", "datetime", "timestamp_s", "timestamp_ms",
                    "timestamp_ns" -> JDBCType.TIMESTAMP;
            case "timestamptz", "timestamp with time zone" -> JDBCType.TIMESTAMP_WITH_TIMEZONE;
            case "bytea", "binary" -> JDBCType.BINARY;
            case "varbinary" -> JDBCType.VARBINARY;
            case "blob", "tinyblob", "mediumblob", "longblob" -> JDBCType.BLOB;
            case "clob" -> JDBCType.CLOB;
            default -> JDBCType.OTHER;
        };
    }
}
