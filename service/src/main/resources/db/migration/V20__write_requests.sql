-- QueryAPIGate store, schema 20: writes AI agents asked to make through a saved query marked agent_writes
-- (docs/agent-writes.md). One row per request: who asked (the key id and its name, or a person's negative id), which
-- query and version, the exact arguments and their SHA-256 (over the canonical JSON of query, version and
-- arguments), its status, who decided it and what it did. An insert-mode write is a row too, its idempotency key's
-- hash kept for a day (then cleared). Rows are kept 30 days. Times are epoch milliseconds (UTC).
CREATE TABLE write_requests (
    id                VARCHAR(32)   NOT NULL PRIMARY KEY,
    workspace         VARCHAR(100)   NOT NULL,
    caller_key_id     BIGINT        NOT NULL,
    caller            VARCHAR(255)  NOT NULL,
    query_id          BIGINT        NOT NULL,
    query_name        VARCHAR(255)  NOT NULL,
    version           INTEGER       NOT NULL,
    connection_name   VARCHAR(255)  NOT NULL,
    mode              VARCHAR(16)   NOT NULL,
    sql_text          TEXT          NOT NULL,
    arguments         TEXT          NOT NULL,
    arguments_hash    CHAR(64)      NOT NULL,
    max_affected_rows INTEGER       NOT NULL,
    status            VARCHAR(16)   NOT NULL,
    created_at        BIGINT        NOT NULL,
    expires_at        BIGINT        NOT NULL,
    decided_at        BIGINT,
    decided_by        VARCHAR(255),
    decided_via       VARCHAR(32),
    reason            TEXT,
    finished_at       BIGINT,
    result            TEXT,
    idempotency_hash  CHAR(64)
);
CREATE INDEX write_requests_listing ON write_requests (workspace, created_at);
CREATE INDEX write_requests_caller ON write_requests (workspace, caller_key_id, status);
CREATE UNIQUE INDEX write_requests_idempotency ON write_requests (workspace, idempotency_hash);
