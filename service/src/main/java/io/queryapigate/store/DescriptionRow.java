package io.queryapigate.store;

/**
 * One description of a connection's table, column or the connection itself (schema 6). Names are lower case;
 * {@code schemaName} is empty for the connection's default schema, {@code tableName} empty for the connection's
 * notes, {@code columnName} empty for a table's own description.
 *
 * @param source {@code written} (a person's) or {@code database} (imported from the database's comments)
 * @param updatedAt milliseconds since the epoch
 * @param updatedBy the key that wrote it, or null
 */
public record DescriptionRow(
        String connectionName,
        String schemaName,
        String tableName,
        String columnName,
        String description,
        String source,
        long updatedAt,
        String updatedBy) {}
