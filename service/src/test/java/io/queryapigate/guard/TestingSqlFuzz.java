package io.queryapigate.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * SQL generators for the guard's differential fuzzer ({@code GuardDifferentialFuzzIT}): a grammar of jqwik
 * arbitraries (SELECT, WITH, set operations, subqueries, pure and side-effecting function calls, locking clauses,
 * INTO, DML/DDL/DCL, session and transaction control, EXPLAIN/SHOW, the dialect's own syntax) over the scratch
 * tables {@code t(id, a, b)}, {@code u(id, a, c)}, {@code customer(id, name, email, ssn)}, {@code secret(id, token)}
 * and the sequence {@code sq}; comments, quoting, keyword case and unicode at token boundaries; and mutations of
 * the guard's attack corpus (token swaps, deletions and duplications, inserted {@code ;}, keywords and comments,
 * case changes, unicode look-alikes, nesting).
 */
final class TestingSqlFuzz {
    /** The database a statement is generated for. */
    enum Db { POSTGRES, MARIADB }

    /** One generated statement and the generator that made it. */
    record Fuzz(String category, String sql) {}

    private static final int MAX_DEPTH = 2;
    private final Db db;
    private final boolean pg;

    TestingSqlFuzz(Db db) {
        this.db = db;
        this.pg = db == Db.POSTGRES;
    }

    /** Grammar-made statements (about four in five) and corpus mutations. */
    Arbitrary<Fuzz> all(List<String> corpus) {
        return Arbitraries.frequencyOf(Tuple.of(4, grammar()), Tuple.of(1, mutations(corpus)));
    }

    Arbitrary<Fuzz> grammar() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, tagged("select", select(MAX_DEPTH))),
                Tuple.of(3, tagged("with", with())),
                Tuple.of(3, tagged("set-operation", setOperation(MAX_DEPTH))),
                Tuple.of(3, tagged("subquery", subquerySelect())),
                Tuple.of(4, tagged("side-effect-function", effectSelect())),
                Tuple.of(2, tagged("locking", locking())),
                Tuple.of(2, tagged("into", into())),
                Tuple.of(3, tagged("dml", dml())),
                Tuple.of(2, tagged("ddl", ddl())),
                Tuple.of(1, tagged("dcl", dcl())),
                Tuple.of(2, tagged("session", session())),
                Tuple.of(2, tagged("explain-show", explainShow())),
                Tuple.of(3, tagged("dialect-syntax", dialectSyntax())),
                Tuple.of(3, Combinators.combine(select(1), Arbitraries.longs())
                        .as((s, seed) -> new Fuzz("comments-quoting", decorate(s, new Random(seed), 0.9)))));
    }

    private Arbitrary<Fuzz> tagged(String category, Arbitrary<String> sql) {
        return Combinators.combine(sql, Arbitraries.longs(), Arbitraries.integers().between(0, 9))
                .as((s, seed, n) -> new Fuzz(category, n < 3 ? decorate(s, new Random(seed), 0.3) : s));
    }

    // ------------------------------------------------------------------------------------------------ names

    private Arbitrary<String> name(String n) {
        return Arbitraries.frequency(Tuple.of(5, n), Tuple.of(1, quote(n)));
    }

    private String quote(String n) {
        return pg ? "\"" + n + "\"" : "`" + n + "`";
    }

    private Arbitrary<String> column(String table, String... columns) {
        return Combinators.combine(name(table), Arbitraries.of(columns).flatMap(this::name))
                .as((t, c) -> t + "." + c);
    }

    private Arbitrary<String> tCol() {
        return column("t", "a", "id", "b");
    }

    private Arbitrary<String> tInt() {
        return column("t", "a", "id");
    }

    // ------------------------------------------------------------------------------------------------ expressions

    private static final List<String> PURE = List.of("lower(t.b)", "upper(t.b)", "coalesce(t.a, 0)", "abs(t.a)",
            "length(t.b)", "round(2.5)", "concat(t.b, 'x')", "md5(t.b)", "greatest(t.a, 1)", "current_date",
            "substring(t.b, 1, 2)", "replace(t.b, 'a', 'b')", "nullif(t.a, 1)", "mod(t.a, 3)", "trim(t.b)",
            "CASE WHEN t.a > 1 THEN 'big' ELSE 'small' END", "t.a + 1", "t.a * 2", "CAST(t.a AS CHAR(10))",
            "char_length(t.b)", "lpad(t.b, 5, '*')", "position('a' IN t.b)", "now()", "current_user");

    private static final List<String> LITERALS = List.of("1", "42", "'x'", "NULL", "2.5", "'a;b'",
            "'DELETE FROM t'", "'--'", "'/*'", "'it''s'", "'; DROP TABLE t; --'", "TRUE", "-1", "'update'");

    /** Calls with side effects, session state, files or dynamic SQL: what the guard refuses or must watch. */
    List<String> effects() {
        return pg ? List.of("set_config('qag.fz', '1', false)", "set_config('search_path', 'public', true)",
                "nextval('sq')", "setval('sq', 5)", "currval('sq')", "lastval()", "pg_advisory_lock(7)",
                "pg_try_advisory_lock(7)", "pg_advisory_xact_lock(7)", "pg_advisory_unlock_all()",
                "pg_notify('qagfz', 'x')", "txid_current()", "pg_current_xact_id()", "pg_read_file('/etc/hostname')",
                "pg_ls_dir('.')", "lo_import('/etc/hostname')", "lo_create(0)", "pg_sleep(0)",
                "pg_cancel_backend(0)", "pg_terminate_backend(0)", "pg_reload_conf()", "pg_stat_reset()",
                "query_to_xml('SELECT 1', true, true, '')", "query_to_xml('DELETE FROM t', true, true, '')",
                "setseed(0.5)", "random()", "pg_backend_pid()", "current_setting('search_path')",
                "txid_current_if_assigned()", "pg_export_snapshot()", "pg_switch_wal()",
                "pg_create_restore_point('qagfz')", "pg_logical_emit_message(true, 'qagfz', 'x')",
                "pg_stat_reset_shared('bgwriter')", "pg_drop_replication_slot('qagfz')",
                "pg_catalog.set_config('qag.fz', '2', false)", "PG_ADVISORY_LOCK(8)", "\"nextval\"('sq')",
                "pg_stat_file('.')", "pg_relation_size('t')", "to_regclass('t')", "version()",
                "pg_try_advisory_xact_lock(9)", "pg_is_in_recovery()", "inet_server_addr()")
                : List.of("GET_LOCK('qagfz', 0)", "RELEASE_LOCK('qagfz')", "RELEASE_ALL_LOCKS()",
                "IS_FREE_LOCK('qagfz')", "LAST_INSERT_ID(5)", "LAST_INSERT_ID()", "NEXTVAL(sq)",
                "NEXT VALUE FOR sq", "SETVAL(sq, 5)", "LASTVAL(sq)", "PREVIOUS VALUE FOR sq",
                "LOAD_FILE('/etc/hostname')", "SLEEP(0)", "BENCHMARK(1, 1)", "@x := 1", "@x", "@@autocommit",
                "CONNECTION_ID()", "MASTER_POS_WAIT('qagfz', 1, 0)", "RAND(5)", "UUID()", "FOUND_ROWS()",
                "ROW_COUNT()", "VERSION()", "DATABASE()", "SYSDATE()", "get_lock('qagfz', 0)",
                "`GET_LOCK`('qagfz', 0)", "IS_USED_LOCK('qagfz')", "@@session.sql_mode", "@v := t.a",
                "MASTER_GTID_WAIT('0-1-1', 0)", "sys_exec('id')", "@@global.read_only");
    }

    private Arbitrary<String> expr(int depth) {
        List<Tuple.Tuple2<Integer, Arbitrary<? extends String>>> choices = new ArrayList<>();
        choices.add(Tuple.of(5, tCol()));
        choices.add(Tuple.of(3, Arbitraries.of(LITERALS)));
        choices.add(Tuple.of(3, Arbitraries.of(PURE)));
        choices.add(Tuple.of(1, Arbitraries.of(effects())));
        choices.add(Tuple.of(1, Arbitraries.of(pg ? List.of("t.a::text", "t.b || 'x'", "ARRAY[t.a, 1]",
                "t.b ILIKE 'x%'", "row_number() OVER (ORDER BY t.a)") : List.of("t.a DIV 2", "IF(t.a > 1, 1, 0)",
                "t.b REGEXP 'x'", "0x41", "_utf8mb4'x'", "t.a XOR 1"))));
        if (depth > 0) {
            choices.add(Tuple.of(2, uSubquery(depth - 1).map(s -> "( " + s + " LIMIT 1 )")));
            choices.add(Tuple.of(1, cond(depth - 1).map(c -> "CASE WHEN " + c + " THEN 1 ELSE 0 END")));
        }
        return Arbitraries.frequencyOf(choices.toArray(Tuple.Tuple2[]::new));
    }

    private Arbitrary<String> cond(int depth) {
        List<Tuple.Tuple2<Integer, Arbitrary<? extends String>>> choices = new ArrayList<>();
        choices.add(Tuple.of(4, Combinators.combine(tInt(), Arbitraries.of("=", ">", "<", "<>", ">="),
                Arbitraries.of("1", "2", "0")).as((c, op, v) -> c + " " + op + " " + v)));
        choices.add(Tuple.of(2, Arbitraries.of("t.b LIKE 'x%'", "t.a IS NULL", "t.a BETWEEN 1 AND 5",
                "t.id IN ( 1 , 2 )", "t.b = 'it''s'", "t.b = 'DROP TABLE t'", "t.b IS NOT NULL")));
        if (depth > 0) {
            choices.add(Tuple.of(2, uSubquery(depth - 1).map(s -> "EXISTS ( " + s + " )")));
            choices.add(Tuple.of(2, uSubquery(depth - 1).map(s -> "t.a IN ( " + s + " )")));
            choices.add(Tuple.of(1, cond(depth - 1).map(c -> "NOT ( " + c + " )")));
            choices.add(Tuple.of(2, Combinators.combine(cond(depth - 1), Arbitraries.of("AND", "OR"),
                    cond(depth - 1)).as((a, op, b) -> a + " " + op + " " + b)));
            choices.add(Tuple.of(1, expr(depth - 1).map(e -> "coalesce(" + e + ", 0) IS NOT NULL")));
        }
        return Arbitraries.frequencyOf(choices.toArray(Tuple.Tuple2[]::new));
    }

    /** A one-column SELECT over {@code u}: its column, an aggregate or a side-effecting call. */
    private Arbitrary<String> uSubquery(int depth) {
        Arbitrary<String> item = Arbitraries.frequencyOf(
                Tuple.of(4, column("u", "a", "id")),
                Tuple.of(2, Arbitraries.of("max(u.a)", "count(*)", "min(u.id)")),
                Tuple.of(1, Arbitraries.of(effects())));
        Arbitrary<String> where = Arbitraries.of("", " WHERE u.id = t.id", " WHERE u.a > 0");
        return Combinators.combine(item, name("u"), where).as((i, u, w) -> "SELECT " + i + " FROM " + u + w);
    }

    // ------------------------------------------------------------------------------------------------ statements

    Arbitrary<String> select(int depth) {
        Arbitrary<String> items = expr(depth).list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(" , ", l));
        Arbitrary<String> where = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just("")),
                Tuple.of(2, cond(depth).map(c -> " WHERE " + c)));
        Arbitrary<String> tail = Arbitraries.of("", "", " ORDER BY 1", " LIMIT 3", " ORDER BY 1 DESC LIMIT 1",
                " LIMIT 1 OFFSET 1");
        Arbitrary<String> plain = Combinators.combine(Arbitraries.of("", "", "DISTINCT ", "ALL "), items, from(depth),
                where, tail).as((d, i, f, w, ta) -> "SELECT " + d + i + " FROM " + f + w + ta);
        Arbitrary<String> grouped = Combinators.combine(tCol(), Arbitraries.of("count(*)", "max(t.a)", "sum(t.id)"),
                Arbitraries.of("", " HAVING count(*) > 0")).as((c, agg, h) -> "SELECT " + c + " , " + agg
                + " FROM t GROUP BY " + c + h);
        Arbitrary<String> catalog = Arbitraries.of(pg ? List.of(
                "SELECT table_name FROM information_schema.tables LIMIT 1",
                "SELECT relname FROM pg_catalog.pg_class LIMIT 1", "SELECT rolname FROM pg_authid",
                "SELECT usename FROM pg_user", "SELECT * FROM pg_stat_activity", "SELECT * FROM pg_shadow")
                : List.of("SELECT table_name FROM information_schema.tables LIMIT 1", "SELECT user FROM mysql.user",
                "SELECT * FROM information_schema.processlist", "SELECT * FROM performance_schema.threads"));
        return Arbitraries.frequencyOf(Tuple.of(6, plain), Tuple.of(1, grouped), Tuple.of(1, catalog),
                Tuple.of(1, Arbitraries.of(effects()).map(e -> "SELECT " + e)));
    }

    private Arbitrary<String> from(int depth) {
        List<Tuple.Tuple2<Integer, Arbitrary<? extends String>>> choices = new ArrayList<>();
        choices.add(Tuple.of(5, name("t")));
        choices.add(Tuple.of(2, Combinators.combine(Arbitraries.of("JOIN", "LEFT JOIN", "INNER JOIN"), name("u"))
                .as((j, u) -> "t " + j + " " + u + " ON t.id = u.id")));
        choices.add(Tuple.of(1, Arbitraries.just("t , u")));
        if (depth > 0) {
            choices.add(Tuple.of(1, uSubquery(depth - 1).map(s -> "t JOIN ( " + s.replaceFirst("SELECT ",
                    "SELECT u.id AS uid , ").replace(" WHERE u.id = t.id", "") + " ) AS d ON d.uid = t.id")));
        }
        return Arbitraries.frequencyOf(choices.toArray(Tuple.Tuple2[]::new));
    }

    private Arbitrary<String> intSelect(int depth) {
        Arbitrary<String> item = Arbitraries.frequencyOf(Tuple.of(4, tInt()),
                Tuple.of(2, Arbitraries.of("length(t.b)", "abs(t.a)", "t.a + 1", "count(*)")),
                Tuple.of(1, Arbitraries.of(pg ? List.of("nextval('sq')", "pg_backend_pid()", "txid_current()",
                        "lo_create(0)") : List.of("GET_LOCK('qagfz', 0)", "NEXTVAL(sq)", "LAST_INSERT_ID(5)",
                        "SLEEP(0)", "@x := 1"))));
        Arbitrary<String> where = depth > 0 ? Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just("")),
                Tuple.of(1, cond(depth - 1).map(c -> " WHERE " + c))) : Arbitraries.just("");
        return Combinators.combine(item, where).as((i, w) -> "SELECT " + i + " FROM t" + w);
    }

    private Arbitrary<String> setOperation(int depth) {
        Arbitrary<String> op = Arbitraries.of("UNION", "UNION ALL", "INTERSECT", "EXCEPT", "UNION DISTINCT");
        Arbitrary<String> operand = Arbitraries.frequencyOf(Tuple.of(3, intSelect(depth)),
                Tuple.of(1, intSelect(depth).map(s -> "( " + s + " )")),
                Tuple.of(1, Arbitraries.of("SELECT u.a FROM u", "SELECT 1", "VALUES ( 1 )")));
        return Combinators.combine(operand, op, operand, Arbitraries.of("", " ORDER BY 1", " LIMIT 2"))
                .as((a, o, b, tail) -> a + " " + o + " " + b + tail);
    }

    private Arbitrary<String> subquerySelect() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, select(MAX_DEPTH).map(s -> "SELECT * FROM ( " + s + " ) AS z")),
                Tuple.of(2, cond(MAX_DEPTH).map(c -> "SELECT t.id FROM t WHERE " + c)),
                Tuple.of(1, select(1).map(s -> "SELECT ( SELECT count(*) FROM ( " + s + " ) AS y ) AS n")),
                Tuple.of(1, uSubquery(1).map(s -> "SELECT * FROM t WHERE t.a = ANY ( " + s + " )")));
    }

    private Arbitrary<String> with() {
        List<Tuple.Tuple2<Integer, Arbitrary<? extends String>>> choices = new ArrayList<>();
        choices.add(Tuple.of(3, select(1).map(s -> "WITH x AS ( " + s + " ) SELECT * FROM x")));
        choices.add(Tuple.of(1, Arbitraries.of(
                "WITH RECURSIVE r ( n ) AS ( SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3 ) SELECT n FROM r",
                "WITH x AS ( SELECT u.id , u.a FROM u ) , y AS ( SELECT * FROM x ) SELECT * FROM y",
                "WITH x AS ( SELECT 1 AS n ) INSERT INTO t ( id ) SELECT n FROM x",
                "WITH x AS ( SELECT 1 AS n ) UPDATE t SET a = 1 WHERE t.id IN ( SELECT n FROM x )",
                "WITH x AS ( SELECT 1 AS n ) DELETE FROM t WHERE t.id IN ( SELECT n FROM x )",
                "WITH x AS ( SELECT * FROM t FOR UPDATE ) SELECT * FROM x")));
        choices.add(Tuple.of(1, intSelect(1).map(s -> "WITH x AS ( " + s + " ) SELECT * FROM x , u")));
        if (pg) {
            choices.add(Tuple.of(2, Arbitraries.of("DELETE FROM t", "UPDATE t SET a = 2",
                    "INSERT INTO t ( id ) VALUES ( 9 )", "DELETE FROM u WHERE u.a = 1")
                    .map(d -> "WITH d AS ( " + d + " RETURNING * ) SELECT * FROM d")));
            choices.add(Tuple.of(1, select(1).map(s -> "WITH x AS MATERIALIZED ( " + s + " ) SELECT * FROM x")));
        }
        return Arbitraries.frequencyOf(choices.toArray(Tuple.Tuple2[]::new));
    }

    private Arbitrary<String> effectSelect() {
        Arbitrary<String> fn = Arbitraries.of(effects());
        return Arbitraries.frequencyOf(
                Tuple.of(3, fn.map(f -> "SELECT " + f)),
                Tuple.of(2, Combinators.combine(fn, tCol()).as((f, c) -> "SELECT " + c + " , " + f + " FROM t")),
                Tuple.of(1, fn.map(f -> "SELECT t.id FROM t WHERE t.a = " + f)),
                Tuple.of(1, fn.map(f -> "SELECT * FROM t WHERE EXISTS ( SELECT " + f + " )")),
                Tuple.of(1, fn.map(f -> "SELECT count(*) FROM ( SELECT " + f + " AS v FROM u ) AS z")));
    }

    private Arbitrary<String> locking() {
        Arbitrary<String> clause = Arbitraries.of(pg ? List.of("FOR UPDATE", "FOR SHARE", "FOR NO KEY UPDATE",
                "FOR KEY SHARE", "FOR UPDATE NOWAIT", "FOR UPDATE SKIP LOCKED", "FOR READ ONLY", "FOR UPDATE OF t")
                : List.of("FOR UPDATE", "LOCK IN SHARE MODE", "FOR UPDATE NOWAIT", "FOR UPDATE WAIT 1",
                "FOR UPDATE SKIP LOCKED", "FOR SHARE"));
        Arbitrary<String> base = Arbitraries.of("SELECT t.a FROM t", "SELECT * FROM t WHERE t.id = 1",
                "SELECT t.a FROM t JOIN u ON t.id = u.id");
        return Arbitraries.frequencyOf(
                Tuple.of(3, Combinators.combine(base, clause).as((b, c) -> b + " " + c)),
                Tuple.of(1, clause.map(c -> "SELECT * FROM ( SELECT t.a FROM t " + c + " ) AS z")),
                Tuple.of(1, clause.map(c -> "SELECT t.a FROM t WHERE t.id IN ( SELECT u.id FROM u " + c + " )")));
    }

    private Arbitrary<String> into() {
        return Arbitraries.of(pg ? List.of("SELECT * INTO x FROM t", "SELECT t.a INTO TEMP x FROM t",
                "SELECT t.a INTO UNLOGGED x FROM t", "SELECT t.a INTO TEMPORARY TABLE x FROM t",
                "SELECT 1 INTO x", "SELECT t.a AS into_x FROM t", "SELECT 'INTO x' FROM t")
                : List.of("SELECT t.a INTO @v FROM t LIMIT 1", "SELECT t.a FROM t LIMIT 1 INTO @v",
                "SELECT t.a INTO OUTFILE '/tmp/qag-fz-out' FROM t", "SELECT t.a FROM t INTO DUMPFILE '/tmp/qag-fz-d'",
                "SELECT 1 INTO @x", "SELECT t.a AS into_x FROM t", "SELECT 'INTO @x' FROM t",
                "SELECT t.a , t.b INTO @v , @x FROM t LIMIT 1"));
    }

    private Arbitrary<String> dml() {
        List<String> common = List.of("INSERT INTO t ( id , a ) VALUES ( 9 , 9 )", "INSERT INTO t SELECT * FROM t",
                "UPDATE t SET a = 1 WHERE t.id = 1", "UPDATE t SET b = 'x'", "DELETE FROM t WHERE t.a = 1",
                "DELETE FROM t", "EXPLAIN DELETE FROM t", "INSERT INTO t ( id ) SELECT u.id FROM u",
                "UPDATE t SET a = ( SELECT max(u.a) FROM u )", "DELETE FROM t WHERE t.id IN ( SELECT u.id FROM u )");
        List<String> own = pg ? List.of("MERGE INTO t USING u ON t.id = u.id WHEN MATCHED THEN UPDATE SET a = u.a",
                "INSERT INTO t ( id ) VALUES ( 1 ) ON CONFLICT DO NOTHING", "UPDATE t SET a = 2 RETURNING *",
                "DELETE FROM t RETURNING id", "EXPLAIN ANALYZE DELETE FROM t",
                "EXPLAIN ( ANALYZE , BUFFERS ) UPDATE t SET a = 1", "COPY t TO STDOUT", "COPY t FROM STDIN",
                "COPY ( SELECT 1 ) TO '/tmp/qag-fz-copy'", "SELECT * FROM t WHERE t.id IN ( WITH d AS ( DELETE FROM"
                + " u RETURNING id ) SELECT id FROM d )", "UPDATE ONLY t SET a = 3", "DELETE FROM ONLY t USING u"
                + " WHERE t.id = u.id")
                : List.of("REPLACE INTO t VALUES ( 1 , 2 , 'x' )", "INSERT IGNORE INTO t ( id ) VALUES ( 9 )",
                "INSERT INTO t ( id ) VALUES ( 1 ) ON DUPLICATE KEY UPDATE a = 1",
                "UPDATE t JOIN u ON t.id = u.id SET t.a = u.a", "DELETE t FROM t JOIN u ON t.id = u.id",
                "DELETE FROM t ORDER BY id LIMIT 1", "LOAD DATA INFILE '/etc/hostname' INTO TABLE t",
                "ANALYZE DELETE FROM t", "INSERT INTO t SET id = 5", "INSERT DELAYED INTO t ( id ) VALUES ( 3 )",
                "UPDATE LOW_PRIORITY t SET a = 1", "REPLACE t SET id = 1", "HANDLER t OPEN",
                "INSERT INTO t ( id ) VALUES ( 1 ) RETURNING id", "DELETE FROM t RETURNING id");
        return either(common, own);
    }

    private static Arbitrary<String> either(List<String> common, List<String> own) {
        List<String> all = new ArrayList<>(common);
        all.addAll(own);
        return Arbitraries.of(all);
    }

    private Arbitrary<String> ddl() {
        List<String> common = List.of("CREATE TABLE x ( a int )", "CREATE TEMPORARY TABLE x ( a int )",
                "CREATE TABLE x AS SELECT * FROM t", "DROP TABLE t", "DROP TABLE IF EXISTS nothere",
                "ALTER TABLE t ADD COLUMN z int", "TRUNCATE t", "TRUNCATE TABLE t", "CREATE INDEX i ON t ( a )",
                "CREATE VIEW v AS SELECT * FROM t", "CREATE SEQUENCE s2", "DROP SEQUENCE sq",
                "CREATE SCHEMA z", "CREATE DATABASE z", "ALTER TABLE t RENAME TO t2", "DROP VIEW IF EXISTS v");
        List<String> own = pg ? List.of("COMMENT ON TABLE t IS 'x'", "ANALYZE t", "VACUUM t", "REINDEX TABLE t",
                "CLUSTER t", "REFRESH MATERIALIZED VIEW v", "CREATE FUNCTION f ( ) RETURNS int AS 'SELECT 1' "
                + "LANGUAGE sql", "DO $$ BEGIN DELETE FROM t; END $$", "CREATE EXTENSION dblink",
                "SECURITY LABEL ON TABLE t IS 'x'", "CREATE TEMP VIEW v AS SELECT 1", "ALTER SEQUENCE sq RESTART",
                "IMPORT FOREIGN SCHEMA x FROM SERVER y INTO z", "CHECKPOINT", "LOAD 'auto_explain'")
                : List.of("RENAME TABLE t TO t2", "ANALYZE TABLE t", "OPTIMIZE TABLE t", "REPAIR TABLE t",
                "CHECK TABLE t", "CHECKSUM TABLE t", "CREATE PROCEDURE p ( ) SELECT 1", "FLUSH TABLES",
                "CREATE OR REPLACE TABLE x ( a int )", "ALTER SEQUENCE sq RESTART", "INSTALL SONAME 'x'",
                "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DELETE FROM t", "CREATE TRIGGER tr BEFORE INSERT ON t "
                + "FOR EACH ROW SET NEW.a = 1", "PURGE BINARY LOGS BEFORE NOW()", "CACHE INDEX t IN hot");
        return either(common, own);
    }

    private Arbitrary<String> dcl() {
        return Arbitraries.of(pg ? List.of("GRANT SELECT ON t TO PUBLIC", "REVOKE SELECT ON t FROM PUBLIC",
                "CREATE ROLE qag_fz_x", "ALTER ROLE CURRENT_USER SET work_mem = '1MB'", "SET ROLE NONE",
                "SET SESSION AUTHORIZATION DEFAULT", "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC",
                "REASSIGN OWNED BY CURRENT_USER TO test", "DROP OWNED BY CURRENT_USER", "GRANT pg_read_all_data TO "
                + "CURRENT_USER", "SET ROLE test")
                : List.of("GRANT SELECT ON t TO 'qag_fz_x'@'%'", "REVOKE SELECT ON t FROM 'qag_fz_x'@'%'",
                "CREATE USER 'qag_fz_x'@'%'", "SET PASSWORD = PASSWORD('x')", "FLUSH PRIVILEGES", "KILL 0",
                "SET ROLE NONE", "CREATE ROLE qag_fz_x", "ALTER USER CURRENT_USER() ACCOUNT LOCK",
                "GRANT ALL ON *.* TO CURRENT_USER()", "SET DEFAULT ROLE NONE", "SET GLOBAL read_only = 0"));
    }

    private Arbitrary<String> session() {
        List<String> common = List.of("BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "SAVEPOINT sp",
                "RELEASE SAVEPOINT sp", "SET TRANSACTION READ WRITE", "CALL p ( )", "EXECUTE p", "DEALLOCATE p",
                "COMMIT AND CHAIN", "ROLLBACK TO SAVEPOINT sp", "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        List<String> own = pg ? List.of("SET search_path = public", "SET LOCAL search_path = public", "RESET ALL",
                "LOCK TABLE t IN ACCESS SHARE MODE", "LOCK TABLE t", "PREPARE p AS SELECT 1", "LISTEN qagfz",
                "NOTIFY qagfz", "UNLISTEN *", "DISCARD ALL", "DECLARE c CURSOR FOR SELECT 1", "FETCH ALL c",
                "MOVE c", "CLOSE c", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE", "ABORT",
                "END", "SET statement_timeout = 0", "SET qag.fz = 'x'", "SET CONSTRAINTS ALL DEFERRED",
                "SET TIME ZONE 'UTC'", "PREPARE TRANSACTION 'qagfz'", "BEGIN READ WRITE", "SET default_transaction_read_only = off")
                : List.of("SET sql_mode = ''", "SET @x = 1", "SET NAMES utf8mb4", "LOCK TABLES t READ", "UNLOCK TABLES",
                "PREPARE p FROM 'SELECT 1'", "DO 1", "DO GET_LOCK('qagfz', 0)", "USE mysql", "XA START 'qagfz'",
                "SET SESSION TRANSACTION READ WRITE", "SET autocommit = 1", "HANDLER t READ FIRST",
                "SET STATEMENT max_statement_time = 1 FOR SELECT 1", "SET @@session.tx_read_only = 0",
                "DO SLEEP(0)", "SET STATEMENT sql_mode = '' FOR DELETE FROM t", "BEGIN NOT ATOMIC SELECT 1; END",
                "SET tx_read_only = 0", "LOCK TABLE t WRITE");
        return either(common, own);
    }

    private Arbitrary<String> explainShow() {
        Arbitrary<String> fixed = Arbitraries.of(pg ? List.of("SHOW search_path", "SHOW ALL", "TABLE t",
                "VALUES ( 1 ) , ( 2 )", "SHOW transaction_read_only", "EXPLAIN SELECT nextval('sq')",
                "EXPLAIN ANALYZE SELECT nextval('sq')", "EXPLAIN ( FORMAT JSON ) SELECT * FROM t",
                "EXPLAIN ANALYZE SELECT * FROM t FOR UPDATE", "EXPLAIN VERBOSE SELECT 1")
                : List.of("SHOW TABLES", "SHOW COLUMNS FROM t", "DESCRIBE t", "DESC t", "SHOW CREATE TABLE t",
                "SHOW VARIABLES LIKE 'sql%'", "SHOW GRANTS", "SHOW PROCESSLIST", "SHOW DATABASES",
                "SHOW STATUS LIKE 'x'", "EXPLAIN FORMAT=JSON SELECT * FROM t", "EXPLAIN EXTENDED SELECT 1",
                "SHOW WARNINGS", "SHOW INDEX FROM t", "SHOW TABLE STATUS", "EXPLAIN SELECT GET_LOCK('qagfz', 0)",
                "ANALYZE SELECT * FROM t", "ANALYZE FORMAT=JSON SELECT GET_LOCK('qagfz', 0)", "SHOW ENGINE INNODB STATUS",
                "SHOW MASTER STATUS", "HELP 'select'", "SHOW FULL PROCESSLIST", "SHOW CREATE USER CURRENT_USER()"));
        return Arbitraries.frequencyOf(Tuple.of(2, fixed),
                Tuple.of(2, Combinators.combine(Arbitraries.of("EXPLAIN ", "EXPLAIN ANALYZE ", pg ? "EXPLAIN ( ANALYZE ) "
                        : "ANALYZE "), select(1)).as((e, s) -> e + s)));
    }

    private Arbitrary<String> dialectSyntax() {
        return Arbitraries.of(pg ? List.of("SELECT t.a::text FROM t", "SELECT $$a;b$$", "SELECT $q$ DROP TABLE t $q$",
                "SELECT E'it\\'s'", "SELECT ARRAY[1, 2]", "SELECT DISTINCT ON ( t.a ) t.a , t.b FROM t ORDER BY t.a",
                "SELECT * FROM generate_series(1, 3)", "SELECT count(*) FILTER ( WHERE t.a > 1 ) FROM t",
                "SELECT * FROM t , LATERAL ( SELECT u.a FROM u WHERE u.id = t.id ) AS l", "SELECT 'a' || t.b FROM t",
                "SELECT t.a FROM t FETCH FIRST 1 ROWS ONLY", "SELECT jsonb_build_object('a', t.a) FROM t",
                "SELECT t.b ~ 'x' FROM t", "SELECT U&'\\0061'", "SELECT 'x' AS \"a;b\"", "SELECT t.a FROM ONLY t",
                "SELECT * FROM ROWS FROM ( generate_series(1, 2) ) AS g", "SELECT 'a'::regclass",
                "SELECT 't'::regclass::oid", "SELECT t.a FROM t WINDOW w AS ( ORDER BY t.a )",
                "SELECT (t.*)::text FROM t", "SELECT t FROM t", "SELECT * FROM t TABLESAMPLE SYSTEM ( 50 )",
                "SELECT t.a FROM t GROUP BY ROLLUP ( t.a )", "SELECT 1 /* nested /* ; DROP TABLE t */ */",
                "SELECT $fz$;$fz$ , 1", "SELECT B'101'", "SELECT X'1F'", "SELECT t.b COLLATE \"C\" FROM t",
                "SELECT jsonb_path_query('{}', '$')", "SELECT '{1,2}'::int[]", "SELECT t.a FROM t LIMIT ALL",
                "SELECT * FROM unnest(ARRAY[1, 2]) WITH ORDINALITY", "SELECT interval '1 day'",
                "SELECT xmlelement(name a, 'x')", "SELECT t.a FROM t ORDER BY t.a USING <")
                : List.of("SELECT `t`.`a` FROM `t`", "SELECT 'it\\'s'", "SELECT \"dq string\"",
                "SELECT t.a FROM t # c", "SELECT t.a FROM t -- c", "SELECT SQL_CALC_FOUND_ROWS t.a FROM t",
                "SELECT HIGH_PRIORITY t.a FROM t", "SELECT STRAIGHT_JOIN t.a FROM t JOIN u ON t.id = u.id",
                "SELECT t.a FROM t LIMIT 1 , 2", "SELECT /*! 1 */", "SELECT /*M! 1 */", "SELECT /*!99999 1 */ 2",
                "SELECT /*+ SET_VAR(sort_buffer_size = 16M) */ t.a FROM t", "SELECT t.a FROM t PROCEDURE ANALYSE()",
                "SELECT t.a FROM t FORCE INDEX ( PRIMARY )", "SELECT * FROM t NATURAL JOIN u",
                "SELECT b'1'", "SELECT X'41'", "VALUES ( 1 ) , ( 2 )", "SELECT JSON_OBJECT('a', t.a) FROM t",
                "SELECT t.a FROM t WINDOW w AS ( ORDER BY t.a )", "SELECT t.a FROM t LIMIT ROWS EXAMINED 10",
                "SELECT SQL_NO_CACHE t.a FROM t", "SELECT t.a FROM t USE INDEX ( PRIMARY )",
                "SELECT 'a' 'b'", "SELECT t.a FROM t WHERE t.b = \"x\"", "SELECT t.a FROM t ORDER BY t.a LIMIT 1",
                "SELECT `a;b` FROM ( SELECT 1 AS `a;b` ) AS z", "SELECT 1 FROM DUAL", "SELECT t.a FROM t IGNORE"
                + " INDEX ( PRIMARY )", "SELECT 1 /* ; DROP TABLE t */", "SELECT t.a FROM t WHERE t.b <=> NULL",
                "SELECT CONVERT(t.b USING utf8mb4) FROM t", "SELECT t.a FROM t GROUP BY t.a WITH ROLLUP",
                "SELECT 1 #; DROP TABLE t", "SELECT 1 --; DROP TABLE t", "SELECT t.a FROM t FOR UPDATE SKIP LOCKED",
                "SELECT JSON_EXTRACT('{}', '$')", "SELECT MATCH ( t.b ) AGAINST ( 'x' ) FROM t"));
    }

    // ------------------------------------------------------------------------------------------------ decoration

    private static final String[] UNICODE_SPACES = {"\u00a0", "\u2028", "\u200b", "\u3000", "\u000b", "\u000c"};

    /**
     * Comments and whitespace at token boundaries outside literals and quoted names, and the case of keywords (all
     * upper case words) flipped, each with the given probability per boundary or word.
     */
    String decorate(String sql, Random r, double p) {
        StringBuilder out = new StringBuilder();
        char quote = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == quote) {
                    quote = 0;
                }
                i++;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                out.append(c);
                i++;
            } else if (c == ' ' && r.nextDouble() < p) {
                out.append(separator(r));
                i++;
            } else if (Character.isUpperCase(c) && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)))) {
                int end = i;
                while (end < sql.length() && (Character.isUpperCase(sql.charAt(end)) || sql.charAt(end) == '_')) {
                    end++;
                }
                String word = sql.substring(i, end);
                out.append(r.nextDouble() < p ? flipCase(word, r) : word);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private String separator(Random r) {
        List<String> s = new ArrayList<>(List.of(" ", "\n", "\t", " /* c */ ", "/**/", " /* ; DROP TABLE t */ ",
                " -- c\n", "\r\n", "  ", " /* 'x' */ ", " --\n"));
        if (pg) {
            s.addAll(List.of(" /* nested /* x */ y */ ", " /* $$ */ "));
        } else {
            s.addAll(List.of(" # c\n", " #; DELETE FROM t\n", " /*+ NO_INDEX(t) */ "));
        }
        return s.get(r.nextInt(s.size()));
    }

    private static String flipCase(String word, Random r) {
        StringBuilder sb = new StringBuilder();
        for (char c : word.toCharArray()) {
            sb.append(r.nextBoolean() ? Character.toLowerCase(c) : c);
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------ mutations

    Arbitrary<Fuzz> mutations(List<String> corpus) {
        return Combinators.combine(Arbitraries.of(corpus), Arbitraries.longs(), Arbitraries.integers().between(1, 3))
                .as((s, seed, n) -> {
                    Random r = new Random(seed);
                    String m = s;
                    for (int k = 0; k < n; k++) {
                        m = mutate(m, r);
                    }
                    return new Fuzz("corpus-mutation", m);
                });
    }

    private static final List<String> INSERTS = List.of(";", "; SELECT 1", "DELETE", "DROP TABLE t", "INTO x",
            "FOR UPDATE", "UNION SELECT 1", "(", ")", "SELECT", "WITH", "/*", "*/", "--", "'", "\"", "`", "$$",
            "\\", "#", "/*!", "INTO @x", "RETURNING *", ",", "nextval('sq')", "GET_LOCK('x', 0)", "FROM t");

    String mutate(String sql, Random r) {
        List<String> tokens = new ArrayList<>(List.of(sql.split("\\s+")));
        int at = r.nextInt(tokens.size() + 1);
        switch (r.nextInt(12)) {
            case 0 -> {
                StringBuilder sb = new StringBuilder();
                for (char c : sql.toCharArray()) {
                    sb.append(r.nextInt(4) == 0 ? (Character.isUpperCase(c) ? Character.toLowerCase(c)
                            : Character.toUpperCase(c)) : c);
                }
                return sb.toString();
            }
            case 1 -> tokens.add(at, ";");
            case 2 -> tokens.add(at, separator(r).strip().isEmpty() ? "/* c */" : separator(r).strip());
            case 3 -> {
                if (tokens.size() > 1) {
                    int a = r.nextInt(tokens.size() - 1);
                    String x = tokens.get(a);
                    tokens.set(a, tokens.get(a + 1));
                    tokens.set(a + 1, x);
                }
            }
            case 4 -> {
                if (tokens.size() > 1) {
                    tokens.remove(r.nextInt(tokens.size()));
                }
            }
            case 5 -> {
                int a = r.nextInt(tokens.size());
                tokens.add(a, tokens.get(a));
            }
            case 6 -> tokens.add(at, INSERTS.get(r.nextInt(INSERTS.size())));
            case 7 -> {
                String u = UNICODE_SPACES[r.nextInt(UNICODE_SPACES.length)];
                return sql.replaceFirst(" ", u);
            }
            case 8 -> {
                return "SELECT * FROM ( " + sql + " ) AS z";
            }
            case 9 -> {
                return "( " + sql + " )";
            }
            case 10 -> {
                // look-alike letters: Cyrillic and fullwidth forms of a keyword's letters
                return sql.replaceFirst("E", r.nextBoolean() ? "\u0415" : "\uff25");
            }
            default -> {
                return r.nextBoolean() ? sql + " -- x" : "/* x */ " + sql.toLowerCase(Locale.ROOT);
            }
        }
        return String.join(" ", tokens);
    }
}
