package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlLexerTest {

    private static int statements(String sql, LexicalRules rules) {
        return SqlLexer.scan(sql, rules, false).statements();
    }

    /** The tokens as kind:text, ! after an unterminated one. */
    private static String tokens(String sql, LexicalRules rules) {
        StringBuilder out = new StringBuilder();
        for (SqlLexer.Token t : SqlLexer.tokens(sql, rules)) {
            out.append(out.isEmpty() ? "" : " ").append(t.kind()).append(':').append(sql, t.start(), t.end())
                    .append(t.unterminated() ? "!" : "");
        }
        return out.toString();
    }

    @Test
    void tokensAreTheFamilysLiteralsQuotedNamesAndComments() {
        String quotes = "SELECT 'a', \"b\", `c`, [d] FROM t";
        assertThat(tokens(quotes, LexicalRules.POSTGRES)).isEqualTo("STRING:'a' IDENTIFIER:\"b\"");
        assertThat(tokens(quotes, LexicalRules.MYSQL)).isEqualTo("STRING:'a' STRING:\"b\" IDENTIFIER:`c`");
        assertThat(tokens(quotes, LexicalRules.CLICKHOUSE)).isEqualTo("STRING:'a' IDENTIFIER:\"b\" IDENTIFIER:`c`");
        assertThat(tokens(quotes, LexicalRules.SQLITE))
                .isEqualTo("STRING:'a' IDENTIFIER:\"b\" IDENTIFIER:`c` IDENTIFIER:[d]");
        assertThat(tokens(quotes, LexicalRules.TRINO)).isEqualTo("STRING:'a' IDENTIFIER:\"b\"");
        assertThat(tokens(quotes, LexicalRules.GENERIC)).isEqualTo("STRING:'a' IDENTIFIER:\"b\" IDENTIFIER:`c`");

        String comments = "SELECT 1 -- a\n# b\n// c\n/* d /* e */ f */";
        assertThat(tokens(comments, LexicalRules.POSTGRES))
                .isEqualTo("COMMENT:-- a COMMENT:/* d /* e */ f */");
        assertThat(tokens(comments, LexicalRules.MYSQL)).isEqualTo("COMMENT:-- a COMMENT:# b COMMENT:/* d /* e */");
        assertThat(tokens(comments, LexicalRules.CLICKHOUSE))
                .isEqualTo("COMMENT:-- a COMMENT:# b COMMENT:// c COMMENT:/* d /* e */ f */");
        assertThat(tokens(comments, LexicalRules.CLICKHOUSE_FLAT_COMMENTS))
                .isEqualTo("COMMENT:-- a COMMENT:# b COMMENT:// c COMMENT:/* d /* e */");
        assertThat(tokens(comments, LexicalRules.SQLITE)).isEqualTo("COMMENT:-- a COMMENT:/* d /* e */");

        String escapes = "SELECT E'a\\'b', 'c\\', $$d$$";
        assertThat(tokens(escapes, LexicalRules.POSTGRES)).isEqualTo("STRING:'a\\'b' STRING:'c\\' STRING:$$d$$");
        assertThat(tokens(escapes, LexicalRules.POSTGRES_BACKSLASH_STRINGS))
                .isEqualTo("STRING:'a\\'b' STRING:'c\\', $$d$$!");
        assertThat(tokens(escapes, LexicalRules.TRINO)).isEqualTo("STRING:'a\\' STRING:', ' STRING:', $$d$$!");
        assertThat(tokens("SELECT $h$ x $h$, $y", LexicalRules.CLICKHOUSE)).isEqualTo("STRING:$h$ x $h$");
    }

    @Test
    void countsSegmentsWithCodeOnly() {
        assertThat(statements("SELECT 1", LexicalRules.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1;", LexicalRules.ANSI)).isEqualTo(1);
        assertThat(statements(";;SELECT 1;;", LexicalRules.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1; -- done", LexicalRules.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT 1; SELECT 2", LexicalRules.ANSI)).isEqualTo(2);
        assertThat(statements("(SELECT 1; SELECT 2)", LexicalRules.ANSI)).isEqualTo(2);
        assertThat(statements("  ", LexicalRules.ANSI)).isZero();
        assertThat(statements("/* x */ ; -- y", LexicalRules.ANSI)).isZero();
    }

    @Test
    void backslashesEscapeOnlyWhereTheDialectSaysSo() {
        String payload = "SELECT 'x\\'';' AS x";
        assertThat(statements(payload, LexicalRules.POSTGRES)).isEqualTo(1);
        assertThat(statements(payload, LexicalRules.SQLITE)).isEqualTo(1);
        assertThat(statements(payload, LexicalRules.MYSQL)).isEqualTo(2);
        assertThat(statements(payload, LexicalRules.MYSQL_NO_BACKSLASH_ESCAPES)).isEqualTo(1);
        assertThat(statements(payload, LexicalRules.CLICKHOUSE)).isEqualTo(2);
        // PostgreSQL's E'' strings honour backslashes, plain ones do not
        assertThat(statements("SELECT E'a\\';b'", LexicalRules.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT 'a\\';b'", LexicalRules.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT xE'a\\';b'", LexicalRules.POSTGRES)).isEqualTo(2);
    }

    @Test
    void commentRulesFollowTheDialect() {
        // MySQL: -- needs a blank after it; # is a comment
        assertThat(statements("SELECT 1 --x\n; SELECT 2", LexicalRules.MYSQL)).isEqualTo(2);
        assertThat(statements("SELECT 1 -- x ; SELECT 2", LexicalRules.MYSQL)).isEqualTo(1);
        // the server reads --- as - and a comment from the second -
        assertThat(statements("SELECT 1 --- ; SELECT 2", LexicalRules.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT 1 ---x ; SELECT 2", LexicalRules.MYSQL)).isEqualTo(2);
        assertThat(statements("SELECT 1 # ; SELECT 2", LexicalRules.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT 1 # ; SELECT 2", LexicalRules.POSTGRES)).isEqualTo(2);
        // ClickHouse: # only before a blank or !, // is a comment, comments nest
        assertThat(statements("SELECT 1 # ; SELECT 2", LexicalRules.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT 1 #; SELECT 2", LexicalRules.CLICKHOUSE)).isEqualTo(2);
        assertThat(statements("SELECT 1 // ; SELECT 2", LexicalRules.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT 1 /* /* */ ; */", LexicalRules.CLICKHOUSE)).isEqualTo(1);
        // PostgreSQL nests block comments, SQLite does not
        assertThat(statements("SELECT 1 /* /* */ ; */", LexicalRules.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT 1 /* /* */ ; */", LexicalRules.SQLITE)).isEqualTo(2);
        // a line comment ends at a carriage return as well
        assertThat(statements("SELECT 1 -- x\r; SELECT 2", LexicalRules.POSTGRES)).isEqualTo(2);
    }

    @Test
    void quotesFollowTheDialect() {
        assertThat(statements("SELECT $$;$$", LexicalRules.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT $t$;$t$", LexicalRules.POSTGRES)).isEqualTo(1);
        assertThat(statements("SELECT $$;$$", LexicalRules.ANSI)).isEqualTo(2);
        assertThat(statements("SELECT a$b$ ; $b$", LexicalRules.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT $1; SELECT $2", LexicalRules.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT $x y$ ; $x y$", LexicalRules.CLICKHOUSE)).isEqualTo(1);
        assertThat(statements("SELECT [a;b]", LexicalRules.SQLITE)).isEqualTo(1);
        assertThat(statements("SELECT `a;b`", LexicalRules.MYSQL)).isEqualTo(1);
        assertThat(statements("SELECT `a;b`", LexicalRules.POSTGRES)).isEqualTo(2);
        assertThat(statements("SELECT \"a;b\"", LexicalRules.ANSI)).isEqualTo(1);
        assertThat(statements("SELECT \"a\\\";b\"", LexicalRules.MYSQL)).isEqualTo(1);
    }

    @Test
    void findsExecutableCommentsAndVariableHints() {
        assertThat(SqlLexer.scan("SELECT 1 /*!50000 , 2 */", LexicalRules.MYSQL, false).executableComment()).isTrue();
        assertThat(SqlLexer.scan("SELECT 1 /*M! , 2 */", LexicalRules.MYSQL, false).executableComment()).isTrue();
        assertThat(SqlLexer.scan("SELECT '/*!'", LexicalRules.MYSQL, false).executableComment()).isFalse();
        assertThat(SqlLexer.scan("SELECT /*+ SET_VAR(x=1) */ 1", LexicalRules.MYSQL, false).hintSetsVariable()).isTrue();
        assertThat(SqlLexer.scan("SELECT /*+ BKA(t) */ 1", LexicalRules.MYSQL, false).hintSetsVariable()).isFalse();
    }

    @Test
    void reportsUnterminatedTokensAndDepth() {
        assertThat(SqlLexer.scan("SELECT 'x", LexicalRules.ANSI, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT 1 /* x", LexicalRules.ANSI, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT $a$ x", LexicalRules.POSTGRES, false).unterminated()).isTrue();
        assertThat(SqlLexer.scan("SELECT ((1))", LexicalRules.ANSI, false).maxDepth()).isEqualTo(2);
    }

    @Test
    void theParserTextKeepsLengthAndStructureButNoLiteralOrComment() {
        String sql = "SELECT 'a;b' AS \"x\", $$c$$, E'd\\'e' -- f\nFROM \"a.b\" /* g */ WHERE c = 'h'";
        SqlLexer.Result r = SqlLexer.scan(sql, LexicalRules.POSTGRES, true);
        String text = r.parserText();
        assertThat(text).hasSameSizeAs(sql).hasSameSizeAs(r.code());
        assertThat(text).doesNotContain("a;b", "-- f", "/* g */", "'h'", "$$");
        assertThat(text).contains("\"x\"", "'   '", "FROM \"~1_\"");
        assertThat(r.identifiers()).containsExactly("\"x\"", "\"a.b\"");
    }

    @Test
    void mysqlDoubleDashThatIsNoCommentStaysCodeForTheParser() {
        SqlLexer.Result r = SqlLexer.scan("SELECT 1 --1 FROM t", LexicalRules.MYSQL, true);
        assertThat(r.parserText()).isEqualTo("SELECT 1 - 1 FROM t");
        assertThat(SqlLexer.scan("SELECT 1 ---1 FROM t", LexicalRules.MYSQL, true).parserText())
                .isEqualTo("SELECT 1 - -1 FROM t");
        assertThat(SqlLexer.scan("SELECT 1 --- x\n FROM t", LexicalRules.MYSQL, true).parserText())
                .isEqualTo("SELECT 1 -    \n FROM t");
    }
}
