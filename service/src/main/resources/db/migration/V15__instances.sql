-- QueryAPIGate store, schema 15: the gateway processes using this store (docs/observability.md, "Alerts, instances
-- and quota usage"). Each running instance refreshes its own row on a background thread every heartbeat interval and
-- removes it at a clean stop; rows not refreshed for a day are removed by the next instance that starts or beats.
-- Times are epoch milliseconds (UTC).
CREATE TABLE instances (
    id            VARCHAR(64)  NOT NULL PRIMARY KEY,
    host          VARCHAR(255) NOT NULL,
    pid           BIGINT       NOT NULL,
    version       VARCHAR(64)  NOT NULL,
    store_kind    VARCHAR(20)  NOT NULL,
    shared_limits BOOLEAN      NOT NULL,
    started_at    BIGINT       NOT NULL,
    last_seen     BIGINT       NOT NULL
);
CREATE INDEX instances_last_seen ON instances (last_seen);
