-- QueryAPIGate store, schema 3: what clients of the Python original read from saved queries. Portable between
-- SQLite and PostgreSQL, like schema 1.

-- The collection a query is filed under (lower-case name), or NULL.
ALTER TABLE saved_queries ADD COLUMN collection VARCHAR(63);
CREATE INDEX saved_queries_collection ON saved_queries (collection);

-- A version's identity (a random UUID; NULL for versions saved before schema 3), its tags (a JSON array of text)
-- and what is kept as given without changing how it runs (a JSON object: "columns" descriptions, "mcp").
ALTER TABLE query_versions ADD COLUMN uuid VARCHAR(36);
ALTER TABLE query_versions ADD COLUMN tags TEXT;
ALTER TABLE query_versions ADD COLUMN details TEXT;

-- What POST /api/v1/examples installed (kind: connection, query or key), so that removing the examples removes
-- exactly that and nothing that merely shares a name.
CREATE TABLE example_items (
    kind VARCHAR(16)  NOT NULL,
    name VARCHAR(100) NOT NULL,
    PRIMARY KEY (kind, name)
);

-- The connection a saved-query run used (a caller may name another than the version's own); NULL before schema 3.
ALTER TABLE run_history ADD COLUMN connection VARCHAR(100);
