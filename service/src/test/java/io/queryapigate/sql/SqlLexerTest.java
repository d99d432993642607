package io.queryapigate.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlLexerTest {

    private static int statements(String sql, SqlLexer.Rules rules) {
        return SqlLexer.scan(sql, rules, false).statements();
    }

    @Test
    void countsSegmentsWithCodeOnly() {
        assertThat(statements("SELECT 1", SqlLexer.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1;", SqlLexer.ANSI)).isEqualTo(1);
        assertThat(statements(";;SELECT 1;;", SqlLexer.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1; -- done", SqlLexer.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1; SELECT 2", SqlLexer.ANSI)).isEqualTo(2);
        assertThat(statements("(SELECT 1; SELECT 2)", SqlLexer.ANSI)).isEqualTo(2);
        assertThat(statements("  ", SqlLexer.ANSI)).isZero();
        assertThat(statements("/* x */ ; -- y", SqlLexer.ANSI)).isZero();
    }

    @Test
    void backslashesEscapeOnlyWhereTheDialectSaysSo() {
        String payload = "SELECT 'x\\'';' AS x";
        assertThat(statements(payload, SqlLexer.POSTGRES)).isEqualTo(1);
        assertThat(statements(payload, SqlLexer.SQLITE)).isEqualTo(1);
        assertThat(statements(payload, SqlLexer.MYSQL)).isEqualTo(2);
        assertThat(statements(payload, SqlLexer.MYSQL_NO_BACKSLASH)).isEqualTo(1);
        assertThat(statements(payload, SqlLexer.CLICKHOUSE)).isEqualTo(2);
        // PostgreSQL's E'' strings honour backslashes, plain ones do not
        assertThat(statements("SELECT E'a\\';b'", SqlLexer.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT 'a\\';b'", SqlLexer.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT xE'a\\';b'", SqlLexer.POSTGRES)).isEqualTo(2);
    }

    @Test
    void commentRulesFollowTheDialect() {
        // MySQL: -- needs a blank after it; # is a comment
        assertThat(statements("SELECT 1 --x\n; SELECT 2", SqlLexer.MYSQL)).isEqualTo(2);
        assertThat(statements("SELECT 1 -- x ; SELECT 2", SqlLexer.MYSQL)).isEqualTo(1);
        // the server reads --- as - and a comment from the second -
        assertThat(statements("SELECT 1 --- ; SELECT 2", SqlLexer.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT 1 ---x ; SELECT 2", SqlLexer.MYSQL)).isEqualTo(2);
        assertThat(statements("SELECT 1 # ; SELECT 2", SqlLexer.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT 1 # ; SELECT 2", SqlLexer.POSTGRES)).isEqualTo(2);
        // ClickHouse: # only before a blank or !, // is a comment, comments nest
        assertThat(statements("SELECT 1 # ; SELECT 2", SqlLexer.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT 1 #; SELECT 2", SqlLexer.CLICKHOUSE)).isEqualTo(2);
        assertThat(statements("SELECT 1 // ; SELECT 2", SqlLexer.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT 1 /* /* */ ; */", SqlLexer.CLICKHOUSE)).isEqualTo(1);
        // PostgreSQL nests block comments, SQLite does not
        assertThat(statements("SELECT 1 /* /* */ ; */", SqlLexer.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT 1 /* /* */ ; */", SqlLexer.SQLITE)).isEqualTo(2);
        // a line comment ends at a carriage return as well
        assertThat(statements("SELECT 1 -- x\r; SELECT 2", SqlLexer.POSTGRES)).isEqualTo(2);
    }

    @Test
    void quotesFollowTheDialect() {
        assertThat(statements("SELECT $$;$$", SqlLexer.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT $t$;$t$", SqlLexer.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT $$;$$", SqlLexer.ANSI)).isEqualTo(2);
        assertThat(statements("SELECT a$b$ ; $b$", SqlLexer.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT $1; SELECT $2", SqlLexer.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT $x y$ ; $x y$", SqlLexer.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT [a;b]", SqlLexer.SQLITE)).isEqualTo(1);
        assertThat(statements("SELECT `a;b`", SqlLexer.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT `a;b`", SqlLexer.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT \"a;b\"", SqlLexer.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT \"a\\\";b\"", SqlLexer.MYSQL)).isEqualTo(1);
    }

    @Test
    void findsExecutableCommentsAndVariableHints() {
        assertThat(SqlLexer.scan("SELECT 1 /*!50000 , 2 */", SqlLexer.MYSQL, false).executableComment()).isTrue();
        assertThat(SqlLexer.scan("SELECT 1 /*M! , 2 */", SqlLexer.MYSQL, false).executableComment()).isTrue();
        assertThat(SqlLexer.scan("SELECT '/*!'", SqlLexer.MYSQL, false).executableComment()).isFalse();
        assertThat(SqlLexer.scan("SELECT /*+ SET_VAR(x=1) */ 1", SqlLexer.MYSQL, false).hintSetsVariable()).isTrue();
        assertThat(SqlLexer.scan("SELECT /*+ BKA(t) */ 1", SqlLexer.MYSQL, false).hintSetsVariable()).isFalse();
    }

    @Test
    void reportsUnterminatedTokensAndDepth() {
        assertThat(SqlLexer.scan("SELECT 'x", SqlLexer.ANSI, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT 1 /* x", SqlLexer.ANSI, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT $a$ x", SqlLexer.POSTGRES, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT ((1))", SqlLexer.ANSI, false).maxDepth()).isEqualTo(2);
    }

    @Test
    void theParserTextKeepsLengthAndStructureButNoLiteralOrComment() {
        String sql = "SELECT 'a;b' AS \"x\", $$c$$, E'd\\'e' -- f\nFROM \"a.b\" /* g */ WHERE c = 'h'";
        SqlLexer.Result r = SqlLexer.scan(sql, SqlLexer.POSTGRES, true);
        String text = r.parserText();
        assertThat(text).hasSameSizeAs(sql).hasSameSizeAs(r.code());
        assertThat(text).doesNotContain("a;b", "-- f", "/* g */", "'h'", "$$");
        assertThat(text).contains("\"x\"", "'   '", "FROM \"~1_\"");
        assertThat(r.identifiers()).containsExactly("\"x\"", "\"a.b\"");
    }

    @Test
    void mysqlDoubleDashThatIsNoCommentStaysCodeForTheParser() {
        SqlLexer.Result r = SqlLexer.scan("SELECT 1 --1 FROM t", SqlLexer.MYSQL, true);
        assertThat(r.parserText()).isEqualTo("SELECT 1 - 1 FROM t");
        assertThat(SqlLexer.scan("SELECT 1 ---1 FROM t", SqlLexer.MYSQL, true).parserText())
                .isEqualTo("SELECT 1 - -1 FROM t");
        assertThat(SqlLexer.scan("SELECT 1 --- x\n FROM t", SqlLexer.MYSQL, true).parserText())
                .isEqualTo("SELECT 1 -    \n FROM t");
    }
}
