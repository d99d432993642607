package io.queryapigate.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The paging tail per family: where the statement ends, whether another follows, its own row window. */
class SqlTailTest {

    private static SqlTail lex(String family, String sql) {
        return SqlTail.lex(sql.replace("{nl}", "\n"), SqlDialectFamily.of(family).lexicalRules());
    }

    /** Each row: family, text, the statement proper, whether more statements follow, the window's limit or -. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
        postgres   | SELECT a FROM t -- note                     | SELECT a FROM t                  | false | -
        postgres   | SELECT a FROM t LIMIT 5 /* c */ ;;          | SELECT a FROM t LIMIT 5          | false | 5
        postgres   | SELECT 'x LIMIT 3' FROM t                   | SELECT 'x LIMIT 3' FROM t        | false | -
        postgres   | SELECT $q$ LIMIT 5; $q$ FROM t              | SELECT $q$ LIMIT 5; $q$ FROM t   | false | -
        postgres   | SELECT E'a\\' LIMIT 5' FROM t              | SELECT E'a\\' LIMIT 5' FROM t   | false | -
        postgres   | SELECT a FROM t /* a /* b */ ; */           | SELECT a FROM t                  | false | -
        postgres   | SELECT a FROM t; SELECT 2                   | SELECT a FROM t; SELECT 2        | true  | -
        duckdb     | SELECT a FROM t LIMIT 3 /* a /* b */ ; */   | SELECT a FROM t LIMIT 3          | false | 3
        mysql      | SELECT a FROM t LIMIT 5 # note ; more       | SELECT a FROM t LIMIT 5          | false | 5
        mysql      | SELECT "a;b", 'it\\';s' FROM t LIMIT 2     | SELECT "a;b", 'it\\';s' FROM t LIMIT 2 | false | 2
        mysql      | SELECT a FROM t -- note                     | SELECT a FROM t                  | false | -
        clickhouse | SELECT a FROM t LIMIT 4 // note             | SELECT a FROM t LIMIT 4          | false | 4
        clickhouse | SELECT a FROM t LIMIT 4 # note              | SELECT a FROM t LIMIT 4          | false | 4
        clickhouse | SELECT `a\\`;b` FROM t                     | SELECT `a\\`;b` FROM t          | false | -
        trino      | SELECT a FROM t OFFSET 2 LIMIT 6            | SELECT a FROM t OFFSET 2 LIMIT 6 | false | 6
        sqlite     | SELECT [a;b] FROM t LIMIT 9                 | SELECT [a;b] FROM t LIMIT 9      | false | 9
        generic    | SELECT "a;b" FROM t -- c                    | SELECT "a;b" FROM t              | false | -
        """)
    void theTailFollowsTheFamilysReading(String family, String sql, String statement, boolean multiple, String limit) {
        SqlTail tail = lex(family, sql);
        assertThat(tail.statement()).isEqualTo(statement);
        assertThat(tail.multiple).isEqualTo(multiple);
        assertThat(tail.unterminated).isFalse();
        SqlTail.Window w = tail.window();
        assertThat(w == null ? "-" : String.valueOf(w.limit().value())).isEqualTo(limit);
    }

    /**
     * The tail used to be found by a scanner of its own, which disagreed with the guard's reading of some text; the
     * guard's reading decides now. Each row: family, text, the statement proper now, whether more statements follow
     * now (the old scanner's reading in the comment).
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
        # backticks quote nothing on PostgreSQL (was: one statement)
        postgres   | SELECT `a;b` FROM t                 | SELECT `a;b` FROM t             | true
        # DuckDB nests comments as PostgreSQL does (was: the comment ended at the first */)
        duckdb     | SELECT a FROM t /* /* */ LIMIT 5 */ | SELECT a FROM t                 | false
        # MySQL: -- is a comment only before a blank (was: SELECT a FROM t)
        mysql      | SELECT a FROM t --x                 | SELECT a FROM t --x             | false
        # ClickHouse: // is a comment (was: code), # only before a blank or ! (was: always), heredocs (was: code)
        clickhouse | SELECT a FROM t // note             | SELECT a FROM t                 | false
        clickhouse | SELECT a FROM t #x                  | SELECT a FROM t #x              | false
        clickhouse | SELECT $h$;$h$ FROM t               | SELECT $h$;$h$ FROM t           | false
        clickhouse | SELECT a FROM t /* /* */ ; */       | SELECT a FROM t                 | false
        # Trino and SQLite have no E'...' strings: the backslash ends nothing (was: an unterminated literal)
        trino      | SELECT E'a\\' LIMIT 5              | SELECT E'a\\' LIMIT 5          | false
        sqlite     | SELECT E'a\\' LIMIT 5              | SELECT E'a\\' LIMIT 5          | false
        # the generic family reads [...] as code, as the guard's generic reading does (was: a quoted name)
        generic    | SELECT [a;b] FROM t                 | SELECT [a;b] FROM t             | true
        """)
    void theGuardsReadingDecidesTheTail(String family, String sql, String statement, boolean multiple) {
        SqlTail tail = lex(family, sql);
        assertThat(tail.statement()).isEqualTo(statement);
        assertThat(tail.multiple).isEqualTo(multiple);
        assertThat(tail.unterminated).isFalse();
    }

    @Test
    void withoutEStringsTheWindowAfterABackslashIsRead() {
        assertThat(lex("trino", "SELECT E'a\\' LIMIT 5").window().limit().value()).isEqualTo(5);
        assertThat(lex("postgres", "SELECT E'a\\' LIMIT 5").unterminated).isTrue();
    }

    @Test
    void clickHouseSettingsAndFormatAreTrailingClausesThere() {
        SqlTail tail = lex("clickhouse", "SELECT a FROM t FORMAT JSONEachRow");
        assertThat(tail.hasTrailingClauses(SqlDialectFamily.CLICKHOUSE)).isTrue();
        assertThat(tail.hasTrailingClauses(SqlDialectFamily.POSTGRES)).isFalse();
        assertThat(lex("postgres", "SELECT a FROM t FOR UPDATE").hasTrailingClauses(SqlDialectFamily.POSTGRES))
                .isTrue();
    }
}
