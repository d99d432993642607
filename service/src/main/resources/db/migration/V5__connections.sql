-- QueryAPIGate store, schema 5: connections managed through the API (those in YAML stay in YAML and are never
-- stored), and a counter every instance compares to notice that another one changed them. Portable between SQLite
-- and PostgreSQL, like schema 1.

-- One row per connection ever created through the API; a soft-deleted one keeps its row (deleted_at set) until it
-- is restored or its name is reused. password_sealed is the password encrypted at rest (secrets.SecretBox: AEAD,
-- the key id in the envelope), or NULL; password_ref a secret reference such as aws-sm:db/prod in its dollar-brace
-- form (not a secret itself), or NULL. Never both.
CREATE TABLE connections (
    id               ${id_pk},
    name             VARCHAR(100) NOT NULL,
    dialect          VARCHAR(40)  NOT NULL,
    url              TEXT         NOT NULL,
    username         TEXT,
    password_sealed  TEXT,
    password_ref     TEXT,
    pool_size        INTEGER      NOT NULL,
    query_timeout_ms BIGINT,
    properties       TEXT         NOT NULL,
    allowed_functions TEXT        NOT NULL,
    description      TEXT,
    created_at       BIGINT       NOT NULL,
    created_by       VARCHAR(100),
    updated_at       BIGINT       NOT NULL,
    updated_by       VARCHAR(100),
    deleted_at       BIGINT,
    deleted_by       VARCHAR(100),
    deleted_reason   TEXT
);
CREATE UNIQUE INDEX connections_name ON connections (name);

-- Single-row counters (name -> value), bumped in the same transaction as the change they announce.
CREATE TABLE store_versions (
    name  VARCHAR(40) NOT NULL PRIMARY KEY,
    value BIGINT      NOT NULL
);
INSERT INTO store_versions (name, value) VALUES ('connections', 0);
