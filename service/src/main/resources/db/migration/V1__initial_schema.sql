-- QueryAPIGate store, schema 1. Portable between SQLite and PostgreSQL; ${id_pk} is an increasing, never reused id.
-- Times are epoch milliseconds (UTC); JSON documents are stored as text.

CREATE TABLE api_keys (
    id          ${id_pk},
    name        VARCHAR(100) NOT NULL,
    key_hash    CHAR(64)     NOT NULL,
    key_prefix  VARCHAR(16)  NOT NULL,
    grants      TEXT         NOT NULL,
    expires_at  VARCHAR(10),
    active      BOOLEAN      NOT NULL,
    created_at  BIGINT       NOT NULL,
    revoked_at  BIGINT
);
CREATE UNIQUE INDEX api_keys_name ON api_keys (name);
CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash);

CREATE TABLE saved_queries (
    id                ${id_pk},
    name              VARCHAR(100) NOT NULL,
    published_version INTEGER,
    created_at        BIGINT       NOT NULL,
    updated_at        BIGINT       NOT NULL
);
CREATE UNIQUE INDEX saved_queries_name ON saved_queries (name);

CREATE TABLE query_versions (
    query_id        BIGINT       NOT NULL REFERENCES saved_queries (id) ON DELETE CASCADE,
    version         INTEGER      NOT NULL,
    sql_text        TEXT         NOT NULL,
    parameters      TEXT         NOT NULL,
    connection_name VARCHAR(100) NOT NULL,
    description     TEXT,
    author          VARCHAR(100),
    cache_ttl       INTEGER      NOT NULL DEFAULT 0,
    created_at      BIGINT       NOT NULL,
    PRIMARY KEY (query_id, version)
);

-- The newest runs per saved-query version (the writer trims older ones).
CREATE TABLE run_history (
    id          ${id_pk},
    query_id    BIGINT      NOT NULL,
    version     INTEGER     NOT NULL,
    at_ms       BIGINT      NOT NULL,
    request_id  VARCHAR(64) NOT NULL,
    key_id      BIGINT      NOT NULL,
    status      SMALLINT    NOT NULL,
    rows_out    BIGINT      NOT NULL,
    duration_us BIGINT      NOT NULL,
    error_code  VARCHAR(40)
);
CREATE INDEX run_history_version ON run_history (query_id, version, id);

-- One row per call: saved, ad-hoc, refused or failed. key_id 0 is the administrator key, -1 no valid key.
CREATE TABLE events (
    id          ${id_pk},
    at_ms       BIGINT      NOT NULL,
    request_id  VARCHAR(64) NOT NULL,
    key_id      BIGINT      NOT NULL,
    query_id    BIGINT,
    version     INTEGER,
    sql_hash    BIGINT,
    connection  VARCHAR(100),
    status      SMALLINT    NOT NULL,
    rows_out    BIGINT      NOT NULL,
    duration_us BIGINT      NOT NULL,
    bytes_out   BIGINT      NOT NULL,
    error_code  VARCHAR(40)
);
CREATE INDEX events_at ON events (at_ms);
