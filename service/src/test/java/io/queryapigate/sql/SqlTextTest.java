package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlTextTest {
    @Test
    void rewritesNamedMarkersInOrder() {
        SqlText t = SqlText.parse("SELECT * FROM t WHERE a = :a AND b = :b OR a = :a", LexicalRules.POSTGRES);
        assertThat(t.jdbcSql()).isEqualTo("SELECT * FROM t WHERE a = ? AND b = ? OR a = ?");
        assertThat(t.markers()).containsExactly("a", "b", "a");
        assertThat(t.markerNames()).containsExactly("a", "b");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
        postgres   | SELECT ':x' AS s
        postgres   | SELECT ":x" FROM t
        postgres   | SELECT 1 -- :x
        postgres   | SELECT /* :x */ 1
        postgres   | SELECT /* a /* :x */ b */ 1
        postgres   | SELECT a::int FROM t
        postgres   | SELECT $$ :x $$
        postgres   | SELECT $tag$ :x ' $tag$
        postgres   | SELECT arr[1:2] FROM t
        postgres   | SELECT E'\\' :x' AS s
        duckdb     | SELECT $$ :x $$, ":y"
        mysql      | SELECT `:x` FROM t
        mysql      | SELECT ":x" FROM t
        mysql      | SELECT 'it\\':x' AS s
        mysql      | SELECT "a\\":x" AS s
        mysql      | SELECT 1 # :x
        mysql      | SELECT 1 -- :x
        clickhouse | SELECT `a\\`:x` FROM t
        clickhouse | SELECT 1 // :x
        clickhouse | SELECT 1 # :x
        clickhouse | SELECT /* a /* :x */ b */ 1
        clickhouse | SELECT $h$ :x $h$
        trino      | SELECT ":x" FROM t
        sqlite     | SELECT [:x] FROM t
        sqlite     | SELECT `:x` FROM t
        generic    | SELECT `:x` FROM t
        """)
    void markersInsideLiteralsCommentsAndCastsAreNotMarkers(String family, String sql) {
        SqlText t = SqlText.parse(sql + "\n", SqlDialectFamily.of(family).lexicalRules());
        assertThat(t.markers()).isEmpty();
        assertThat(t.jdbcSql()).isEqualTo(sql);
    }

    /**
     * The markers used to be found by a scanner of their own, which disagreed with the guard's reading of some
     * text; the guard's reading decides now. Each row: family, text, the markers found now (the old scanner's in
     * the comment).
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
        # backticks quote nothing on PostgreSQL (was: no marker)
        postgres   | SELECT `:x` FROM t               | x
        # a line comment ends at a carriage return too (was: no marker)
        postgres   | SELECT 1 -- c{cr}:x               | x
        # MySQL: # is a comment (was: x)
        mysql      | SELECT 1 # :x                    | ~~
        # MySQL: "..." is a string, with backslash escapes (was: x)
        mysql      | SELECT "a\\" :x" AS s              | ~~
        # MySQL: -- is a comment only before a blank (was: no marker)
        mysql      | SELECT 1 --:x                    | x
        # ClickHouse: // is a comment, # before a blank too (was: x)
        clickhouse | SELECT 1 // :x                   | ~~
        clickhouse | SELECT 1 # :x                    | ~~
        clickhouse | SELECT 1 #:x                     | x
        # ClickHouse: comments nest, heredocs, backslashes in quoted names (was: x)
        clickhouse | SELECT /* /* */ :x */ 1          | ~~
        clickhouse | SELECT $h$ :x $h$                | ~~
        clickhouse | SELECT "a\\" :x" FROM t           | ~~
        # Trino, SQLite and the generic family: no dollar quotes, comments do not nest (was: no marker)
        trino      | SELECT $$ :x $$                  | x
        trino      | SELECT /* /* */ :x */ 1          | x
        sqlite     | SELECT /* /* */ :x */ 1          | x
        generic    | SELECT $$ :x $$                  | x
        # SQLite: [...] quotes a name (was: x)
        sqlite     | SELECT [:x] FROM t               | ~~
        """)
    void theGuardsReadingDecidesWhereMarkersAre(String family, String sql, String markers) {
        SqlText t = SqlText.parse(sql.replace("{cr}", "\r"), SqlDialectFamily.of(family).lexicalRules());
        assertThat(t.markers()).isEqualTo(markers.isEmpty() ? List.of() : List.of(markers.split(",")));
    }

    @Test
    void statementsSplitWhereTheGuardSplitsThem() {
        // MySQL's # comment hides the ; (the old scanner saw two statements and refused the text)
        assertThat(SqlText.parse("SELECT 1 # ; DELETE FROM t", LexicalRules.MYSQL).hasSeveralStatements())
                .isFalse();
        assertThat(SqlText.parse("SELECT 1 # ; DELETE FROM t", LexicalRules.POSTGRES).hasSeveralStatements())
                .isTrue();
        // MariaDB's /*M! ... */ is executable too
        assertThat(SqlText.parse("SELECT /*M! 1 */ 2", LexicalRules.MYSQL).hasExecutableComment()).isTrue();
    }

    @Test
    void castAfterMarkerKeepsTheCast() {
        SqlText t = SqlText.parse("SELECT :d::date", LexicalRules.POSTGRES);
        assertThat(t.jdbcSql()).isEqualTo("SELECT ?::date");
        assertThat(t.markers()).containsExactly("d");
    }

    @Test
    void detectsSecondStatementButNotTrailingSemicolons() {
        assertThat(SqlText.parse("SELECT 1;", LexicalRules.POSTGRES).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1; ; -- done\n", LexicalRules.POSTGRES).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1;", LexicalRules.POSTGRES).jdbcSql()).isEqualTo("SELECT 1");
        assertThat(SqlText.parse("SELECT 1; DELETE FROM t", LexicalRules.POSTGRES).hasSeveralStatements()).isTrue();
        assertThat(SqlText.parse("SELECT ';' AS x", LexicalRules.POSTGRES).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1 /* ; */", LexicalRules.POSTGRES).hasSeveralStatements()).isFalse();
    }

    @Test
    void backslashEscapesDependOnTheDialect() {
        String payload = "SELECT 'a\\'; DELETE FROM t; --' AS x";
        // standard SQL: the backslash is a plain character, so the literal ends after it and ';' is live
        assertThat(SqlText.parse(payload, LexicalRules.POSTGRES).hasSeveralStatements()).isTrue();
        // MySQL-style: \' is an escaped quote, so everything up to the last quote is one literal
        assertThat(SqlText.parse(payload, LexicalRules.MYSQL).hasSeveralStatements()).isFalse();
    }

    @Test
    void flagsUnterminatedTokensAndExecutableComments() {
        assertThat(SqlText.parse("SELECT 'abc", LexicalRules.POSTGRES).hasUnterminatedToken()).isTrue();
        assertThat(SqlText.parse("SELECT /* abc", LexicalRules.POSTGRES).hasUnterminatedToken()).isTrue();
        assertThat(SqlText.parse("SELECT /*!50000 1 */", LexicalRules.POSTGRES).hasExecutableComment()).isTrue();
        assertThat(SqlText.parse("SELECT ? FROM t", LexicalRules.POSTGRES).hasBarePositionalMarker()).isTrue();
        assertThat(SqlText.parse("SELECT '?' FROM t", LexicalRules.POSTGRES).hasBarePositionalMarker()).isFalse();
    }

    @Test
    void nestedBlockCommentsAreOneComment() {
        SqlText t = SqlText.parse("SELECT /* a /* b */ ; :x */ 1", LexicalRules.POSTGRES);
        assertThat(t.hasSeveralStatements()).isFalse();
        assertThat(t.markers()).isEmpty();
    }
}
