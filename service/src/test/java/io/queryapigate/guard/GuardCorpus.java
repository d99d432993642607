package io.queryapigate.guard;

import java.util.ArrayList;
import java.util.List;

/**
 * The guard's table-driven corpus: attacks that must be refused with their code and look-alikes that must pass,
 * following the checklist of the Python original (security-and-performance reference, sections 3.1, 3.5, 3.6)
 * and the gaps it lists. Format: see {@link GuardCase}. Connection defaults: pg shopdb.public, mysql shop,
 * duckdb memory.main, clickhouse default, trino hive.web, sqlite main, generic none.
 */
final class GuardCorpus {
    private GuardCorpus() {}

    static List<GuardCase> all() {
        List<GuardCase> out = new ArrayList<>();
        out.addAll(GuardCase.parse("single-statement", SINGLE_STATEMENT));
        out.addAll(GuardCase.parse("write-keywords", WRITE_KEYWORDS));
        out.addAll(GuardCase.parse("read-keywords", READ_KEYWORDS));
        out.addAll(GuardCase.parse("executable-comments", EXECUTABLE_COMMENTS));
        out.addAll(GuardCase.parse("hidden-writes", HIDDEN_WRITES));
        out.addAll(GuardCase.parse("false-positives", FALSE_POSITIVES));
        out.addAll(GuardCase.parse("writers", WRITERS));
        out.addAll(GuardCase.parse("allowed-tables", ALLOWED_TABLES));
        out.addAll(GuardCase.parse("table-functions", TABLE_FUNCTIONS));
        out.addAll(GuardCase.parse("session-state", SESSION_STATE));
        out.addAll(GuardCase.parse("dialect-reads", DIALECT_READS));
        out.addAll(GuardCase.parse("unparseable", UNPARSEABLE));
        out.addAll(GuardCase.parse("sql-text-functions", SQL_TEXT_FUNCTIONS));
        out.addAll(GuardCase.parse("function-allow-list", FUNCTION_ALLOW_LIST));
        out.addAll(GuardCase.parse("session-state-every-caller", SESSION_STATE_EVERY_CALLER));
        out.addAll(GuardCase.parse("lexical-disagreement", LEXICAL_DISAGREEMENT));
        out.addAll(GuardCase.parse("masked-callers", MASKED_CALLERS));
        return out;
    }

    // 3.1: one statement, decided by the parser, by the dialect's lexical rules (and the rules its server may be
    // configured with) and, for PostgreSQL, by pgjdbc's own split
    static final String SINGLE_STATEMENT = """
            pg         | ro | multiple_statements | SELECT 1; DELETE FROM t
            mysql      | ro | multiple_statements | SELECT 1; DELETE FROM t
            duckdb     | ro | multiple_statements | SELECT 1; DELETE FROM t
            clickhouse | ro | multiple_statements | SELECT 1; DELETE FROM t
            trino      | ro | multiple_statements | SELECT 1; DELETE FROM t
            sqlite     | ro | multiple_statements | SELECT 1; DELETE FROM t
            generic    | ro | multiple_statements | SELECT 1; DELETE FROM t
            pg         | ro | multiple_statements | SELECT 1;SELECT 2
            pg         | ro | multiple_statements | SELECT 1 ; {nl} SELECT 2 ;
            pg         | rw | multiple_statements | SELECT 1; SET TRANSACTION READ WRITE
            pg         | rw | multiple_statements | INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)
            mysql      | rw | multiple_statements | UPDATE t SET a = 1; DELETE FROM t
            pg         | ro | multiple_statements | SELECT 1 -- x{nl}; DROP TABLE t
            pg         | ro | multiple_statements | SELECT 1 /* a */; /* b */ DROP TABLE t
            pg         | ro | multiple_statements | (SELECT 1; SELECT 2)
            pg         | ro | multiple_statements | SELECT (SELECT 1; DROP TABLE t)
            pg         | ro | ok:read             | SELECT ';' AS x
            mysql      | ro | ok:read             | SELECT ';' AS x
            duckdb     | ro | ok:read             | SELECT ';' AS x
            clickhouse | ro | ok:read             | SELECT ';' AS x
            trino      | ro | ok:read             | SELECT ';' AS x
            sqlite     | ro | ok:read             | SELECT ';' AS x
            pg         | ro | ok:read             | SELECT 'a;b' AS x, 'c'';d' AS y FROM t
            pg         | ro | ok:read             | SELECT 1;
            pg         | ro | ok:read             | SELECT 1;;
            pg         | ro | ok:read             | SELECT 1; -- trailing comment
            pg         | ro | ok:read             | SELECT 1; /* trailing comment */
            mysql      | ro | ok:read             | SELECT 1; # trailing comment
            pg         | ro | ok:read             | SELECT 1 -- ; DROP TABLE t
            pg         | ro | ok:read             | SELECT 1 /* ; DROP TABLE t */
            pg         | ro | ok:read             | SELECT 1 /* nested /* ; */ still comment ; */
            pg         | ro | ok:read             | SELECT $$a;b$$ AS x
            pg         | ro | ok:read             | SELECT $tag$ ; DROP TABLE t; $tag$ AS x
            duckdb     | ro | ok:read             | SELECT $$a;b$$ AS x
            pg         | ro | ok:read             | SELECT "a;b" FROM t
            mysql      | ro | ok:read             | SELECT `a;b` FROM t
            sqlite     | ro | ok:read             | SELECT [a;b] FROM t
            pg         | ro | ok:read             | SELECT E'it\\'s; fine' AS x
            # the backslash boundary: one literal on PostgreSQL/SQLite/DuckDB/Trino, a split on MySQL/ClickHouse
            pg         | ro | multiple_statements | SELECT 'x\\'';' AS x
            sqlite     | ro | ok:read             | SELECT 'x\\'';' AS x
            duckdb     | ro | ok:read             | SELECT 'x\\'';' AS x
            trino      | ro | ok:read             | SELECT 'x\\'';' AS x
            mysql      | ro | multiple_statements | SELECT 'x\\'';' AS x
            clickhouse | ro | multiple_statements | SELECT 'x\\'';' AS x
            mysql      | ro | multiple_statements | SELECT 'a\\\\'; DELETE FROM t; -- '
            clickhouse | ro | multiple_statements | SELECT 'a\\\\'; DELETE FROM t; -- '
            mysql      | ro | ok:read             | SELECT 'a\\'; DELETE FROM t; --' AS x
            clickhouse | ro | ok:read             | SELECT 'a\\'; DELETE FROM t; --' AS x
            pg         | ro | multiple_statements | SELECT 'a\\'; DELETE FROM t; --' AS x
            sqlite     | ro | multiple_statements | SELECT 'a\\'; DELETE FROM t; --' AS x
            mysql      | ro | multiple_statements | SELECT "x\\"";" AS x
            mysql      | ro | ok:read             | SELECT 'it\\'s' AS x, ';' AS y
            # MySQL is read with its default sql_mode (backslash escapes on)
            mysql      | ro | ok:read             | SELECT "it\\"s" AS x, ';' AS y
            # MySQL needs a blank after --; without it the text is code and the ; splits
            mysql      | ro | multiple_statements | SELECT 1 --x{nl}; DROP TABLE t
            mysql      | ro | multiple_statements | SELECT 1 #x{nl}; DROP TABLE t
            mysql      | ro | ok:read             | SELECT 1 # ; DROP TABLE t
            # ... and reads the -- of --- from the second -: SELECT 2 - (comment) - 1, not a split
            mysql      | ro | ok:read             | SELECT 2 --- ; DROP TABLE t{nl}- 1 AS x
            mysql      | ro | multiple_statements | SELECT 1 ---x{nl}; DROP TABLE t
            mysql      | ro t=t | table_not_allowed | SELECT a FROM t WHERE 1 --- '{nl}- 0 = 0 UNION SELECT secret FROM hidden -- '
            # a line comment ends at a carriage return too (the guard ends comments early rather than late)
            pg         | ro | multiple_statements | SELECT 1 -- x{cr}; DROP TABLE t
            # pgjdbc splits on ; itself and sends each piece: what it sees must agree
            pg         | ro | multiple_statements | SELECT 1; SELECT 2 -- pgjdbc sends two
            pg         | ro | multiple_statements | SELECT 'x''; SELECT 2'; SELECT 3
            # pgjdbc closes "/*/" at once, the server does not: the driver would send three pieces, so it is refused
            pg         | ro | multiple_statements | SELECT 1 /*/ ; DELETE FROM t; -- */
            duckdb     | ro | ok:read             | SELECT 1 /*/ ; DELETE FROM t; -- */
            # JSqlParser ends statements at blank lines and at lines holding only / or go; no database does
            pg         | ro | ok:read r=public.t  | SELECT a{nl}{nl}{nl}FROM t{nl}{nl}{nl}WHERE a = 1
            pg         | ro | ok:read r=public.t  | SELECT a{nl}/{nl}2 FROM t
            pg         | ro | ok:read r=public.t  | SELECT a{nl}go{nl}FROM t
            # PostgreSQL reads this as SELECT 1 AS delete FROM t (a bare column label), and so does the guard
            pg         | ro | ok:read r=public.t  | SELECT 1{nl}{nl}{nl}DELETE FROM t
            pg         | ro | read_only           | {nl}{nl}{nl}DELETE{nl}{nl}{nl}FROM t
            pg         | ro | sql_not_parseable   | SELECT 'unterminated
            pg         | ro | sql_not_parseable   | SELECT 1 /* unterminated
            pg         | ro | sql_not_parseable   | SELECT "unterminated
            pg         | ro | sql_not_parseable   | SELECT $$unterminated
            pg         | ro | sql_not_parseable   | ;
            pg         | ro | sql_not_parseable   | -- only a comment
            pg         | ro | sql_not_parseable   | {nl}{tab}
            """;

    // 3.1: every write keyword, with leading blanks, newlines, comments and parentheses, refused when read-only
    static final String WRITE_KEYWORDS = """
            pg      | ro | read_only | INSERT INTO t VALUES (1)
            pg      | ro | read_only |    {nl}{tab} insert into t values (1)
            pg      | ro | read_only | /* hi */ UPDATE t SET a = 1
            pg      | ro | read_only | -- hi{nl}DELETE FROM t
            pg      | ro | read_only | DROP TABLE t
            pg      | ro | read_only | ALTER TABLE t ADD COLUMN b int
            pg      | ro | read_only | CREATE TABLE x (a int)
            pg      | ro | read_only | TRUNCATE t
            mysql   | ro | read_only | REPLACE INTO t VALUES (1)
            pg      | ro | read_only | MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE
            pg      | ro | read_only | GRANT SELECT ON t TO someone
            pg      | ro | read_only | REVOKE SELECT ON t FROM someone
            pg      | ro | read_only | CALL proc()
            mysql   | ro | read_only | RENAME TABLE t TO u
            pg      | ro | read_only | ALTER TABLE t RENAME TO u
            pg      | ro | read_only | LOCK TABLE t
            mysql   | ro | read_only | LOCK TABLES t WRITE
            mysql   | ro | read_only | UNLOCK TABLES
            pg      | ro | read_only | SET search_path = other
            mysql   | ro | read_only | USE other
            generic | ro | read_only | EXEC proc
            pg      | ro | read_only | EXECUTE p
            generic | ro | read_only | UPSERT INTO t VALUES (1)
            pg      | ro | read_only | COPY t FROM '/tmp/x.csv'
            pg      | ro | read_only | COPY t TO '/tmp/x.csv'
            pg      | ro | read_only | COPY (SELECT 1) TO STDOUT
            mysql   | ro | read_only | LOAD DATA INFILE '/tmp/x' INTO TABLE t
            mysql   | ro | read_only | LOAD XML INFILE '/tmp/x' INTO TABLE t
            pg      | ro | read_only | VACUUM t
            pg      | ro | read_only | ANALYZE t
            pg      | ro | read_only | REINDEX TABLE t
            pg      | ro | read_only | CLUSTER t
            pg      | ro | read_only | REFRESH MATERIALIZED VIEW v
            pg      | ro | read_only | COMMENT ON TABLE t IS 'x'
            pg      | ro | read_only | DO $$ BEGIN DELETE FROM t; END $$
            pg      | ro | read_only | BEGIN
            pg      | ro | read_only | START TRANSACTION
            pg      | ro | read_only | COMMIT
            pg      | ro | read_only | ROLLBACK
            pg      | ro | read_only | SAVEPOINT s
            pg      | ro | read_only | RELEASE SAVEPOINT s
            pg      | ro | read_only | RESET ALL
            pg      | ro | read_only | DISCARD ALL
            pg      | ro | read_only | PREPARE p AS DELETE FROM t
            pg      | ro | read_only | DEALLOCATE ALL
            pg      | ro | read_only | LISTEN ch
            pg      | ro | read_only | NOTIFY ch
            pg      | ro | read_only | UNLISTEN *
            mysql   | ro | read_only | HANDLER t OPEN
            mysql   | ro | read_only | OPTIMIZE TABLE t
            mysql   | ro | read_only | KILL 42
            mysql   | ro | read_only | FLUSH PRIVILEGES
            mysql   | ro | read_only | XA START 'x'
            duckdb  | ro | read_only | ATTACH '/tmp/x.db' AS x
            duckdb  | ro | read_only | DETACH x
            duckdb  | ro | read_only | INSTALL httpfs
            duckdb  | ro | read_only | LOAD httpfs
            duckdb  | ro | read_only | CHECKPOINT
            duckdb  | ro | read_only | EXPORT DATABASE '/tmp/x'
            duckdb  | ro | read_only | IMPORT DATABASE '/tmp/x'
            duckdb  | ro | read_only | PRAGMA enable_profiling
            duckdb  | ro | read_only | SET enable_external_access = true
            duckdb  | ro | read_only | SET allowed_directories = ['/']
            duckdb  | ro | read_only | RESET threads
            duckdb  | ro | read_only | CREATE SECRET (TYPE s3, KEY_ID 'x', SECRET 'y')
            sqlite  | ro | read_only | ATTACH DATABASE '/tmp/x' AS y
            sqlite  | ro | read_only | PRAGMA journal_mode = WAL
            sqlite  | ro | read_only | VACUUM INTO '/tmp/x'
            sqlite  | ro | read_only | INSERT OR REPLACE INTO t VALUES (1)
            clickhouse | ro | read_only | OPTIMIZE TABLE t FINAL
            clickhouse | ro | read_only | SYSTEM DROP DNS CACHE
            clickhouse | ro | read_only | KILL QUERY WHERE 1
            clickhouse | ro | read_only | ALTER TABLE t DELETE WHERE 1
            clickhouse | ro | read_only | INSERT INTO FUNCTION file('x.csv') SELECT 1
            trino   | ro | read_only | CALL system.sync_partition_metadata('a', 'b', 'FULL')
            trino   | ro | read_only | SET SESSION query_max_run_time = '1h'
            trino   | ro | read_only | RESET SESSION query_max_run_time
            trino   | ro | read_only | USE hive.other
            trino   | ro | read_only | EXECUTE IMMEDIATE 'DELETE FROM t'
            pg      | ro | read_only | (((DELETE FROM t)))
            pg      | ro | read_only | /* a */ -- b{nl} /* c */ DROP TABLE t
            """;

    // 3.1: read keywords with the same prefixes pass
    static final String READ_KEYWORDS = """
            pg         | ro | ok:read r=public.t | SELECT * FROM t
            pg         | ro | ok:read r=public.t |    {nl}{tab} select * from t
            pg         | ro | ok:read r=public.t | /* hi */ SELECT * FROM t
            pg         | ro | ok:read r=public.t | -- hi{nl}SELECT * FROM t
            pg         | ro | ok:read r=public.t | (SELECT * FROM t)
            pg         | ro | ok:read r=public.t | ((SELECT * FROM t))
            pg         | ro | ok:read r=public.t | WITH x AS (SELECT * FROM t) SELECT * FROM x
            pg         | ro | ok:read            | VALUES (1), (2)
            pg         | ro | ok:read r=public.t | TABLE t
            pg         | ro | ok:read r=public.t | EXPLAIN SELECT * FROM t
            pg         | ro | ok:read r=public.t | EXPLAIN ANALYZE SELECT * FROM t
            pg         | ro | ok:read r=public.t | EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM t
            pg         | ro | ok:read            | SHOW search_path
            mysql      | ro | ok:read            | SHOW TABLES
            mysql      | ro | ok:read r=shop.t   | DESCRIBE t
            mysql      | ro | ok:read r=shop.t   | DESC t
            mysql      | ro | ok:read r=shop.customers | EXPLAIN customers
            mysql      | ro | ok:read r=shop.t   | EXPLAIN FORMAT=JSON SELECT * FROM t
            mysql      | ro | ok:read r=shop.t   | EXPLAIN ANALYZE SELECT * FROM t
            # MariaDB's ANALYZE <statement> runs it and shows the plan: judged as the statement (found by the fuzzer)
            mysql      | ro | ok:read r=shop.t   | ANALYZE SELECT * FROM t
            mysql      | ro | ok:read r=shop.t   | analyze format=json SELECT a FROM t WHERE b = 1
            mysql      | ro | read_only           | ANALYZE DELETE FROM t
            mysql      | ro | read_only           | ANALYZE UPDATE t SET a = 1
            mysql      | ro | read_only           | ANALYZE SELECT GET_LOCK('x', 0)
            mysql      | ro | read_only           | ANALYZE SELECT * FROM t FOR UPDATE
            mysql      | ro | read_only           | ANALYZE TABLE t
            mysql      | ro | read_only           | ANALYZE LOCAL TABLE t
            mysql      | ro | read_only           | ANALYZE FORMAT=JSON TABLE t
            # ANALYZE of a write answers with a plan, not the count the affected-rows ceiling needs: refused for writers too
            mysql      | rw ops=insert | sql_not_parseable | ANALYZE DELETE FROM t
            mysql      | rw ops=delete | sql_not_parseable | ANALYZE DELETE FROM t
            mysql      | rw ops=update | sql_not_parseable | ANALYZE UPDATE t SET a = 1
            pg         | ro | read_only           | ANALYZE SELECT * FROM t
            mysql      | ro | ok:read            | SHOW CREATE TABLE t
            mysql      | ro | ok:read            | SHOW VARIABLES LIKE 'max%'
            mysql      | ro | ok:read            | SHOW COLUMNS FROM t
            mysql      | ro | ok:read            | VALUES ROW(1, 2), ROW(3, 4)
            sqlite     | ro | ok:read r=main.t   | EXPLAIN QUERY PLAN SELECT * FROM t
            clickhouse | ro | ok:read r=default.t | EXPLAIN PIPELINE SELECT * FROM t
            clickhouse | ro | ok:read r=default.t | EXPLAIN SYNTAX SELECT * FROM t
            clickhouse | ro | ok:read            | SHOW CREATE TABLE t
            clickhouse | ro | ok:read            | DESCRIBE TABLE t
            duckdb     | ro | ok:read r=memory.main.t | FROM t
            duckdb     | ro | ok:read r=memory.main.t | SUMMARIZE t
            duckdb     | ro | ok:read r=memory.main.t | DESCRIBE t
            duckdb     | ro | ok:read            | SHOW ALL TABLES
            trino      | ro | ok:read            | SHOW CATALOGS
            trino      | ro | ok:read            | SHOW SCHEMAS FROM hive
            trino      | ro | ok:read r=hive.web.clicks | DESCRIBE clicks
            trino      | ro | ok:read            | EXPLAIN (TYPE DISTRIBUTED) SELECT 1
            trino      | ro | ok:read            | VALUES 1, 2
            """;

    // 3.1: MySQL executable comments anywhere (the parser drops comments, the server runs them)
    static final String EXECUTABLE_COMMENTS = """
            mysql   | ro | read_only         | /*!50000 DELETE FROM t */
            mysql   | ro | read_only         | SELECT 1 /*! ; DROP TABLE t */
            mysql   | ro | read_only         | SELECT 1 /*!50000 , (SELECT secret FROM s) */
            mysql   | ro | read_only         | SELECT /*!90000 SQL_NO_CACHE */ 1
            mysql   | ro | read_only         | SELECT 1 /*M! , 2 */
            pg      | ro | read_only         | SELECT 1 /*! harmless on PostgreSQL, refused anyway */
            mysql   | rw | sql_not_parseable | INSERT INTO t VALUES (1) /*!, (2) */
            mysql   | ro | ok:read           | SELECT '/*! not a comment */' AS x
            mysql   | ro | ok:read           | SELECT 1 /* ! not executable */
            mysql   | ro | read_only         | SELECT /*+ SET_VAR(sort_buffer_size = 16M) */ * FROM t
            mysql   | ro | ok:read r=shop.t  | SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t
            """;

    // 3.1: hidden writes are writes
    static final String HIDDEN_WRITES = """
            pg     | ro | read_only | WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d
            pg     | ro | read_only | with u as (update t set a = 1 returning *) select * from u
            pg     | ro | read_only | WITH i AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM i
            pg     | ro | read_only | WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x
            pg     | ro | read_only | WITH s AS (SELECT 1 AS id) MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE
            pg     | ro | read_only | SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) x
            pg     | ro | read_only | WITH a AS (SELECT 1), b AS (DELETE FROM t RETURNING *) SELECT * FROM a
            pg     | ro | read_only | EXPLAIN ANALYZE DELETE FROM t
            pg     | ro | read_only | EXPLAIN (ANALYZE, BUFFERS) INSERT INTO t VALUES (1)
            pg     | ro | read_only | explain analyze verbose update t set a = 1
            pg     | ro | read_only | EXPLAIN ANALYZE WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d
            pg     | ro | read_only | EXPLAIN DROP TABLE t
            pg     | ro | read_only | EXPLAIN DELETE FROM t
            duckdb | ro | read_only | EXPLAIN ANALYZE DELETE FROM t
            mysql  | ro | read_only | EXPLAIN ANALYZE DELETE FROM t
            mysql  | ro | read_only | EXPLAIN FORMAT=TREE UPDATE t SET a = 1
            sqlite | ro | read_only | EXPLAIN QUERY PLAN DELETE FROM t
            clickhouse | ro | read_only | EXPLAIN PIPELINE INSERT INTO t SELECT 1
            pg     | ro | read_only | SELECT * INTO new_table FROM t
            pg     | ro | sql_not_parseable | SELECT a, b INTO TEMP scratch FROM t
            mysql  | ro | read_only | SELECT a INTO OUTFILE '/tmp/x' FROM t
            mysql  | ro | read_only | SELECT a FROM t INTO OUTFILE '/tmp/x'
            mysql  | ro | read_only | SELECT a FROM t INTO DUMPFILE '/tmp/x'
            pg     | rw | ok:write ops=create w=public.new_table r=public.t | SELECT * INTO new_table FROM t
            pg     | rw | ok:write ops=delete w=public.t | WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d
            pg     | rw | ok:write ops=delete,merge w=public.t | WITH s AS (SELECT 1 AS id) MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE
            mysql  | rw | ok:write ops=outfile | SELECT a INTO OUTFILE '/tmp/x' FROM t
            """;

    // 3.1: no false positives
    static final String FALSE_POSITIVES = """
            pg         | ro | ok:read | SELECT 'insert into t values (1)' AS x
            pg         | ro | ok:read | SELECT 'DROP TABLE t; DELETE FROM u' AS x
            pg         | ro | ok:read | SELECT $$UPDATE t SET a = 1$$ AS x
            pg         | ro | ok:read r=public.t | SELECT "update", "delete", "insert" FROM t
            mysql      | ro | ok:read r=shop.t | SELECT `insert`, `drop` FROM t
            pg         | ro | ok:read r=public.t | SELECT updated_at, deleted, insert_count, created_by, dropped FROM t
            pg         | ro | ok:read r=public.t | SELECT * FROM t WHERE deleted = false AND updated_at > now()
            pg         | ro | ok:read r=public.t | SELECT a FROM t -- DELETE FROM t
            pg         | ro | ok:read r=public.t | SELECT a /* DROP TABLE t */ FROM t
            pg         | ro | ok:read r=public.t | SELECT replace(name, 'a', 'b') FROM t
            mysql      | ro | ok:read r=shop.t | SELECT REPLACE(name, 'a', 'b') FROM t
            clickhouse | ro | ok:read tf=merge | SELECT * FROM merge(currentDatabase(), '^t')
            pg         | ro | ok:read r=public.t | EXPLAIN ANALYZE SELECT * FROM t
            mysql      | ro | ok:read | SHOW TABLES
            mysql      | ro | ok:read r=shop.t | DESCRIBE t
            pg         | ro | ok:read | VALUES (1), (2)
            pg         | ro | ok:read r=public.t | SELECT a::int, b::text FROM t WHERE c = ?
            pg         | ro | ok:read r=public.t | SELECT a::int FROM t WHERE c = :name AND d = :other
            pg         | ro | ok:read r=public.t | SELECT a FROM t WHERE b = '2024-01-01'::date
            pg         | ro | ok:read r=public.set_config | SELECT * FROM set_config
            pg         | ro | ok:read r=public.t | SELECT set_config FROM t
            pg         | ro | ok:read r=public.t | SELECT t.update FROM t
            pg         | ro | ok:read r=public.t | SELECT a AS "DROP TABLE t; --" FROM t
            pg         | ro | ok:read r=public.t | SELECT a FROM t WHERE b LIKE '%;%'
            pg         | ro | ok:read | SELECT pg_sleep(0)
            mysql      | ro | ok:read | SELECT SLEEP(0)
            pg         | ro | ok:read | SELECT current_setting('search_path')
            pg         | ro | ok:read r=public.t | SELECT * FROM t FOR READ ONLY
            mysql      | ro | ok:read | SELECT 1 --1
            mysql      | ro | ok:read r=shop.t | SELECT a --1{nl}FROM t
            pg         | ro | ok:read r=public.t | SELECT a FROM t WHERE b = 'x' OR c = E'\\'; DROP TABLE t; --'
            sqlite     | ro | ok:read r=main.t | SELECT glob('x*', a) FROM t
            pg         | ro | ok:read r=public.t | WITH d AS (SELECT 'DELETE' AS deleted) SELECT * FROM t, d
            """;

    // writers: single writes pass, several statements never, allowed write operations narrow
    static final String WRITERS = """
            pg    | rw | ok:write ops=insert w=public.t | INSERT INTO t VALUES (1)
            pg    | rw | ok:write ops=update w=public.t | UPDATE t SET a = 1
            pg    | rw | ok:write ops=delete w=public.t r=public.u | DELETE FROM t WHERE id IN (SELECT id FROM u)
            pg    | rw | ok:write ops=merge,update w=public.t r=public.s | MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET a = s.a
            mysql | rw | ok:write ops=replace w=shop.t | REPLACE INTO t VALUES (1)
            mysql | rw | ok:write ops=insert,update w=shop.t | INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE b = 2
            pg    | rw | ok:write ops=insert,update w=public.t | INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 2
            pg    | rw | ok:write ops=insert w=public.t | INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING
            sqlite| rw | ok:write ops=replace w=main.t | INSERT OR REPLACE INTO t VALUES (1)
            pg    | rw | ok:ddl ops=create w=public.x | CREATE TABLE x (a int)
            pg    | rw | ok:ddl ops=drop w=public.t | DROP TABLE t
            pg    | rw | ok:ddl ops=create w=public.x r=public.t | CREATE TABLE x AS SELECT * FROM t
            pg    | rw | ok:session ops=call | CALL proc()
            pg    | rw | ok:write ops=copy | COPY t FROM STDIN
            pg    | rw | ok:read r=public.t | SELECT * FROM t
            pg    | rw | ok:read r=public.t | SELECT * FROM t FOR UPDATE
            pg    | rw | write_op_not_allowed | SET search_path = other
            pg    | rw | write_op_not_allowed | SET TRANSACTION READ WRITE
            pg    | rw | write_op_not_allowed | BEGIN
            pg    | rw | write_op_not_allowed | COMMIT
            pg    | rw | write_op_not_allowed | ROLLBACK
            mysql | rw | write_op_not_allowed | USE other
            pg    | rw | write_op_not_allowed | RESET ALL
            pg    | rw ops=insert | ok:write ops=insert | INSERT INTO t VALUES (1)
            pg    | rw ops=insert | ok:write ops=insert | WITH x AS (SELECT 1 AS a) INSERT INTO t SELECT a FROM x
            pg    | rw ops=insert | write_op_not_allowed | DELETE FROM t
            pg    | rw ops=insert | write_op_not_allowed | EXPLAIN ANALYZE DELETE FROM t
            # EXPLAIN ANALYZE runs the write but answers with its plan: the affected-rows ceiling would count plan lines
            pg    | rw ops=delete | write_op_not_allowed | EXPLAIN ANALYZE DELETE FROM t
            pg    | rw | write_op_not_allowed | EXPLAIN (ANALYZE, FORMAT JSON) UPDATE t SET a = 1
            mysql | rw | write_op_not_allowed | EXPLAIN ANALYZE DELETE FROM t
            mysql | rw | write_op_not_allowed | EXPLAIN FORMAT=JSON DELETE FROM t
            pg    | rw | ok:read r=public.t | EXPLAIN ANALYZE SELECT * FROM t
            pg    | rw ops=insert | write_op_not_allowed | WITH d AS (DELETE FROM t RETURNING *) INSERT INTO u SELECT * FROM d
            pg    | rw ops=insert | write_op_not_allowed | INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = 2
            pg    | rw ops=insert | write_op_not_allowed | SELECT * INTO new_table FROM t
            pg    | rw ops=insert | write_op_not_allowed | DROP TABLE t
            pg    | rw ops=insert | write_op_not_allowed | CALL proc()
            pg    | rw ops=insert | ok:read | SELECT 1
            pg    | rw ops=merge | write_op_not_allowed | MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE
            pg    | rw ops=merge,delete | ok:write | MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE
            pg    | rw ops= | write_op_not_allowed | INSERT INTO t VALUES (1)
            pg    | rw ops=insert | sql_not_parseable | COPY t FROM STDIN
            pg    | rw ops=copy | sql_not_parseable | COPY t FROM STDIN
            mysql | rw ops=insert | write_op_not_allowed | REPLACE INTO t VALUES (1)
            pg    | rw t=t | write_op_not_allowed | SET search_path = other
            # the write-operation check wins over the table check
            pg    | rw ops=insert t=u | write_op_not_allowed | DELETE FROM t
            """;

    // 3.5: allowed tables, and the gaps: schema-qualified names, quoting, three-part names, catalogs, CTE scopes,
    // LATERAL, subqueries, DML targets
    static final String ALLOWED_TABLES = """
            pg     | ro t=customer,orders | ok:read r=public.customer,public.orders | SELECT * FROM customer c JOIN orders o ON o.cid = c.id
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer c JOIN secret s ON s.id = c.id
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer c LEFT JOIN secret s USING (id)
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer, secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM (SELECT * FROM secret) x
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer UNION SELECT * FROM secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM secret UNION ALL SELECT * FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer INTERSECT SELECT * FROM secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer EXCEPT (SELECT * FROM secret)
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id IN (SELECT id FROM secret)
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE EXISTS (SELECT 1 FROM secret)
            pg     | ro t=customer | table_not_allowed | SELECT (SELECT max(x) FROM secret) FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id = ANY (SELECT id FROM secret)
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer ORDER BY (SELECT 1 FROM secret LIMIT 1)
            pg     | ro t=customer | table_not_allowed | SELECT count(*) FROM customer GROUP BY id HAVING count(*) > (SELECT count(*) FROM secret)
            pg     | ro t=customer | table_not_allowed | SELECT CASE WHEN EXISTS (SELECT 1 FROM secret) THEN 1 END FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT coalesce((SELECT x FROM secret LIMIT 1), 0) FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer c, LATERAL (SELECT * FROM secret s WHERE s.id = c.id) x
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer c CROSS JOIN LATERAL (SELECT * FROM secret WHERE id = c.id LIMIT 1) x
            pg     | ro t=customer,secret | ok:read r=public.customer,public.secret | SELECT * FROM customer c, LATERAL (SELECT * FROM secret s WHERE s.id = c.id) x
            pg     | ro t=customer | table_not_allowed | VALUES ((SELECT x FROM secret LIMIT 1))
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id IN (SELECT id FROM (SELECT id FROM (SELECT id FROM secret) a) b)
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE (SELECT count(*) FROM customer WHERE id IN (SELECT id FROM secret)) > 0
            pg     | ro t=customer | table_not_allowed | SELECT array(SELECT x FROM secret) FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT sum(x) FILTER (WHERE x IN (SELECT x FROM secret)) FROM customer
            pg     | ro t=customer | table_not_allowed | SELECT row_number() OVER (ORDER BY (SELECT 1 FROM secret)) FROM customer
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM customer c1 JOIN customer c2 ON c1.id = c2.ref
            # ClickHouse and SQLite read a table named right of IN without parentheses
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM events WHERE id IN secret
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM events WHERE id GLOBAL NOT IN other.secret
            clickhouse | ro t=events,ids | ok:read r=default.events,default.ids | SELECT * FROM events WHERE id IN ids
            sqlite     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id IN secret
            sqlite     | ro t=customer | ok:read r=main.customer | WITH ids AS (SELECT 1) SELECT * FROM customer WHERE id IN ids
            sqlite     | ro t=customer | ok:read r=main.customer tf=json_each | SELECT * FROM customer WHERE id IN json_each('[1]')
            sqlite     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id IN pragma_table_info('secret')
            # CTE names are not tables; their bodies count; per scope
            pg     | ro t=customer | ok:read r=public.customer | WITH x AS (SELECT * FROM customer) SELECT * FROM x
            pg     | ro t=customer | table_not_allowed | WITH x AS (SELECT * FROM secret) SELECT * FROM x
            pg     | ro t=customer | ok:read r=public.customer | WITH secret AS (SELECT * FROM customer) SELECT * FROM secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM (WITH secret AS (SELECT 1) SELECT * FROM secret) a, secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM customer WHERE id IN (WITH secret AS (SELECT 1) SELECT * FROM secret) AND id IN (SELECT id FROM secret)
            pg     | ro t=customer | ok:read r=public.customer | WITH a AS (SELECT * FROM customer), b AS (SELECT * FROM a) SELECT * FROM b
            pg     | ro t=customer | table_not_allowed | WITH b AS (SELECT * FROM a), a AS (SELECT * FROM customer) SELECT * FROM b
            pg     | ro t=customer | ok:read r=public.customer | WITH customer AS (SELECT * FROM customer) SELECT * FROM customer
            pg     | ro t=customer | table_not_allowed | WITH secret AS (SELECT * FROM secret) SELECT * FROM secret
            pg     | ro t=customer | ok:read r=public.customer | WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r, customer
            pg     | ro t=customer | table_not_allowed | WITH x AS (SELECT 1) SELECT * FROM public.x
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM customer WHERE id IN (WITH q AS (SELECT id FROM customer) SELECT id FROM q)
            pg     | ro t=customer | table_not_allowed | WITH q AS (SELECT 1) SELECT * FROM customer WHERE id IN (WITH z AS (SELECT 2) SELECT * FROM q, secret)
            # schema-qualified names: a bare grant is the default schema only
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM public.customer
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM shopdb.public.customer
            pg     | ro t=customer | table_not_allowed | SELECT * FROM billing.customer
            pg     | ro t=customer | table_not_allowed | SELECT * FROM otherdb.public.customer
            pg     | ro t=billing.customer | ok:read r=billing.customer | SELECT * FROM billing.customer
            pg     | ro t=billing.customer | table_not_allowed | SELECT * FROM customer
            pg     | ro t=public.customer | ok:read r=public.customer | SELECT * FROM customer
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM billing.customer
            mysql  | ro t=customer | ok:read r=shop.customer | SELECT * FROM shop.customer
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM customer c JOIN billing.customer b ON c.id = b.id
            mysql  | ro t=customer | ok:read r=shop.customer | SELECT * FROM `customer`
            mysql  | ro t=customer | ok:read r=shop.customer | SELECT * FROM `shop`.`customer`
            mysql  | ro t=billing.customer | ok:read r=billing.customer | SELECT * FROM billing.customer
            clickhouse | ro t=events | ok:read r=default.events | SELECT * FROM events
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM other.events
            # case and quoting: unquoted names fold (PostgreSQL lower case), quoted ones compare exactly
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM CUSTOMER
            pg     | ro t=customer | ok:read r=public.customer | SELECT * FROM "customer"
            pg     | ro t=customer | table_not_allowed | SELECT * FROM "Customer"
            pg     | ro t=customer | table_not_allowed | SELECT * FROM "CUSTOMER"
            pg     | ro t="Secret" | ok:read | SELECT * FROM "Secret"
            pg     | ro t="Secret" | table_not_allowed | SELECT * FROM Secret
            pg     | ro t="Secret" | table_not_allowed | SELECT * FROM secret
            pg     | ro t=customer | table_not_allowed | SELECT * FROM "public.customer"
            pg     | ro t=a.b | table_not_allowed | SELECT * FROM "a.b"
            pg     | ro t="a.b" | ok:read | SELECT * FROM "a.b"
            duckdb | ro t=customer | ok:read r=memory.main.customer | SELECT * FROM Customer
            trino  | ro t=clicks | ok:read r=hive.web.clicks | SELECT * FROM CLICKS
            # MySQL and ClickHouse table names are case-sensitive (lower_case_table_names=0): exact comparison
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM Customer
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM Events
            mysql  | ro t=information_schema.tables | ok:read r=information_schema.tables | SELECT * FROM INFORMATION_SCHEMA.TABLES
            # three-part names
            trino  | ro t=hive.web.clicks | ok:read r=hive.web.clicks | SELECT * FROM hive.web.clicks
            trino  | ro t=hive.web.clicks | ok:read r=hive.web.clicks | SELECT * FROM clicks
            trino  | ro t=hive.web.clicks | ok:read r=hive.web.clicks | SELECT * FROM web.clicks
            trino  | ro t=hive.web.clicks | table_not_allowed | SELECT * FROM postgres.web.clicks
            trino  | ro t=hive.web.clicks | table_not_allowed | SELECT * FROM hive.other.clicks
            trino  | ro t=clicks | table_not_allowed | SELECT * FROM iceberg.web.clicks
            duckdb | ro t=customer | ok:read r=memory.main.customer | SELECT * FROM memory.main.customer
            duckdb | ro t=customer | table_not_allowed | SELECT * FROM other.main.customer
            duckdb | ro t=customer | table_not_allowed | SELECT * FROM other.customer
            generic| ro t=customer | table_not_allowed | SELECT * FROM srv.db.dbo.customer
            # catalog schemas are tables like any other
            pg     | ro t=customer | table_not_allowed | SELECT * FROM information_schema.tables
            pg     | ro t=customer | table_not_allowed | SELECT * FROM information_schema.columns WHERE table_name = 'secret'
            pg     | ro t=customer | table_not_allowed | SELECT * FROM pg_catalog.pg_class
            pg     | ro t=customer | table_not_allowed | SELECT * FROM pg_class
            pg     | ro t=customer | table_not_allowed | SELECT usename, passwd FROM pg_shadow
            pg     | ro t=customer | table_not_allowed | SELECT * FROM pg_stat_activity
            pg     | ro t=pg_catalog.pg_class | ok:read r=pg_catalog.pg_class | SELECT relname FROM pg_class
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM mysql.user
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM information_schema.tables
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM performance_schema.threads
            mysql  | ro t=customer | table_not_allowed | SELECT * FROM sys.session
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM system.tables
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM system.query_log
            sqlite | ro t=customer | table_not_allowed | SELECT * FROM sqlite_master
            sqlite | ro t=customer | table_not_allowed | SELECT * FROM sqlite_schema
            sqlite | ro t=customer | table_not_allowed | SELECT * FROM temp.customer
            duckdb | ro t=customer | table_not_allowed | SELECT * FROM information_schema.tables
            trino  | ro t=clicks | table_not_allowed | SELECT * FROM system.runtime.queries
            trino  | ro t=clicks | table_not_allowed | SELECT * FROM hive.information_schema.tables
            # metadata statements under a restriction
            mysql  | ro t=customer | ok:read r=shop.customer | DESCRIBE customer
            mysql  | ro t=customer | table_not_allowed | DESCRIBE secret
            mysql  | ro t=customer | table_not_allowed | SHOW TABLES
            mysql  | ro t=customer | sql_not_parseable | SHOW CREATE TABLE secret
            pg     | ro t=customer | table_not_allowed | EXPLAIN SELECT * FROM secret
            pg     | ro t=customer | table_not_allowed | TABLE secret
            # DML targets and their subqueries
            pg     | rw t=customer | ok:write w=public.customer | DELETE FROM customer WHERE id = 1
            pg     | rw t=customer | table_not_allowed | DELETE FROM secret
            pg     | rw t=customer | table_not_allowed | DELETE FROM customer WHERE id IN (SELECT id FROM secret)
            pg     | rw t=customer | table_not_allowed | UPDATE secret SET a = 1
            pg     | rw t=customer | table_not_allowed | UPDATE customer SET a = (SELECT a FROM secret LIMIT 1)
            pg     | rw t=customer | table_not_allowed | UPDATE customer SET a = s.a FROM secret s WHERE s.id = customer.id
            pg     | rw t=customer | table_not_allowed | INSERT INTO secret VALUES (1)
            pg     | rw t=customer | table_not_allowed | INSERT INTO customer SELECT * FROM secret
            pg     | rw t=customer | table_not_allowed | INSERT INTO customer VALUES (1) RETURNING (SELECT 1 FROM secret)
            pg     | rw t=customer | table_not_allowed | WITH d AS (DELETE FROM secret RETURNING *) SELECT * FROM customer
            pg     | rw t=customer | table_not_allowed | MERGE INTO customer USING secret s ON s.id = customer.id WHEN MATCHED THEN DELETE
            pg     | rw t=customer | table_not_allowed | CREATE TABLE copy AS SELECT * FROM customer
            pg     | rw t=customer | table_not_allowed | DROP TABLE secret
            pg     | rw t=customer | table_not_allowed | TRUNCATE secret
            pg     | rw t=customer | table_not_allowed | SELECT * INTO stolen FROM customer
            mysql  | rw t=customer | table_not_allowed | DELETE c, s FROM customer c JOIN secret s ON s.id = c.id
            pg     | rw t=customer | table_not_allowed | DELETE FROM customer USING secret s WHERE s.id = customer.id
            mysql  | rw t=customer | table_not_allowed | UPDATE customer, secret SET customer.a = secret.a WHERE customer.id = secret.id
            pg     | rw t=customer,v | table_not_allowed | CREATE VIEW v AS SELECT * FROM secret
            pg     | rw t=customer | table_not_allowed | CREATE VIEW v AS SELECT * FROM customer
            pg     | rw t=customer | table_not_allowed | INSERT INTO customer (SELECT * FROM secret)
            pg     | rw t=customer | table_not_allowed | WITH s AS (SELECT * FROM secret) UPDATE customer SET a = (SELECT a FROM s)
            pg     | rw t=customer | ok:write w=public.customer | WITH secret AS (SELECT 1 AS a) INSERT INTO customer SELECT a FROM secret
            mysql  | rw t=customer | table_not_allowed | UPDATE customer c JOIN secret s ON s.id = c.id SET c.a = s.a
            # unparseable SQL under a restriction is refused, never allowed
            pg     | ro t=customer | sql_not_parseable | SELECT * FROM customer WHERE a IS OF (int)
            pg     | rw t=customer | sql_not_parseable | COPY customer FROM STDIN
            mysql  | ro t=customer | sql_not_parseable | SELECT * FROM customer LOCK IN SHARE MODE
            pg     | ro t= | table_not_allowed | SELECT * FROM customer
            pg     | ro t= | ok:read | SELECT 1
            pg     | ro t= | ok:read tf=generate_series | SELECT * FROM generate_series(1, 3)
            """;

    // table functions: generators pass a restriction, anything else does not; per dialect file/network readers
    static final String TABLE_FUNCTIONS = """
            pg         | ro t=customer | ok:read tf=generate_series | SELECT * FROM generate_series(1, 10) g
            pg         | ro t=customer | ok:read tf=generate_series | SELECT * FROM pg_catalog.generate_series(1, 10) g
            pg         | ro t=customer | ok:read tf=unnest | SELECT * FROM unnest(ARRAY[1, 2]) AS u(x)
            pg         | ro t=customer | ok:read tf=generate_subscripts | SELECT * FROM generate_subscripts(ARRAY[1, 2], 1)
            pg         | ro t=customer | ok:read r=public.customer tf=jsonb_array_elements | SELECT x FROM customer c, jsonb_array_elements(c.doc) x
            pg         | ro t=customer | ok:read r=public.customer tf=generate_series | SELECT * FROM customer c, LATERAL generate_series(1, c.n) g
            pg         | ro t=customer | table_not_allowed | SELECT * FROM generate_series(1, (SELECT max(n) FROM secret))
            pg         | ro t=customer | table_not_allowed | SELECT * FROM evil.generate_series(1, 10)
            pg         | ro t=customer | table_not_allowed | SELECT * FROM my_function()
            pg         | rw t=customer | write_op_not_allowed | SELECT * FROM dblink('host=x', 'SELECT 1') AS r(a int)
            pg         | ro t=customer | read_only | SELECT * FROM dblink('host=x', 'SELECT 1') AS r(a int)
            pg         | ro t=customer | table_not_allowed | SELECT * FROM ROWS FROM (generate_series(1, 3), my_function()) AS x(a, b)
            pg         | rw t=customer | write_op_not_allowed | SELECT query_to_xml('SELECT * FROM secret', true, false, '')
            pg         | rw t=customer | write_op_not_allowed | SELECT table_to_xml('secret', true, false, '')
            pg         | rw t=customer | write_op_not_allowed | SELECT * FROM ts_stat('SELECT v FROM secret')
            pg         | ro | ok:read tf=my_function | SELECT * FROM my_function()
            duckdb     | ro t=customer | ok:read tf=range | SELECT * FROM range(10)
            duckdb     | ro t=customer | ok:read tf=generate_series | SELECT * FROM generate_series(1, 3)
            duckdb     | ro t=customer | read_only | SELECT * FROM read_csv('customer.csv')
            duckdb     | ro files t=customer | table_not_allowed | SELECT * FROM read_parquet('x.parquet')
            duckdb     | ro files t=customer | table_not_allowed | SELECT * FROM 'customer.csv'
            duckdb     | ro files t=customer | table_not_allowed | SELECT * FROM "customer.csv"
            duckdb     | ro t=customer | table_not_allowed | SELECT * FROM duckdb_tables()
            duckdb     | rw t=customer | write_op_not_allowed | SELECT * FROM query_table('secret')
            duckdb     | ro t=customer | table_not_allowed | SELECT * FROM pragma_table_info('secret')
            duckdb     | ro files t=customer | table_not_allowed | SELECT * FROM read_csv('customer.csv')
            duckdb     | ro | read_only | SELECT * FROM read_csv('/etc/passwd')
            duckdb     | ro | read_only | SELECT * FROM read_csv_auto('/etc/passwd')
            duckdb     | ro | read_only | SELECT * FROM read_json('x.json')
            duckdb     | ro | read_only | SELECT * FROM read_json_auto('x.json')
            duckdb     | ro | read_only | SELECT * FROM read_text('/etc/passwd')
            duckdb     | ro | read_only | SELECT * FROM read_blob('/etc/passwd')
            duckdb     | ro | read_only | SELECT * FROM parquet_scan('x.parquet')
            duckdb     | ro | read_only | SELECT * FROM glob('/etc/*')
            duckdb     | ro | read_only | SELECT * FROM sniff_csv('x.csv')
            duckdb     | ro | read_only | SELECT * FROM 'file.csv'
            duckdb     | ro | read_only | SELECT * FROM '/etc/passwd'
            duckdb     | ro | read_only | SELECT * FROM "s3://bucket/key.parquet"
            duckdb     | ro | read_only | SELECT * FROM customer WHERE id IN (SELECT id FROM read_parquet('x.parquet'))
            duckdb     | ro | read_only | SELECT * FROM query('DELETE FROM t')
            duckdb     | ro files | ok:read tf=read_csv | SELECT * FROM read_csv('/data/allowed/x.csv')
            duckdb     | ro files | ok:read | SELECT * FROM 'x.csv'
            duckdb     | ro files | read_only | SELECT * FROM query('SELECT 1')
            clickhouse | ro t=events | ok:read tf=numbers | SELECT * FROM numbers(10)
            clickhouse | ro t=events | ok:read tf=numbers_mt | SELECT * FROM numbers_mt(10)
            clickhouse | ro t=events | table_not_allowed | SELECT * FROM merge(currentDatabase(), '^secret')
            clickhouse | rw t=events | table_not_allowed | SELECT * FROM file('x.csv')
            clickhouse | rw t=events | write_op_not_allowed | SELECT * FROM remote('h', db.secret)
            clickhouse | rw t=events | write_op_not_allowed | SELECT * FROM cluster('c', default.secret)
            clickhouse | rw t=events | write_op_not_allowed | SELECT dictGet('secrets', 'v', toUInt64(1)) FROM events
            clickhouse | rw t=events | write_op_not_allowed | SELECT joinGet('secret_join', 'v', 1)
            clickhouse | ro | read_only | SELECT * FROM file('/etc/passwd')
            clickhouse | ro | read_only | SELECT * FROM remote('h', db.t)
            clickhouse | ro | read_only | SELECT * FROM remoteSecure('h', db.t)
            clickhouse | ro | read_only | SELECT * FROM s3('http://x/y.csv')
            clickhouse | ro | read_only | SELECT * FROM hdfs('hdfs://x/y')
            clickhouse | ro | read_only | SELECT * FROM mysql('h:3306', 'db', 't', 'u', 'p')
            clickhouse | ro | read_only | SELECT * FROM postgresql('h:5432', 'db', 't', 'u', 'p')
            clickhouse | ro | read_only | SELECT * FROM jdbc('x', 'y')
            clickhouse | ro | read_only | SELECT * FROM input('a Int32')
            clickhouse | ro | read_only | SELECT file('/etc/passwd')
            clickhouse | ro | ok:read tf=merge | SELECT * FROM merge(currentDatabase(), '^t')
            trino      | ro t=clicks | ok:read tf=unnest | SELECT * FROM UNNEST(ARRAY[1, 2]) AS t(x)
            trino      | ro t=clicks | ok:read r=hive.web.clicks tf=unnest | SELECT * FROM clicks c CROSS JOIN UNNEST(c.tags) AS u(tag)
            trino      | ro | read_only | SELECT * FROM TABLE(system.query(query => 'DELETE FROM t'))
            sqlite     | ro t=customer | table_not_allowed | SELECT * FROM pragma_table_info('secret')
            sqlite     | ro | ok:read tf=pragma_table_info | SELECT * FROM pragma_table_info('t')
            generic    | ro files t=customer | table_not_allowed | SELECT * FROM read_csv('x.csv')
            generic    | ro | read_only | SELECT * FROM url('http://x')
            """;

    // 3.6: functions that change session state or read files/network, per dialect, for read-only callers
    static final String SESSION_STATE = """
            pg     | ro | read_only | SELECT set_config('default_transaction_read_only', 'off', false)
            pg     | ro | read_only | SELECT set_config('search_path', 'billing', false)
            pg     | ro | read_only | SELECT pg_catalog.set_config('TimeZone', 'Asia/Tokyo', false)
            pg     | ro | read_only | SELECT "set_config"('x', 'y', false)
            pg     | ro | read_only | SELECT * FROM t WHERE a = (SELECT set_config('x', 'y', true))
            pg     | ro | read_only | SELECT pg_read_file('/etc/passwd')
            pg     | ro | read_only | SELECT pg_read_binary_file('/etc/passwd')
            pg     | ro | read_only | SELECT pg_ls_dir('.')
            pg     | ro | read_only | SELECT pg_stat_file('postgresql.conf')
            pg     | ro | read_only | SELECT lo_import('/etc/passwd')
            pg     | ro | read_only | SELECT lo_export(1, '/tmp/x')
            pg     | ro | read_only | SELECT lo_get(1)
            pg     | ro | read_only | SELECT * FROM dblink('host=x', 'DELETE FROM t') AS r(a int)
            pg     | ro | read_only | SELECT dblink_exec('host=x', 'DELETE FROM t')
            pg     | ro | read_only | SELECT pg_terminate_backend(42)
            pg     | ro | read_only | SELECT pg_cancel_backend(42)
            pg     | ro | read_only | SELECT pg_reload_conf()
            pg     | ro | read_only | SELECT pg_advisory_lock(1)
            pg     | ro | read_only | SELECT pg_advisory_xact_lock_shared(1)
            pg     | ro | read_only | SELECT pg_try_advisory_lock(1)
            pg     | ro | read_only | SELECT nextval('s')
            pg     | ro | read_only | SELECT setval('s', 1)
            pg     | ro | read_only | SELECT pg_notify('ch', 'x')
            pg     | ro | read_only | SELECT query_to_xml('DELETE FROM t RETURNING *', true, false, '')
            pg     | ro | read_only | SELECT pg_create_logical_replication_slot('s', 'test_decoding')
            pg     | ro | read_only | SELECT * FROM pg_logical_slot_get_changes('s', NULL, NULL)
            pg     | ro | read_only | SELECT * FROM t FOR UPDATE
            pg     | ro | read_only | SELECT * FROM t FOR SHARE
            pg     | ro | read_only | SELECT * FROM t FOR NO KEY UPDATE SKIP LOCKED
            pg     | ro | read_only | SELECT * FROM t FOR KEY SHARE NOWAIT
            pg     | ro | read_only | SELECT * FROM t FOR UPDATE OF t
            pg     | ro | read_only | SELECT * FROM (SELECT * FROM t FOR UPDATE) x
            pg     | ro | read_only | SET ROLE postgres
            pg     | ro | read_only | SET SESSION AUTHORIZATION postgres
            pg     | ro | read_only | SET TRANSACTION READ WRITE
            pg     | ro | read_only | SELECT NEXT VALUE FOR s
            mysql  | ro | read_only | SELECT LOAD_FILE('/etc/passwd')
            mysql  | ro | read_only | SELECT GET_LOCK('x', 10)
            mysql  | ro | read_only | SELECT RELEASE_LOCK('x')
            mysql  | ro | read_only | SELECT RELEASE_ALL_LOCKS()
            mysql  | ro | read_only | SELECT @x := 1
            mysql  | ro | read_only | SELECT * FROM t WHERE (@x := a) IS NOT NULL
            mysql  | ro | read_only | SET @x = 1
            mysql  | ro | read_only | SET SESSION TRANSACTION READ WRITE
            mysql  | ro | read_only | SET GLOBAL max_connections = 1
            mysql  | ro | read_only | SELECT * FROM t FOR UPDATE
            mysql  | ro | read_only | SELECT * FROM t FOR SHARE
            mysql  | ro | sql_not_parseable | SELECT a INTO @v FROM t
            duckdb | ro | read_only | SELECT nextval('s')
            duckdb | ro | read_only | SELECT * FROM duckdb_secrets()
            sqlite | ro | read_only | SELECT load_extension('/tmp/evil.so')
            sqlite | ro | read_only | SELECT writefile('/tmp/x', 'y')
            sqlite | ro | read_only | SELECT readfile('/etc/passwd')
            sqlite | ro files | read_only | SELECT writefile('/tmp/x', 'y')
            generic| ro | read_only | SELECT set_config('a', 'b', false)
            generic| ro | read_only | SELECT GET_LOCK('x', 1)
            """;

    // ordinary reads in each dialect pass (the parser knows them)
    static final String DIALECT_READS = """
            pg         | ro | ok:read r=public.t | SELECT a->>'k', a #>> '{a,b}' FROM t
            pg         | ro | ok:read r=public.t | SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC
            pg         | ro | ok:read r=public.t | SELECT count(*) FILTER (WHERE a > 1) FROM t
            pg         | ro | ok:read r=public.t | SELECT * FROM t TABLESAMPLE BERNOULLI (10)
            pg         | ro | ok:read r=public.t | SELECT * FROM t WHERE id = ANY(?)
            pg         | ro | ok:read            | WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r
            pg         | ro | ok:read r=public.t | SELECT a FROM t WINDOW w AS (PARTITION BY b) ORDER BY a
            pg         | ro | ok:read r=public.t | SELECT string_agg(a, ',' ORDER BY a) FROM t
            pg         | ro | ok:read r=public.t,public.u | SELECT * FROM t WHERE (a, b) IN (SELECT a, b FROM u)
            pg         | ro | ok:read r=public.t | SELECT * FROM t OFFSET 5 ROWS FETCH FIRST 10 ROWS ONLY
            pg         | ro | ok:read r=public.t1,public.t2 | SELECT * FROM t1 FULL OUTER JOIN t2 ON t1.a = t2.a
            pg         | ro | ok:read r=public.t | SELECT * FROM t GROUP BY ROLLUP (a, b)
            pg         | ro | ok:read            | SELECT U&'\\0041', b'101', x'FF', E'\\n'
            pg         | ro | ok:read r=public.t | SELECT now() AT TIME ZONE 'UTC', interval '1 day' FROM t
            mysql      | ro | ok:read r=shop.t   | SELECT * FROM t WHERE a = 'it''s' AND b = "dq"
            mysql      | ro | ok:read r=shop.t   | SELECT SQL_CALC_FOUND_ROWS * FROM t USE INDEX (i)
            mysql      | ro | ok:read r=shop.t,shop.u | SELECT * FROM t STRAIGHT_JOIN u ON t.a = u.a
            mysql      | ro | ok:read r=shop.t   | SELECT GROUP_CONCAT(a SEPARATOR ',') FROM t GROUP BY b WITH ROLLUP
            mysql      | ro | ok:read r=shop.t   | SELECT j->>'$.a', JSON_EXTRACT(j, '$.b') FROM t LIMIT 5, 10
            mysql      | ro | ok:read r=db.t     | SELECT * FROM `db`.`t`
            mysql      | ro | ok:read r=shop.t   | SELECT a FROM t WHERE MATCH(a) AGAINST ('x')
            mysql      | ro | ok:read            | SELECT _utf8mb4'x' COLLATE utf8mb4_bin
            mysql      | ro | ok:read r=shop.t   | TABLE t
            duckdb     | ro | ok:read r=memory.main.t | SELECT * EXCLUDE (a) FROM t
            duckdb     | ro | ok:read r=memory.main.t | SELECT a FROM t QUALIFY row_number() OVER (PARTITION BY b ORDER BY c) = 1
            duckdb     | ro | ok:read r=memory.main.t | SELECT a, count(*) FROM t GROUP BY ALL
            duckdb     | ro | ok:read r=memory.main.t1,memory.main.t2 | SELECT * FROM t1 ASOF JOIN t2 USING (ts)
            duckdb     | ro | ok:read            | SELECT [1, 2, 3] AS l, {'a': 1} AS s
            duckdb     | ro | ok:read            | SELECT list_transform([1, 2], x -> x + 1)
            duckdb     | ro | ok:read r=memory.main.t | PIVOT t ON a USING sum(b)
            clickhouse | ro | ok:read r=default.t | SELECT * FROM t FINAL
            clickhouse | ro | ok:read r=default.t | SELECT * FROM t ARRAY JOIN arr
            clickhouse | ro | ok:read r=default.t | SELECT * FROM t PREWHERE a = 1 LIMIT 1 BY a
            clickhouse | ro | ok:read r=default.t | SELECT * FROM t SETTINGS max_threads = 1
            clickhouse | ro | ok:read r=default.t | SELECT * FROM t FORMAT JSONEachRow
            clickhouse | ro | ok:read r=default.t,default.u | SELECT * FROM t GLOBAL ANY LEFT JOIN u USING (a)
            clickhouse | ro | ok:read            | SELECT arrayMap(x -> x * 2, [1, 2])
            trino      | ro | ok:read r=hive.web.clicks | SELECT approx_distinct(a) FROM clicks
            trino      | ro | ok:read r=hive.web.t | SELECT * FROM t FOR TIMESTAMP AS OF TIMESTAMP '2024-01-01 00:00:00'
            trino      | ro | ok:read r=hive.web.t | SELECT a FROM t OFFSET 1 LIMIT 2
            sqlite     | ro | ok:read r=main.t   | SELECT * FROM [t]
            sqlite     | ro | ok:read r=main.t   | SELECT json_extract(j, '$.a'), typeof(a), printf('%d', a) FROM t
            generic    | ro | ok:read r=t        | SELECT * FROM t
            generic    | ro | ok:read r=t        | SELECT "Col", 'it''s' FROM t WHERE c = ? -- done
            generic    | ro | sql_not_parseable  | SELECT `b` FROM t
            # the generic family does not know its server's quoting: text that reads differently under some family's
            # rules is refused (here MySQL would read FROM secret as code, the ANSI reading as a literal)
            generic    | ro t=customer | sql_not_parseable | SELECT 'a\\', ' FROM secret -- '
            generic    | ro | sql_not_parseable | SELECT a FROM t # comment
            generic    | ro | sql_not_parseable | SELECT $$x$$
            generic    | ro | sql_not_parseable | SELECT 1 --1
            """;

    // SQL the parser cannot read: refused for read-only callers (fail closed), with the reason
    static final String UNPARSEABLE = """
            pg     | ro | sql_not_parseable | SELECT * FROM WHERE
            pg     | ro | sql_not_parseable | SELECT (1
            pg     | ro | sql_not_parseable | SELECT 1)
            mysql  | ro | sql_not_parseable | SELECT * FROM t LOCK IN SHARE MODE
            sqlite | ro | sql_not_parseable | SELECT * FROM t WHERE a GLOB 'x*'
            clickhouse | ro | sql_not_parseable | WITH 1 AS x SELECT x
            mysql  | ro | sql_not_parseable | DESC ANALYZE DELETE FROM t
            pg     | ro | sql_not_parseable | SELECT 1 FROM t WHERE a = 1 \\
            pg     | ro | sql_not_parseable | SELECT (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
            pg     | rw | ok:other | FROBNICATE t
            pg     | rw t=t | sql_not_parseable | FROBNICATE t
            pg     | ro | sql_not_parseable | FROBNICATE t
            """;

    // issue 12, class 1: functions that run SQL text or reach beyond the statement; refused for every caller (what
    // they run escapes every other check), whatever the wrapper, the qualifier or the quoting
    static final String SQL_TEXT_FUNCTIONS = """
            pg     | ro t=sec_people | read_only | SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, quote_literal(token)::tsquery FROM sec_other.secret')::text
            pg     | ro | read_only | SELECT ts_rewrite('a'::tsquery, 'SELECT pg_read_file(''/etc/passwd'')::tsquery, ''b''::tsquery')
            pg     | ro | read_only | SELECT pg_catalog.ts_rewrite('a'::tsquery, 'SELECT 1')
            pg     | ro | read_only | SELECT "ts_rewrite"('a'::tsquery, 'SELECT 1')
            pg     | ro | read_only | SELECT * FROM sec_people WHERE ts_rewrite('a'::tsquery, 'SELECT pg_advisory_lock(1)') IS NULL
            pg     | rw | write_op_not_allowed | SELECT ts_rewrite('a'::tsquery, 'SELECT pg_terminate_backend(1)')
            pg     | rw ops=insert t=mine | write_op_not_allowed | INSERT INTO mine SELECT ts_rewrite('a'::tsquery, 'SELECT token::tsquery, ''b''::tsquery FROM sec_other.secret')::text
            pg     | rw | write_op_not_allowed | SELECT query_to_xml('SELECT setseed(0.5)', true, false, '')
            pg     | rw | write_op_not_allowed | SELECT * FROM ts_stat('SELECT v FROM t')
            pg     | rw | write_op_not_allowed | SELECT cursor_to_xml('c', 1, true, false, '')
            pg     | rw | write_op_not_allowed | SELECT database_to_xml(true, false, '')
            duckdb | rw | write_op_not_allowed | SELECT * FROM query('SELECT 1')
            duckdb | rw | write_op_not_allowed | SELECT json_execute_serialized_sql('x')
            clickhouse | ro | read_only | SELECT joinGet('j', 'v', 1)
            trino  | ro | read_only | SELECT * FROM TABLE(pg.system.query(query => 'SELECT 1'))
            generic| rw | write_op_not_allowed | SELECT ts_rewrite('a', 'SELECT 1')
            """;

    // issue 12, class 1: callers with a table allow-list (or masks) may call only functions that compute from their
    // arguments, per the engine's own catalogue: everything else fails closed, naming the function
    static final String FUNCTION_ALLOW_LIST = """
            pg     | ro t=customer | ok:read r=public.customer | SELECT lower(name), length(name), coalesce(a, 0), now() FROM customer
            pg     | ro t=customer | ok:read r=public.customer | SELECT count(*), sum(a), string_agg(name, ',') FROM customer
            pg     | ro t=customer | ok:read r=public.customer | SELECT pg_catalog.upper(name) FROM customer
            pg     | ro t=customer | function_not_allowed | SELECT pg_relation_size('sec_other.secret')
            pg     | ro t=customer | function_not_allowed | SELECT has_table_privilege('sec_other.secret', 'select')
            pg     | ro t=customer | function_not_allowed | SELECT current_setting('data_directory')
            pg     | ro t=customer | function_not_allowed | SELECT to_regclass('sec_other.secret')
            pg     | ro t=customer | function_not_allowed | SELECT pg_get_viewdef('v')
            pg     | ro t=customer | function_not_allowed | SELECT obj_description(1)
            pg     | ro t=customer | function_not_allowed | SELECT my_udf(name) FROM customer
            pg     | ro t=customer | function_not_allowed | SELECT public.lower(name) FROM customer
            pg     | ro t=customer | function_not_allowed | SELECT 'sec_other.secret'::regclass
            pg     | ro t=customer | function_not_allowed | SELECT CAST('sec_other.secret' AS regclass)
            pg     | ro t=customer | function_not_allowed | SELECT 'x'::pg_catalog.regclass
            pg     | ro t=customer fn=my_udf | ok:read r=public.customer | SELECT my_udf(name) FROM customer
            pg     | ro t=customer fn=util.my_udf | ok:read r=public.customer | SELECT util.my_udf(name) FROM customer
            pg     | ro t=customer fn=util.my_udf | function_not_allowed | SELECT other.my_udf(name) FROM customer
            pg     | ro t=customer fn=my_udf | function_not_allowed | SELECT evil.my_udf(name) FROM customer
            pg     | ro | ok:read r=public.customer | SELECT my_udf(name), pg_relation_size('customer') FROM customer
            mysql  | ro t=customer | function_not_allowed | SELECT shop.my_func(1) FROM customer
            """;

    // issue 12, class 2: what would outlive the call in the pooled session is refused for every caller, writers too
    static final String SESSION_STATE_EVERY_CALLER = """
            pg     | ro | read_only | SELECT setseed(0.42)
            pg     | ro | read_only | SELECT pg_catalog.setseed(0.42)
            pg     | rw | write_op_not_allowed | SELECT setseed(0.42)
            pg     | rw | write_op_not_allowed | SELECT set_config('search_path', 'x', false)
            pg     | rw | write_op_not_allowed | SELECT pg_advisory_lock(1)
            pg     | rw | write_op_not_allowed | SELECT pg_terminate_backend(42)
            pg     | ro | read_only | SELECT lastval()
            pg     | rw | ok:ddl | CREATE TEMP TABLE x (a int)
            mysql  | ro | read_only | SELECT LAST_INSERT_ID(424242)
            mysql  | rw | write_op_not_allowed | SELECT LAST_INSERT_ID(424242)
            mysql  | rw | write_op_not_allowed | SELECT GET_LOCK('x', 0)
            mysql  | rw | write_op_not_allowed | SELECT @x := 1
            mysql  | rw | write_op_not_allowed | UPDATE t SET a = (@x := a + 1)
            mysql  | rw | write_op_not_allowed | CREATE TEMPORARY TABLE x (a int)
            mysql  | rw | ok:write | INSERT INTO t (a) VALUES (1)
            duckdb | ro | read_only | SELECT setseed(0.42)
            duckdb | rw | write_op_not_allowed | CREATE TEMP TABLE x (a int)
            duckdb | rw | write_op_not_allowed | SELECT set_variable('x', 1)
            mysql  | ro | read_only | SELECT @x
            mysql  | ro | read_only | SELECT @@rand_seed1
            mysql  | rw | write_op_not_allowed | INSERT INTO t (a) VALUES (@x)
            mysql  | ro admin | ok:read | SELECT @x, @@session.sql_mode
            mysql  | ro | read_only | SELECT FOUND_ROWS()
            mysql  | rw | write_op_not_allowed | SELECT PREVIOUS VALUE FOR s
            mysql  | ro | read_only | SHOW PROCESSLIST
            mysql  | ro | read_only | SHOW FULL PROCESSLIST
            mysql  | ro admin | ok:read | SHOW FULL PROCESSLIST
            mysql  | ro | table_not_allowed | SELECT info FROM information_schema.PROCESSLIST
            mysql  | ro | table_not_allowed | SELECT * FROM performance_schema.events_statements_history
            mysql  | ro admin | ok:read r=information_schema.processlist | SELECT info FROM information_schema.PROCESSLIST
            pg     | ro | table_not_allowed | SELECT query FROM pg_stat_activity
            pg     | ro | table_not_allowed | SELECT query FROM pg_catalog.pg_stat_activity
            pg     | ro | table_not_allowed | SELECT query FROM public.pg_stat_statements
            pg     | ro | table_not_allowed | SELECT * FROM pg_stat_get_activity(NULL)
            pg     | ro admin | ok:read r=pg_catalog.pg_stat_activity | SELECT query FROM pg_stat_activity
            clickhouse | ro | table_not_allowed | SELECT query FROM system.processes
            clickhouse | ro | table_not_allowed | SELECT query FROM system.query_log
            trino  | ro | table_not_allowed | SELECT query FROM system.runtime.queries
            """;

    // issue 12, class 3: where servers of one family read a text differently, the guard refuses it rather than pick
    // a reading (ClickHouse 18.16 ends a comment at the first */; a PostgreSQL server may read '...\' as an escape)
    static final String LEXICAL_DISAGREEMENT = """
            clickhouse | ro t=sec_people | sql_not_parseable | SELECT name FROM sec_people /* /* */ UNION ALL SELECT token FROM sec_other.secret -- */
            clickhouse | ro | sql_not_parseable | SELECT 1 /* /* */ , 2 -- */
            clickhouse | ro | sql_not_parseable | SELECT 1 /* a /* b */ c */
            clickhouse | ro | ok:read | SELECT 1 /* a */ , 2 /* b */
            clickhouse | ro | ok:read | SELECT '/* x' AS a, 2 -- */
            pg         | ro t=sec_people | sql_not_parseable | SELECT name FROM sec_people WHERE name = 'a\\' UNION SELECT token FROM sec_other.secret --'
            pg         | ro | ok:read | SELECT E'a\\'' AS x
            pg         | ro | ok:read | SELECT 'a\\b' AS x
            pg         | ro | ok:read | SELECT '/* x */' AS x /* a /* nested */ b */
            """;

    // issue 12, class 4: a caller with masks may not read the engine's catalogues and statistics, nor run SHOW
    static final String MASKED_CALLERS = """
            pg         | ro mask=people.ssn | table_not_allowed | SELECT * FROM pg_stats WHERE tablename = 'people'
            pg         | ro mask=people.ssn | table_not_allowed | SELECT * FROM pg_catalog.pg_statistic
            pg         | ro mask=people.ssn | table_not_allowed | SELECT * FROM information_schema.columns
            pg         | ro mask=people.ssn | ok:read r=public.orders | SELECT total FROM orders
            pg         | ro mask=people.ssn | function_not_allowed | SELECT pg_relation_size('people')
            mysql      | ro mask=people.ssn | table_not_allowed | SELECT * FROM mysql.column_stats
            mysql      | ro mask=people.ssn | table_not_allowed | SELECT * FROM information_schema.COLUMN_STATISTICS
            mysql      | ro mask=people.ssn | table_not_allowed | SHOW COLUMNS FROM people
            clickhouse | ro mask=people.ssn | table_not_allowed | SELECT * FROM system.columns
            clickhouse | ro mask=people.ssn | table_not_allowed | SELECT * FROM system.parts
            trino      | ro mask=people.ssn | table_not_allowed | SELECT * FROM system.runtime.queries
            trino      | ro mask=people.ssn | table_not_allowed | SELECT * FROM information_schema.columns
            duckdb     | ro mask=people.ssn | table_not_allowed | SELECT * FROM duckdb_columns
            duckdb     | ro mask=people.ssn | table_not_allowed | SELECT * FROM information_schema.columns
            """;
}
