-- QueryAPIGate store, schema 13: the audit log, a hash chain of administrative changes (docs/audit.md).
-- seq is assigned 1, 2, 3 ... by the writer holding the chain's head row (audit_chain 'head') for update, inside the
-- transaction of the change it records, so instances writing at once still make one chain without gaps.
CREATE TABLE audit_log (
    seq         BIGINT       NOT NULL PRIMARY KEY,
    at_ms       BIGINT       NOT NULL,
    actor_kind  VARCHAR(20)  NOT NULL,
    actor       VARCHAR(200) NOT NULL,
    address     VARCHAR(64),
    action      VARCHAR(60)  NOT NULL,
    target      VARCHAR(300) NOT NULL,
    workspace   VARCHAR(100),
    request_id  VARCHAR(64),
    entry_json  TEXT         NOT NULL,
    prev_hash   VARCHAR(100) NOT NULL,
    hash        VARCHAR(100) NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at_ms);
CREATE INDEX audit_log_action ON audit_log (action, seq);
CREATE INDEX audit_log_target ON audit_log (target, seq);

-- Two rows: 'head' (the newest entry's seq and hash: the row a writer locks) and 'anchor' (the newest entry
-- retention trimmed, so the first kept entry must follow it: a trim looks different from a deletion).
CREATE TABLE audit_chain (
    name VARCHAR(20)  NOT NULL PRIMARY KEY,
    seq  BIGINT       NOT NULL,
    hash VARCHAR(100) NOT NULL
);
INSERT INTO audit_chain (name, seq, hash) VALUES ('head', 0, '0000000000000000000000000000000000000000000000000000000000000000');
INSERT INTO audit_chain (name, seq, hash) VALUES ('anchor', 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Where each SIEM output has delivered up to (at least once), and which instance holds the delivery lease.
CREATE TABLE audit_delivery (
    output         VARCHAR(100) NOT NULL PRIMARY KEY,
    last_seq       BIGINT       NOT NULL DEFAULT 0,
    lease_holder   VARCHAR(100),
    lease_until_ms BIGINT,
    details_json   TEXT         NOT NULL DEFAULT '{}'
);
