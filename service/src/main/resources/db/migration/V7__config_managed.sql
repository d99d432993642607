-- QueryAPIGate store, schema 7: what a configuration-as-code directory owns (`queryapigate config apply`,
-- POST /api/v1/config/apply). Portable between SQLite and PostgreSQL, like schema 1.

-- One row per object the last apply named: its kind (queries, api_keys, ...), its name, the file in the directory
-- that declares it (queries/film.yaml) and that file's SHA-256 as applied. Changing or deleting such an object
-- through the API answers 409 managed_by_file; only a later apply (or its --prune) changes or forgets it.
CREATE TABLE config_managed (
    kind           VARCHAR(40)  NOT NULL,
    name           VARCHAR(200) NOT NULL,
    file           TEXT         NOT NULL,
    content_sha256 CHAR(64)     NOT NULL,
    applied_at     BIGINT       NOT NULL,
    applied_by     VARCHAR(100),
    PRIMARY KEY (kind, name)
);
