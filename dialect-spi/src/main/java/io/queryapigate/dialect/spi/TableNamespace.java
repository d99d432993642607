package io.queryapigate.dialect.spi;

/**
 * Where a connection resolves table names that do not say: the catalog and schema (or database) an unqualified
 * {@code customer} means. The service's table allow-lists compare fully qualified names, so {@code customer} in a
 * grant and {@code crm.customer} in a query are the same table exactly when {@code crm} is the default schema.
 *
 * @param catalog the default catalog (Trino catalog, PostgreSQL or DuckDB database), or null when not known or
 *     not meaningful
 * @param schema the default schema (PostgreSQL schema, MySQL/ClickHouse database, DuckDB schema), or null when
 *     not known
 */
public record TableNamespace(String catalog, String schema) {
    /** Nothing known: names are compared as written. */
    public static final TableNamespace UNKNOWN = new TableNamespace(null, null);
}
