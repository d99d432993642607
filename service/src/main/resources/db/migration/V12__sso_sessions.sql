-- QueryAPIGate store, schema 12: a console session gets a numeric id, recorded as the credential behind what an
-- administrator does through it (as a personal admin token's id is). Nothing wrote admin_sessions before console
-- sign-in existed, so the table is made again rather than altered (SQLite cannot add a primary key).
DROP TABLE admin_sessions;
CREATE TABLE admin_sessions (
    id           ${id_pk},
    id_hash      CHAR(64) NOT NULL,
    admin_id     BIGINT   NOT NULL REFERENCES administrators (id) ON DELETE CASCADE,
    csrf_hash    CHAR(64) NOT NULL,
    created_at   BIGINT   NOT NULL,
    expires_at   BIGINT   NOT NULL,
    last_seen_at BIGINT   NOT NULL
);
CREATE UNIQUE INDEX admin_sessions_id_hash ON admin_sessions (id_hash);
CREATE INDEX admin_sessions_admin ON admin_sessions (admin_id);
