-- QueryAPIGate store, schema 21: console sessions started with the administrator key of the YAML (the break-glass
-- owner), which is no administrator row. As in admin_sessions, only hashes of the session id and of its CSRF token
-- are kept; key_check is a SHA-256 over the key's own SHA-256, so that changing the key in the YAML ends its
-- sessions. Times are epoch milliseconds (UTC).
CREATE TABLE key_sessions (
    id           ${id_pk},
    id_hash      CHAR(64) NOT NULL,
    key_check    CHAR(64) NOT NULL,
    csrf_hash    CHAR(64) NOT NULL,
    created_at   BIGINT   NOT NULL,
    expires_at   BIGINT   NOT NULL,
    last_seen_at BIGINT   NOT NULL
);
CREATE UNIQUE INDEX key_sessions_id_hash ON key_sessions (id_hash);
