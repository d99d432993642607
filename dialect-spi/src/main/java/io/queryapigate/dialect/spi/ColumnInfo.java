package io.queryapigate.dialect.spi;

import java.sql.JDBCType;
import java.util.Objects;

/**
 * One result column.
 *
 * @param name the column label as the database reports it (may repeat within a result)
 * @param typeName the database's own type name, such as {@code DECIMAL(12,2)} or {@code timestamptz}
 * @param type the nearest JDBC type; {@link JDBCType#OTHER} when there is none
 * @param nullability whether the column can hold NULL; {@link Nullability#UNKNOWN} unless the database said
 *     (since SPI 1.2: {@link Dialect#describe} fills it where the engine knows; {@link Dialect#execute} need not)
 */
public record ColumnInfo(String name, String typeName, JDBCType type, Nullability nullability) {
    /** Validates the fields. */
    public ColumnInfo {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(typeName, "typeName is null");
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(nullability, "nullability is null");
    }

    /**
     * A column whose nullability is not known: what {@link RowSink#columns} receives from most dialects, and the
     * record's only constructor before SPI 1.2.
     *
     * @param name the column label
     * @param typeName the database's type name
     * @param type the nearest JDBC type
     */
    public ColumnInfo(String name, String typeName, JDBCType type) {
        this(name, typeName, type, Nullability.UNKNOWN);
    }
}
