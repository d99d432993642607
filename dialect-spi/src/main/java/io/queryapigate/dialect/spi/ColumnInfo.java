package io.queryapigate.dialect.spi;

import java.sql.JDBCType;
import java.util.Objects;

/**
 * One result column.
 *
 * @param name the column label as the database reports it (may repeat within a result)
 * @param typeName the database's own type name, such as {@code DECIMAL(12,2)} or {@code timestamptz}
 * @param type the nearest JDBC type; {@link JDBCType#OTHER} when there is none
 */
public record ColumnInfo(String name, String typeName, JDBCType type) {
    /** Validates the fields. */
    public ColumnInfo {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(typeName, "typeName is null");
        Objects.requireNonNull(type, "type is null");
    }
}
