-- QueryAPIGate store, schema 4: a saved-query version's result columns, as its connection's database described the
-- statement when the version was saved (without running it). Portable between SQLite and PostgreSQL, like schema 1.

-- A JSON array, one object per column in result order: {"name", "type_name", "jdbc_type", "nullable": true, false or
-- null}; an empty array for a statement that returns no rows; NULL when unknown (saved before schema 4, the database
-- could not be reached, or it cannot describe a statement without running it).
ALTER TABLE query_versions ADD COLUMN result_columns TEXT;
