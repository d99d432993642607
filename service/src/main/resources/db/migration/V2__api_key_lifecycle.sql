-- QueryAPIGate store, schema 2: the API-key lifecycle and usage quotas. Portable between SQLite and PostgreSQL.
-- Times are epoch milliseconds (UTC).

-- A rotation keeps the previous secret's hash, accepted until previous_expires_at (its grace period).
ALTER TABLE api_keys ADD COLUMN previous_hash CHAR(64);
ALTER TABLE api_keys ADD COLUMN previous_expires_at BIGINT;
-- The last call made with the key (written by the event writer, once per batch).
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
-- A deleted key stays as a row (its id still names it in events and history), never authenticates, and frees its name.
ALTER TABLE api_keys ADD COLUMN deleted_at BIGINT;
DROP INDEX api_keys_name;
CREATE UNIQUE INDEX api_keys_name ON api_keys (name) WHERE deleted_at IS NULL;
CREATE INDEX api_keys_previous_hash ON api_keys (previous_hash);

-- Calls and rows per key and quota period (day:2026-12-01, month:2026-12), added to by every instance.
CREATE TABLE usage_counters (
    key_id     BIGINT      NOT NULL,
    period     VARCHAR(20) NOT NULL,
    calls      BIGINT      NOT NULL,
    rows_out   BIGINT      NOT NULL,
    updated_at BIGINT      NOT NULL,
    PRIMARY KEY (key_id, period)
);
CREATE INDEX usage_counters_updated ON usage_counters (updated_at);
