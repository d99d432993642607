package io.queryapigate.guard;

/** What a statement does, as the guard classifies it (the most severe of the statement and anything nested in it). */
public enum StatementKind {
    /** SELECT, WITH without data-modifying parts, VALUES, TABLE, SHOW, DESCRIBE, EXPLAIN of a read. */
    READ,
    /** INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT, and hidden writes (data-modifying CTEs, EXPLAIN of a write,
     * SELECT ... INTO, INTO OUTFILE/DUMPFILE, COPY, LOAD DATA). */
    WRITE,
    /** CREATE, DROP, ALTER, TRUNCATE, RENAME, GRANT, REVOKE, COMMENT, ANALYZE, VACUUM, ATTACH, ... */
    DDL,
    /** SET, RESET, BEGIN, COMMIT, ROLLBACK, START TRANSACTION, SAVEPOINT, USE, CALL, EXECUTE, LOCK, PRAGMA, ... */
    SESSION,
    /** Anything else (procedural blocks, statements the parser could not read). */
    OTHER
}
