package io.queryapigate.dialect.spi;

import java.sql.JDBCType;
import java.util.Objects;
import java.util.Optional;

/**
 * One column of a table or view, as the database's catalogue describes it.
 *
 * @param name the column's name as the database spells it
 * @param typeName the database's own type name, such as {@code varchar(40)} or {@code Nullable(Int64)}
 * @param type the nearest JDBC type; {@link JDBCType#OTHER} when there is none
 * @param nullability whether it can hold NULL, as declared
 * @param primaryKey whether it is part of the table's primary key (or, where the engine has no primary keys, its
 *     sorting key: ClickHouse)
 * @param comment the column's comment in the database ({@code COMMENT ON COLUMN}, MySQL's {@code COMMENT}), or
 *     empty
 * @since SPI 1.3
 */
public record SchemaColumn(String name, String typeName, JDBCType type, Nullability nullability, boolean primaryKey,
        Optional<String> comment) {
    /** Validates the fields. */
    public SchemaColumn {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(typeName, "typeName is null");
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(nullability, "nullability is null");
        Objects.requireNonNull(comment, "comment is null");
    }
}
