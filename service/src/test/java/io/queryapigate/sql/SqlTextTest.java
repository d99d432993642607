package io.queryapigate.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlTextTest {
    @Test
    void rewritesNamedMarkersInOrder() {
        SqlText t = SqlText.parse("SELECT * FROM t WHERE a = :a AND b = :b OR a = :a", false);
        assertThat(t.jdbcSql()).isEqualTo("SELECT * FROM t WHERE a = ? AND b = ? OR a = ?");
        assertThat(t.markers()).containsExactly("a", "b", "a");
        assertThat(t.markerNames()).containsExactly("a", "b");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT ':x' AS s",
        "SELECT \":x\" FROM t",
        "SELECT `:x` FROM t",
        "SELECT 1 -- :x",
        "SELECT /* :x */ 1",
        "SELECT a::int FROM t",
        "SELECT $$ :x $$",
        "SELECT $tag$ :x ' $tag$",
        "SELECT arr[1:2] FROM t",
        "SELECT E'\\' :x' AS s",
    })
    void markersInsideLiteralsCommentsAndCastsAreNotMarkers(String sql) {
        SqlText t = SqlText.parse(sql + "\n", false);
        assertThat(t.markers()).isEmpty();
        assertThat(t.jdbcSql()).isEqualTo(sql);
    }

    @Test
    void castAfterMarkerKeepsTheCast() {
        SqlText t = SqlText.parse("SELECT :d::date", false);
        assertThat(t.jdbcSql()).isEqualTo("SELECT ?::date");
        assertThat(t.markers()).containsExactly("d");
    }

    @Test
    void detectsSecondStatementButNotTrailingSemicolons() {
        assertThat(SqlText.parse("SELECT 1;", false).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1; ; -- done\n", false).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1;", false).jdbcSql()).isEqualTo("SELECT 1");
        assertThat(SqlText.parse("SELECT 1; DELETE FROM t", false).hasSeveralStatements()).isTrue();
        assertThat(SqlText.parse("SELECT ';' AS x", false).hasSeveralStatements()).isFalse();
        assertThat(SqlText.parse("SELECT 1 /* ; */", false).hasSeveralStatements()).isFalse();
    }

    @Test
    void backslashEscapesDependOnTheDialect() {
        String payload = "SELECT 'a\\'; DELETE FROM t; --' AS x";
        // standard SQL: the backslash is a plain character, so the literal ends after it and ';' is live
        assertThat(SqlText.parse(payload, false).hasSeveralStatements()).isTrue();
        // MySQL-style: \' is an escaped quote, so everything up to the last quote is one literal
        assertThat(SqlText.parse(payload, true).hasSeveralStatements()).isFalse();
    }

    @Test
    void flagsUnterminatedTokensAndExecutableComments() {
        assertThat(SqlText.parse("SELECT 'abc", false).hasUnterminatedToken()).isTrue();
        assertThat(SqlText.parse("SELECT /* abc", false).hasUnterminatedToken()).isTrue();
        assertThat(SqlText.parse("SELECT /*!50000 1 */", false).hasExecutableComment()).isTrue();
        assertThat(SqlText.parse("SELECT ? FROM t", false).hasBarePositionalMarker()).isTrue();
        assertThat(SqlText.parse("SELECT '?' FROM t", false).hasBarePositionalMarker()).isFalse();
    }

    @Test
    void nestedBlockCommentsAreOneComment() {
        SqlText t = SqlText.parse("SELECT /* a /* b */ ; :x */ 1", false);
        assertThat(t.hasSeveralStatements()).isFalse();
        assertThat(t.markers()).isEmpty();
    }
}
