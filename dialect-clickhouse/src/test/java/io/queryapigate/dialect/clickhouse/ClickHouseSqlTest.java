package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The statement scan: where the markers are, with ClickHouse's quoting and comment rules. {@link #mark} shows the
 * markers found as {@code #}, so each expectation reads as the statement itself.
 */
class ClickHouseSqlTest {

    /** The statement with every marker the scan found replaced by {@code #}. */
    private static String mark(String sql) {
        StringBuilder b = new StringBuilder(sql);
        for (int at : ClickHouseSql.scan(sql).markers()) {
            assertThat(sql.charAt(at)).isEqualTo('?');
            b.setCharAt(at, '#');
        }
        return b.toString();
    }

    @Test
    void markersOutsideQuotesAndComments() {
        assertThat(mark("SELECT ? AS v")).isEqualTo("SELECT # AS v");
        assertThat(mark("SELECT ?, ?+? FROM t WHERE a=?")).isEqualTo("SELECT #, #+# FROM t WHERE a=#");
        assertThat(mark("SELECT '?', \"?\", `?` , ?")).isEqualTo("SELECT '?', \"?\", `?` , #");
    }

    @Test
    void backslashEscapesAndDoubledQuotesStayInsideTheirQuotes() {
        assertThat(mark("SELECT 'it\\'s ?' , ?")).isEqualTo("SELECT 'it\\'s ?' , #");
        assertThat(mark("SELECT 'it''s ?' , ?")).isEqualTo("SELECT 'it''s ?' , #");
        assertThat(mark("SELECT 'a\\\\' , ?")).as("an escaped backslash does not escape the quote")
                .isEqualTo("SELECT 'a\\\\' , #");
        assertThat(mark("SELECT \"a\\\"?\" , `b``?` , ?")).isEqualTo("SELECT \"a\\\"?\" , `b``?` , #");
        assertThat(mark("SELECT '\\x27?' , ?")).isEqualTo("SELECT '\\x27?' , #");
        assertThat(mark("SELECT 'a\\'' , ? , '?'")).isEqualTo("SELECT 'a\\'' , # , '?'");
    }

    @Test
    void commentsHideMarkers() {
        assertThat(mark("SELECT ? -- ?\n, ?")).isEqualTo("SELECT # -- ?\n, #");
        assertThat(mark("SELECT ? // ?\n, ?")).as("// is a comment in ClickHouse").isEqualTo("SELECT # // ?\n, #");
        assertThat(mark("SELECT ? # ?\n, ?")).as("# is one on newer servers").isEqualTo("SELECT # # ?\n, #");
        assertThat(mark("SELECT /* ? */ ?")).isEqualTo("SELECT /* ? */ #");
        assertThat(mark("SELECT /* '?' */ ? /* \" */ , ?")).isEqualTo("SELECT /* '?' */ # /* \" */ , #");
        assertThat(mark("SELECT 1 -?")).isEqualTo("SELECT 1 -#");
        assertThat(mark("SELECT 1 --?")).isEqualTo("SELECT 1 --?");
        assertThat(mark("SELECT 6 /?")).isEqualTo("SELECT 6 /#");
        assertThat(mark("SELECT '--', ?")).isEqualTo("SELECT '--', #");
    }

    @Test
    void nestedBlockCommentsAndDollarsCannotCarryParameters() {
        assertThat(ClickHouseSql.scan("SELECT /* a /* b */ ? */ 1").problem()).contains("/*");
        assertThat(ClickHouseSql.scan("SELECT $$?$$").problem()).contains("$");
        assertThat(ClickHouseSql.scan("SELECT '$' , ?").problem()).isNull();
        assertThat(ClickHouseSql.scan("SELECT ?").problem()).isNull();
    }

    @Test
    void unterminatedQuotesAndCommentsAreRefused() {
        for (String sql : List.of("SELECT 'abc", "SELECT \"abc", "SELECT `abc", "SELECT 'abc\\'", "SELECT /* abc",
                "SELECT 'ab\\", "SELECT 'a'' ")) {
            assertThatThrownBy(() -> ClickHouseSql.scan(sql)).as(sql).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not closed");
        }
    }

    @Test
    void firstKeywordDecidesWhetherRowsComeBack() {
        record Case(String sql, String keyword, boolean rows) {}
        for (Case c : List.of(
                new Case("SELECT 1", "SELECT", true),
                new Case("  select 1", "SELECT", true),
                new Case("/* hi */ -- x\n ((SELECT 1))", "SELECT", true),
                new Case("WITH x AS (SELECT 1) SELECT * FROM x", "WITH", true),
                new Case("SHOW TABLES", "SHOW", true),
                new Case("DESCRIBE TABLE t", "DESCRIBE", true),
                new Case("EXISTS TABLE t", "EXISTS", true),
                new Case("KILL QUERY WHERE 1", "KILL", true),
                new Case("INSERT INTO t VALUES (1)", "INSERT", false),
                new Case("SET max_threads = 1", "SET", false),
                new Case("SELEC 1", "SELEC", false),
                new Case("'x'", "", false),
                new Case("", "", false))) {
            ClickHouseSql scan = ClickHouseSql.scan(c.sql());
            assertThat(scan.firstKeyword()).as(c.sql()).isEqualTo(c.keyword());
            assertThat(scan.returnsRows()).as(c.sql()).isEqualTo(c.rows());
        }
    }

    @Test
    void trailingSemicolonsAndCommentsAreCutOff() {
        assertThat(ClickHouseSql.scan("SELECT 1;").trimmed()).isEqualTo("SELECT 1");
        assertThat(ClickHouseSql.scan("SELECT 1 ; ; -- bye\n").trimmed()).isEqualTo("SELECT 1");
        assertThat(ClickHouseSql.scan("SELECT 1 /* c */").trimmed()).isEqualTo("SELECT 1");
        assertThat(ClickHouseSql.scan("SELECT ';'").trimmed()).isEqualTo("SELECT ';'");
        assertThat(ClickHouseSql.scan("SELECT 1; SELECT 2").trimmed()).as("a second statement stays: the server refuses it")
                .isEqualTo("SELECT 1; SELECT 2");
        assertThat(ClickHouseSql.scan("SELECT ?").trimmed()).isEqualTo("SELECT ?");
    }

    @Test
    void withTotalsIsSeenOutsideQuotesOnly() {
        assertThat(ClickHouseSql.scan("SELECT k, count() FROM t GROUP BY k WITH TOTALS").withTotals()).isTrue();
        assertThat(ClickHouseSql.scan("SELECT k FROM t GROUP BY k with /* x */ totals").withTotals()).isTrue();
        assertThat(ClickHouseSql.scan("SELECT 'WITH TOTALS'").withTotals()).isFalse();
        assertThat(ClickHouseSql.scan("WITH totals AS (SELECT 1) SELECT * FROM totals").withTotals()).as("a WITH clause")
                .isFalse();
        assertThat(ClickHouseSql.scan("SELECT * FROM (WITH 1 AS totals SELECT totals) GROUP BY 1 WITH TOTALS").withTotals())
                .isTrue();
    }
}
