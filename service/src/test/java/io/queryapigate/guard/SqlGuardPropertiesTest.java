package io.queryapigate.guard;

import io.queryapigate.sql.SqlLexer;
import io.queryapigate.sql.SqlDialectFamily;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.postgresql.core.NativeQuery;
import org.postgresql.core.Parser;

/**
 * Property-based tests: statements generated with random comments, whitespace, quoting, case and parentheses around
 * the keywords. A read-only caller never gets a write or a second statement through; literals and quoted names
 * holding write words and semicolons never make a plain SELECT fail; whatever the guard admits on PostgreSQL, pgjdbc
 * sends as one statement.
 */
class SqlGuardPropertiesTest {
    private static final SqlGuard GUARD = new SqlGuard();

    /** Writes (and other non-reads), as token lists; every token boundary may get decoration. */
    private static final List<String> WRITES = List.of(
            "INSERT INTO t VALUES ( 1 )",
            "INSERT INTO t ( a ) SELECT a FROM u",
            "UPDATE t SET a = 1 WHERE b = 2",
            "DELETE FROM t WHERE a = 1",
            "DELETE FROM t",
            "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE",
            "DROP TABLE t",
            "CREATE TABLE x ( a int )",
            "ALTER TABLE t ADD COLUMN b int",
            "TRUNCATE t",
            "GRANT SELECT ON t TO someone",
            "CALL proc ( )",
            "SET search_path = other",
            "COPY t TO '/tmp/x'",
            "WITH d AS ( DELETE FROM t RETURNING * ) SELECT * FROM d",
            "WITH x AS ( SELECT 1 ) INSERT INTO t SELECT * FROM x",
            "EXPLAIN ANALYZE DELETE FROM t",
            "EXPLAIN ( ANALYZE , BUFFERS ) INSERT INTO t VALUES ( 1 )",
            "EXPLAIN DELETE FROM t",
            "SELECT * INTO new_table FROM t",
            "SELECT a INTO OUTFILE '/tmp/x' FROM t",
            "SELECT * FROM t FOR UPDATE",
            "BEGIN",
            "COMMIT",
            "USE other");

    private static final List<String> READS = List.of(
            "SELECT * FROM t",
            "SELECT a , b FROM t WHERE a = 1 ORDER BY b",
            "SELECT count ( * ) FROM t JOIN u ON t.id = u.id GROUP BY t.a",
            "WITH x AS ( SELECT a FROM t ) SELECT * FROM x",
            "SELECT * FROM t WHERE a IN ( SELECT a FROM u )",
            "VALUES ( 1 ) , ( 2 )",
            "SELECT updated_at , deleted , insert_count FROM t",
            "SELECT replace ( a , 'x' , 'y' ) FROM t");

    /** Reads that are no plain reads for a read-only caller of the dialect (session functions, file readers). */
    private static final java.util.Map<SqlDialectFamily, List<String>> DIALECT_WRITES = java.util.Map.of(
            SqlDialectFamily.POSTGRES, List.of("SELECT set_config ( 'a' , 'b' , false )", "SELECT nextval ( 's' )",
                    "SELECT pg_advisory_lock ( 1 )", "SELECT * FROM dblink ( 'x' , 'y' ) AS r ( a int )"),
            SqlDialectFamily.MYSQL, List.of("SELECT GET_LOCK ( 'x' , 1 )", "SELECT LOAD_FILE ( '/etc/passwd' )",
                    "SELECT @x := 1"),
            SqlDialectFamily.DUCKDB, List.of("SELECT * FROM read_csv ( '/etc/passwd' )", "SELECT * FROM 'x.csv'",
                    "SELECT nextval ( 's' )"),
            SqlDialectFamily.CLICKHOUSE, List.of("SELECT * FROM file ( 'x' )", "SELECT * FROM url ( 'http://x' )",
                    "SELECT * FROM remote ( 'h' , db.t )"),
            SqlDialectFamily.TRINO, List.of("SELECT * FROM TABLE ( system.query ( query => 'DELETE FROM t' ) )"),
            SqlDialectFamily.SQLITE, List.of("SELECT load_extension ( 'x' )", "SELECT writefile ( 'x' , 'y' )"),
            SqlDialectFamily.GENERIC, List.of("SELECT set_config ( 'a' , 'b' , false )",
                    "SELECT LOAD_FILE ( '/etc/passwd' )"));

    /** Statements whose operation a writer limited to no write operation must be refused. */
    private static final List<String> OPERATIONS = WRITES.stream().filter(w -> !w.contains("FOR UPDATE"))
            .toList();

    private static final List<SqlDialectFamily> DIALECTS = List.of(SqlDialectFamily.values());

    // ---------------------------------------------------------------------------------------------- generators

    /** A statement decorated at random: the seed drives case, blanks, comments and parentheses. */
    record Decorated(SqlDialectFamily dialect, String base, String sql) {
        @Override
        public String toString() {
            return dialect + " :: " + sql.replace("\n", "⏎").replace("\r", "␍").replace("\t", "⇥");
        }
    }

    static String decorate(String base, SqlDialectFamily dialect, long seed, boolean parens) {
        Random r = new Random(seed);
        String[] tokens = base.split(" ");
        StringBuilder sb = new StringBuilder();
        sb.append(gap(r, dialect, true));
        int open = parens && r.nextInt(3) == 0 ? 1 + r.nextInt(3) : 0;
        boolean parenthesisable = base.startsWith("SELECT") || base.startsWith("WITH") || base.startsWith("VALUES");
        if (!parenthesisable) {
            open = 0;
        }
        for (int i = 0; i < open; i++) {
            sb.append('(').append(gap(r, dialect, false));
        }
        for (int i = 0; i < tokens.length; i++) {
            if (i > 0) {
                sb.append(gap(r, dialect, true));
            }
            sb.append(recase(tokens[i], r));
        }
        for (int i = 0; i < open; i++) {
            sb.append(gap(r, dialect, false)).append(')');
        }
        sb.append(gap(r, dialect, false));
        if (r.nextInt(4) == 0) {
            sb.append(';').append(gap(r, dialect, false));
        }
        return sb.toString();
    }

    /** Randomises the case of keywords and unquoted names (never inside literals). */
    private static String recase(String token, Random r) {
        if (token.startsWith("'")) {
            return token;
        }
        StringBuilder sb = new StringBuilder(token.length());
        for (char c : token.toCharArray()) {
            sb.append(r.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        return sb.toString();
    }

    private static final String COMMENT_CHARS = "abc ;'\"`$-#*/\\()[]{}!?:=\tDELETE DROP";

    /** Blanks and comments that change nothing; {@code required} keeps at least one blank. */
    private static String gap(Random r, SqlDialectFamily dialect, boolean required) {
        StringBuilder sb = new StringBuilder();
        int parts = r.nextInt(3);
        if (required || parts > 0) {
            sb.append(blank(r));
        }
        for (int i = 0; i < parts; i++) {
            switch (r.nextInt(4)) {
                case 0 -> sb.append("/*").append(commentText(r, false)).append("*/");
                case 1 -> sb.append("-- ").append(commentText(r, true)).append(r.nextBoolean() ? "\n" : "\r\n");
                case 2 -> {
                    if (dialect == SqlDialectFamily.MYSQL) {
                        sb.append('#').append(commentText(r, true)).append('\n');
                    } else if (dialect == SqlDialectFamily.CLICKHOUSE) {
                        // ClickHouse: # is a comment only before a blank (or !)
                        sb.append("# ").append(commentText(r, true)).append('\n');
                    } else {
                        sb.append("/* # */");
                    }
                }
                default -> sb.append(blank(r));
            }
            sb.append(blank(r));
        }
        return sb.toString();
    }

    private static String blank(Random r) {
        String[] blanks = {" ", "  ", "\t", "\n", "\r\n", " \n\t "};
        return blanks[r.nextInt(blanks.length)];
    }

    private static String commentText(Random r, boolean line) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            sb.append(COMMENT_CHARS.charAt(r.nextInt(COMMENT_CHARS.length())));
        }
        String s = sb.toString();
        // a comment that closes, nests or executes is no longer the same comment
        s = s.replace("*/", "* /").replace("/*", "/ *");
        if (line) {
            s = s.replace("\n", " ").replace("\r", " ");
        }
        if (s.startsWith("!") || s.startsWith("+") || s.startsWith("M!")) {
            s = " " + s;
        }
        if (s.endsWith("/")) {
            s = s + " "; // "/" + "*/" would open a nested comment where comments nest
        }
        if (!line && s.startsWith("/")) {
            s = " " + s; // pgjdbc ends "/*/" at once (the server does not): a different comment to the driver
        }
        return s;
    }

    @Provide
    Arbitrary<Decorated> decoratedWrites() {
        return Arbitraries.of(DIALECTS).flatMap(d -> {
            List<String> all = new ArrayList<>(WRITES);
            all.addAll(DIALECT_WRITES.get(d));
            return Combinators.combine(Arbitraries.of(all), Arbitraries.longs(), Arbitraries.of(true, false))
                    .as((w, seed, p) -> new Decorated(d, w, decorate(w, d, seed, p)));
        });
    }

    @Provide
    Arbitrary<Decorated> decoratedOperations() {
        return Combinators.combine(Arbitraries.of(DIALECTS), Arbitraries.of(OPERATIONS), Arbitraries.longs(),
                Arbitraries.of(true, false)).as((d, w, seed, p) -> new Decorated(d, w, decorate(w, d, seed, p)));
    }

    @Provide
    Arbitrary<Decorated> decoratedReads() {
        return Combinators.combine(Arbitraries.of(DIALECTS), Arbitraries.of(READS), Arbitraries.longs(),
                Arbitraries.of(true, false)).as((d, w, seed, p) -> new Decorated(d, w, decorate(w, d, seed, p)));
    }

    @Provide
    Arbitrary<Decorated> twoStatements() {
        List<String> any = new ArrayList<>(READS);
        any.addAll(WRITES);
        return Combinators.combine(Arbitraries.of(DIALECTS), Arbitraries.of(READS), Arbitraries.of(any),
                Arbitraries.longs()).as((d, first, second, seed) -> {
                    String a = decorate(first, d, seed, false);
                    String b = decorate(second, d, seed * 31 + 7, false);
                    return new Decorated(d, first + "; " + second, a + ";" + b);
                });
    }

    // ---------------------------------------------------------------------------------------------- properties

    @Property(tries = 1500)
    void aReadOnlyCallerNeverGetsAWriteThrough(@ForAll("decoratedWrites") Decorated w) {
        try {
            GuardResult r = GUARD.check(w.sql(), GuardOptions.readOnly(w.dialect()));
            fail("admitted %s as %s", w, r.kind());
        } catch (GuardException e) {
            // a decoration can itself end the statement early (a separator inside the generated noise): any refusal
            // keeps the write out
            assertThat(e.code()).isIn(GuardException.READ_ONLY, GuardException.SQL_NOT_PARSEABLE,
                    GuardException.MULTIPLE_STATEMENTS);
        }
    }

    @Property(tries = 1000)
    void aWriterLimitedToNoOperationGetsNoneThrough(@ForAll("decoratedOperations") Decorated w) {
        // the same decorations do not hide the operation from a writer whose key allows no write operation
        GuardOptions noOps = GuardOptions.writer(w.dialect()).withAllowedWriteOps(List.of());
        try {
            GuardResult r = GUARD.check(w.sql(), noOps);
            fail("admitted %s as %s", w, r.kind());
        } catch (GuardException e) {
            assertThat(e.code()).isIn(GuardException.WRITE_OP_NOT_ALLOWED, GuardException.SQL_NOT_PARSEABLE);
        }
    }

    @Property(tries = 1500)
    void aSecondStatementNeverGetsThrough(@ForAll("twoStatements") Decorated two) {
        for (GuardOptions o : List.of(GuardOptions.readOnly(two.dialect()), GuardOptions.writer(two.dialect()))) {
            assertThatThrownBy(() -> GUARD.check(two.sql(), o)).as("%s", two)
                    .isInstanceOfSatisfying(GuardException.class,
                            e -> assertThat(e.code()).isEqualTo(GuardException.MULTIPLE_STATEMENTS));
        }
    }

    @Property(tries = 1000)
    void decoratedReadsPass(@ForAll("decoratedReads") Decorated r) {
        GuardResult res;
        try {
            res = GUARD.check(r.sql(), GuardOptions.readOnly(r.dialect()));
        } catch (GuardException e) {
            fail("refused %s: %s %s", r, e.code(), e.getMessage());
            return;
        }
        assertThat(res.kind()).isEqualTo(StatementKind.READ);
        assertThat(res.writeOps()).isEmpty();
    }

    /** Text for literals and quoted names: write words, semicolons, quotes, comment openers, backslashes. */
    @Provide
    Arbitrary<String> nastyText() {
        Arbitrary<String> words = Arbitraries.of("DELETE FROM t", "; DROP TABLE t", "INSERT", "update", ";", "--",
                "/*", "*/", "/*!", "'", "\"", "`", "\\", "\\'", "''", "$$", "$a$", "#", "\n", ":name", "?", "E'",
                "(", ")", "]", "[", " ", ".", "set_config(", "x", "Ü", "*");
        return words.list().ofMinSize(1).ofMaxSize(8).map(l -> String.join("", l));
    }

    @Property(tries = 1500)
    void literalsAndQuotedNamesNeverCauseARefusal(@ForAll("nastyText") String literal,
            @ForAll("nastyText") String name, @ForAll("dialects") SqlDialectFamily d) {
        if (d == SqlDialectFamily.GENERIC) {
            literal = literal.replace("\\", "/");
            name = name.replace("\\", "/");
        }
        String sql = "SELECT " + literal(literal, d) + " AS " + quoted(name, d) + ", a FROM t WHERE b = "
                + literal(name, d) + " OR c = " + literal(literal + name, d);
        GuardResult r;
        try {
            r = GUARD.check(sql, GuardOptions.readOnly(d).withAllowedTables(List.of("t")));
        } catch (GuardException e) {
            fail("refused %s :: %s: %s %s", d, sql, e.code(), e.getMessage());
            return;
        }
        assertThat(r.kind()).isEqualTo(StatementKind.READ);
        Set<String> names = r.tablesRead().stream().map(TableName::name).collect(Collectors.toSet());
        assertThat(names).containsExactly("t");
    }

    @Provide
    Arbitrary<SqlDialectFamily> dialects() {
        return Arbitraries.of(DIALECTS);
    }

    /**
     * A string literal holding {@code text} exactly, written the dialect's way. (The generic dialect reads backslashes
     * both ways, so a backslash there is ambiguous and may be refused: the test leaves it out. On PostgreSQL a plain
     * '...' with a backslash reads differently on a server with standard_conforming_strings off, so such text is
     * written as E'...', which every PostgreSQL server reads alike.)
     */
    static String literal(String text, SqlDialectFamily d) {
        String s = text.replace("'", "''");
        if (d == SqlDialectFamily.MYSQL || d == SqlDialectFamily.CLICKHOUSE) {
            s = text.replace("\\", "\\\\").replace("'", "\\'");
        }
        if (d == SqlDialectFamily.POSTGRES && text.indexOf('\\') >= 0) {
            return "E'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        return "'" + s + "'";
    }

    /** A quoted identifier holding {@code text} exactly, written the dialect's way. */
    static String quoted(String text, SqlDialectFamily d) {
        String t = text.length() < 2 ? text + "_x" : text;
        return switch (d) {
            case MYSQL -> "`" + t.replace("`", "``") + "`";
            case CLICKHOUSE -> "`" + t.replace("\\", "\\\\").replace("`", "\\`") + "`";
            case SQLITE -> t.contains("]") ? "\"" + t.replace("\"", "\"\"") + "\"" : "[" + t + "]";
            default -> "\"" + t.replace("\"", "\"\"") + "\"";
        };
    }

    /** Random text assembled from SQL fragments: mostly garbage, sometimes one statement, sometimes several. */
    @Provide
    Arbitrary<String> fragments() {
        Arbitrary<String> pieces = Arbitraries.of("SELECT 1", "SELECT 'a;b'", " ", ";", "'", "\"", "--", "\n",
                "/*", "*/", "$$", "$a$", "E'\\''", "\\", "(", ")", "DELETE FROM t", "'x\\'", "''", " AS x", "\r",
                "U&'a'", "$1", "??", "?");
        return pieces.list().ofMinSize(1).ofMaxSize(10).map(l -> String.join("", l));
    }

    @Property(tries = 3000)
    void whatThePostgresGuardAdmitsPgjdbcSendsAsOneStatement(@ForAll("fragments") String sql) throws Exception {
        GuardResult r;
        try {
            r = GUARD.check(sql, GuardOptions.writer(SqlDialectFamily.POSTGRES));
        } catch (GuardException e) {
            return;
        }
        int pieces = 0;
        for (NativeQuery q : Parser.parseJdbcSql(sql, true, true, true, false, false)) {
            if (!q.nativeSql.isBlank() && !onlyComments(q.nativeSql)) {
                pieces++;
            }
        }
        assertThat(pieces).as("pgjdbc pieces of admitted %s (%s)", sql, r.kind()).isLessThanOrEqualTo(1);
    }

    private static boolean onlyComments(String s) {
        return SqlLexer.scan(s, io.queryapigate.dialect.spi.LexicalRules.POSTGRES, false).statements() == 0;
    }

    @Property(tries = 500)
    void caseOfUnquotedNamesNeverMattersOnPostgres(@ForAll("names") String table, @ForAll long seed) {
        Random r = new Random(seed);
        String spelled = recase(table, r);
        GuardOptions o = GuardOptions.readOnly(SqlDialectFamily.POSTGRES).withDefaults(null, "public")
                .withAllowedTables(List.of(table.toLowerCase(Locale.ROOT)));
        GuardResult res = GUARD.check("SELECT * FROM " + spelled, o);
        assertThat(res.tablesRead()).containsExactly(new TableName(null, "public", table.toLowerCase(Locale.ROOT)));
        assertThatThrownBy(() -> GUARD.check("SELECT * FROM other." + spelled, o))
                .isInstanceOfSatisfying(GuardException.class,
                        e -> assertThat(e.code()).isEqualTo(GuardException.TABLE_NOT_ALLOWED));
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(12)
                .filter(s -> !new java.util.HashSet<>(List.of("select", "from", "where", "table", "join", "on", "as", "and", "or", "not",
                        "in", "is", "null", "with", "order", "group", "by", "limit", "offset", "union", "all",
                        "left", "right", "inner", "outer", "full", "cross", "natural", "using", "having", "into",
                        "values", "set", "case", "when", "then", "else", "end", "lateral", "distinct", "fetch",
                        "for", "window", "qualify", "top", "both", "any", "some", "true", "false", "exists",
                        "between", "like", "ilike", "similar", "escape", "except", "intersect", "minus", "interval",
                        "do", "if", "go", "of", "to", "at", "only", "unique", "primary", "key", "check",
                        "default", "current", "user", "column", "grant", "revoke", "create", "drop", "alter",
                        "insert", "update", "delete", "merge", "replace", "upsert", "call", "execute", "exec",
                        "start", "begin", "commit", "rollback", "use", "show", "describe", "desc", "explain",
                        "analyze", "tablesample", "pivot", "unpivot", "rows", "row", "range", "groups",
                        "partition", "over", "filter", "within", "last", "first", "next", "prior", "connect",
                        "start", "level", "sample", "final", "prewhere", "global", "array", "semi", "anti",
                        "asof", "straight_join", "match_recognize", "apply", "outer", "cast", "collate",
                        "extract", "substring", "trim", "position", "overlay", "cube", "rollup", "grouping",
                        "sets", "nulls", "asc", "returning", "conflict", "nothing", "force", "ignore", "index",
                        "key", "keys", "kill", "lock", "optimize", "system", "statistics", "skip", "locked",
                        "wait", "nowait", "share", "no", "xor", "div", "mod", "regexp", "rlike", "binary",
                        "char", "character", "varchar", "int", "integer", "boolean", "date", "time",
                        "timestamp", "zone", "year", "month", "day", "hour", "minute", "second", "data",
                        "connect_by_root", "materialized", "recursive", "dual", "string", "file", "spatial",
                        "fulltext", "inout", "out", "json", "xml", "signed", "unsigned", "zerofill", "e", "u",
                        "b", "x", "n", "q", "r")).contains(s));
    }
}
