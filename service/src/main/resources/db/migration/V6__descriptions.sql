-- QueryAPIGate store, schema 6: what a connection's tables and columns mean (descriptions.Descriptions). Portable
-- between SQLite and PostgreSQL, like schema 1.

-- One row per description: a table's own (column_name ''), a column's, or the connection's notes (table_name and
-- column_name ''). Names are kept lower case; schema_name '' is the connection's default schema (what a bare table
-- name means there). source is 'written' (by a person, through the API) or 'database' (imported from the database's
-- own comments). Rows are keyed by the connection's name: they go when the connection is deleted for good.
CREATE TABLE descriptions (
    connection_name VARCHAR(100) NOT NULL,
    schema_name     VARCHAR(128) NOT NULL,
    table_name      VARCHAR(128) NOT NULL,
    column_name     VARCHAR(128) NOT NULL,
    description     TEXT         NOT NULL,
    source          VARCHAR(20)  NOT NULL,
    updated_at      BIGINT       NOT NULL,
    updated_by      VARCHAR(100),
    PRIMARY KEY (connection_name, schema_name, table_name, column_name)
);
