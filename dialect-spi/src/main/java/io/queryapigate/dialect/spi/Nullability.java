package io.queryapigate.dialect.spi;

/**
 * Whether a result column can hold SQL NULL, as far as the database says.
 *
 * @since SPI 1.2
 */
public enum Nullability {
    /** The database guarantees the column never holds NULL (a {@code NOT NULL} table column, {@code count(*)}). */
    NO_NULLS,
    /** The column may hold NULL. */
    NULLABLE,
    /** The database does not say (most expressions on most engines, and every column of a row-by-row read). */
    UNKNOWN
}
