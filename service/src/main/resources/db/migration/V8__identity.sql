-- QueryAPIGate store, schema 8: people next to keys. Named administrators and their personal tokens, API-key roles
-- (grant templates), workspaces and memberships, signed-in users (JWT) as principals, and console sign-in sessions.
-- Portable between SQLite and PostgreSQL, like schema 1. Times are epoch milliseconds (UTC).

-- A workspace owns connections, saved queries, API keys and roles. 'default' holds everything made before
-- workspaces existed and whatever is made without naming one; it is never removed.
CREATE TABLE workspaces (
    name        VARCHAR(100) NOT NULL PRIMARY KEY,
    description TEXT,
    created_at  BIGINT       NOT NULL,
    created_by  VARCHAR(100)
);
INSERT INTO workspaces (name, description, created_at, created_by) VALUES ('default', NULL, 0, NULL);

ALTER TABLE connections ADD COLUMN workspace VARCHAR(100) NOT NULL DEFAULT 'default';
ALTER TABLE saved_queries ADD COLUMN workspace VARCHAR(100) NOT NULL DEFAULT 'default';
ALTER TABLE api_keys ADD COLUMN workspace VARCHAR(100) NOT NULL DEFAULT 'default';
-- The role a key was made from (its grants narrow the role's), and fixed values for from_claim parameters (JSON).
ALTER TABLE api_keys ADD COLUMN role_name VARCHAR(100);
ALTER TABLE api_keys ADD COLUMN claims TEXT;

-- API-key roles: named grant templates. A JWT caller's role claim selects one; a key may reference one.
CREATE TABLE roles (
    id          ${id_pk},
    name        VARCHAR(100) NOT NULL,
    workspace   VARCHAR(100) NOT NULL DEFAULT 'default',
    description TEXT,
    grants      TEXT         NOT NULL,
    created_at  BIGINT       NOT NULL,
    created_by  VARCHAR(100),
    updated_at  BIGINT       NOT NULL,
    updated_by  VARCHAR(100)
);
CREATE UNIQUE INDEX roles_name ON roles (name);

-- A person or a pipeline administering the server. role: owner, admin, developer or auditor, server-wide; NULL when
-- the administrator only has roles in workspaces (workspace_members). issuer and subject link one to an identity
-- provider's account (console sign-in); NULL for administrators made through the API.
CREATE TABLE administrators (
    id           ${id_pk},
    name         VARCHAR(100) NOT NULL,
    role         VARCHAR(20),
    active       BOOLEAN      NOT NULL,
    email        VARCHAR(254),
    issuer       TEXT,
    subject      TEXT,
    created_at   BIGINT       NOT NULL,
    created_by   VARCHAR(100),
    last_seen_at BIGINT
);
CREATE UNIQUE INDEX administrators_name ON administrators (name);
CREATE UNIQUE INDEX administrators_sso ON administrators (issuer, subject);

-- Personal admin tokens (qagadm_...): only the SHA-256 of the secret is kept. expires_at is a day (UTC), inclusive.
CREATE TABLE admin_tokens (
    id           ${id_pk},
    admin_id     BIGINT       NOT NULL REFERENCES administrators (id) ON DELETE CASCADE,
    token_hash   CHAR(64)     NOT NULL,
    token_prefix VARCHAR(16)  NOT NULL,
    label        VARCHAR(100),
    expires_at   VARCHAR(10),
    created_at   BIGINT       NOT NULL,
    last_used_at BIGINT
);
CREATE UNIQUE INDEX admin_tokens_hash ON admin_tokens (token_hash);
CREATE INDEX admin_tokens_admin ON admin_tokens (admin_id);

-- A role inside one workspace only.
CREATE TABLE workspace_members (
    workspace  VARCHAR(100) NOT NULL REFERENCES workspaces (name),
    admin_id   BIGINT       NOT NULL REFERENCES administrators (id) ON DELETE CASCADE,
    role       VARCHAR(20)  NOT NULL,
    created_at BIGINT       NOT NULL,
    created_by VARCHAR(100),
    PRIMARY KEY (workspace, admin_id)
);

-- Someone who is not a key: a signed-in user (kind 'jwt') named by (issuer, subject). Events, history, limits and
-- quotas count them under key id -1 - id (Caller.principalKeyId), so key ids stay positive and people negative.
CREATE TABLE principals (
    id            ${id_pk},
    kind          VARCHAR(10)  NOT NULL,
    issuer        VARCHAR(500) NOT NULL,
    subject       VARCHAR(500) NOT NULL,
    name          VARCHAR(600) NOT NULL,
    first_seen_at BIGINT       NOT NULL
);
CREATE UNIQUE INDEX principals_who ON principals (kind, issuer, subject);

-- The role a call was made under (an API-key role for a signed-in user or a key made from a role; an administrator's
-- role), next to who made it.
ALTER TABLE events ADD COLUMN role VARCHAR(100);

-- Console sign-in through the identity provider: a login in flight (state, nonce and PKCE verifier kept here, bound
-- to the browser by the hash of a cookie), and a signed-in session (only hashes of the cookie and CSRF token).
CREATE TABLE sso_logins (
    state_hash    CHAR(64)     NOT NULL PRIMARY KEY,
    browser_hash  CHAR(64)     NOT NULL,
    nonce         VARCHAR(100) NOT NULL,
    code_verifier VARCHAR(200) NOT NULL,
    return_to     TEXT,
    created_at    BIGINT       NOT NULL,
    expires_at    BIGINT       NOT NULL
);
CREATE TABLE admin_sessions (
    id_hash      CHAR(64) NOT NULL PRIMARY KEY,
    admin_id     BIGINT   NOT NULL REFERENCES administrators (id) ON DELETE CASCADE,
    csrf_hash    CHAR(64) NOT NULL,
    created_at   BIGINT   NOT NULL,
    expires_at   BIGINT   NOT NULL,
    last_seen_at BIGINT   NOT NULL
);
CREATE INDEX admin_sessions_admin ON admin_sessions (admin_id);
