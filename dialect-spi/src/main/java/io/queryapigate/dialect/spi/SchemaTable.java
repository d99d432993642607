package io.queryapigate.dialect.spi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A table or view in a database's catalogue, with its columns in their declared order.
 *
 * @param namespace where it lives: {@link TableNamespace#catalog()} the catalog or database where the engine has
 *     one level above schemas (PostgreSQL and DuckDB databases, Trino catalogs), {@link TableNamespace#schema()}
 *     the schema (MySQL and ClickHouse databases)
 * @param name the table's name as the database spells it
 * @param kind a table, a view or something else that can be read from
 * @param comment the table's comment in the database, or empty
 * @param columns its columns, in declared order
 * @since SPI 1.3
 */
public record SchemaTable(TableNamespace namespace, String name, Kind kind, Optional<String> comment,
        List<SchemaColumn> columns) {

    /** What kind of relation a {@link SchemaTable} is. */
    public enum Kind {
        /** A base table. */
        TABLE,
        /** A view (plain or materialized). */
        VIEW,
        /** Anything else that can be read from: a foreign or external table, a dictionary, a system table. */
        OTHER
    }

    /** Validates the fields and copies the column list. */
    public SchemaTable {
        Objects.requireNonNull(namespace, "namespace is null");
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(comment, "comment is null");
        columns = List.copyOf(columns);
    }
}
