package io.queryapigate.paging;

import io.queryapigate.config.FormatsConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.errors.ApiException;
import io.queryapigate.sql.SqlDialectFamily;
import java.sql.JDBCType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PagingTest {
    static final Paging PAGING = Paging.defaults();

    // ------------------------------------------------------------------------------------------- parameters

    @Test
    void absentParametersMeanTheFirstPageOfTheDefaultSize() {
        for (String absent : new String[] {null, "", " "}) {
            PageRequest r = PAGING.parse(absent, absent);
            assertThat(r.page()).isEqualTo(1);
            assertThat(r.pageSize()).isEqualTo(10);
            assertThat(r.asked()).isFalse();
        }
        assertThat(PAGING.parse("1", null).asked()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {"1,10,1,10", "3,NULL,3,10", "NULL,50,1,50", "2,1000,2,1000",
        "007,5,7,5", "2147483647,1,2147483647,1", "+2,10,2,10", "' 3 ',NULL,3,10", "'',7,1,7"})
    void validParameters(String page, String size, long expectedPage, int expectedSize) {
        PageRequest r = PAGING.parse(page, size);
        assertThat(r.page()).isEqualTo(expectedPage);
        assertThat(r.pageSize()).isEqualTo(expectedSize);
        assertThat(r.offset()).isEqualTo((expectedPage - 1) * expectedSize);
        assertThat(r.fetch()).isEqualTo(expectedSize + 1);
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {"0,10,page", "-1,10,page", "2147483648,10,page",
        "99999999999999999999,10,page", "9999999999999999999,10,page", "1,0,page_size", "1,-1,page_size",
        "1,1001,page_size"})
    void outOfRangeParametersAre400InvalidPaging(String page, String size, String field) {
        assertThatThrownBy(() -> PAGING.parse(page, size)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("invalid_paging");
            assertThat(e.errors()).containsOnlyKeys(field);
            assertThat(e.getMessage()).contains(field);
        });
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {"abc,10,page", "1.5,10,page", "-,10,page", "1,ten,page_size",
        "NULL,0x10,page_size", "NULL,1e3,page_size"})
    void parametersThatAreNotIntegersAre400InvalidRequest(String page, String size, String field) {
        assertThatThrownBy(() -> PAGING.parse(page, size)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.code()).isEqualTo("invalid_request");
            assertThat(e.errors()).containsOnlyKeys(field);
            assertThat(e.getMessage()).isEqualTo(field + " must be an integer");
        });
    }

    @Test
    void bothBadParametersAreReportedTogether() {
        assertThatThrownBy(() -> PAGING.parse("0", "5000")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.errors()).containsOnlyKeys("page", "page_size"));
    }

    @Test
    void theMaximumComesFromConfiguration() {
        Paging small = new Paging(50, 20);
        assertThat(small.parse("1", null).pageSize()).isEqualTo(20);
        assertThat(small.parse("1", "50").pageSize()).isEqualTo(50);
        assertThatThrownBy(() -> small.parse("1", "51")).isInstanceOf(ApiException.class)
                .hasMessageContaining("must not exceed 50");
        FormatsConfig config = new FormatsConfig();
        config.setMaxPageSize(200);
        assertThat(config.paging().maxPageSize()).isEqualTo(200);
    }

    // ---------------------------------------------------------------------------------------------- rewrite

    static Arguments golden(String family, String sql, long page, int size, PagedSql.Mode mode, String expected) {
        return Arguments.of(family, sql, page, size, mode, expected);
    }

    static Stream<Arguments> goldens() {
        PagedSql.Mode a = PagedSql.Mode.APPENDED;
        PagedSql.Mode n = PagedSql.Mode.NARROWED;
        PagedSql.Mode w = PagedSql.Mode.WRAPPED;
        PagedSql.Mode c = PagedSql.Mode.CLIENT;
        String wrapOpen = "SELECT * FROM (\n";
        String wrapClose = "\n) AS qag_page\n";
        return Stream.of(
                // no window of its own: appended
                golden("postgres", "SELECT a FROM t", 1, 10, a, "SELECT a FROM t\nLIMIT 11"),
                golden("postgres", "SELECT a FROM t", 3, 10, a, "SELECT a FROM t\nLIMIT 11 OFFSET 20"),
                golden("postgres", "SELECT a FROM t ORDER BY a DESC;", 2, 5, a,
                        "SELECT a FROM t ORDER BY a DESC\nLIMIT 6 OFFSET 5"),
                golden("postgres", "SELECT a FROM t -- trailing note", 2, 5, a, "SELECT a FROM t\nLIMIT 6 OFFSET 5"),
                golden("duckdb", "SELECT a FROM t /* c */ ; ; -- done\n", 2, 5, a, "SELECT a FROM t\nLIMIT 6 OFFSET 5"),
                golden("mysql", "SELECT a FROM t WHERE b = ? # mysql comment", 2, 5, a,
                        "SELECT a FROM t WHERE b = ?\nLIMIT 6 OFFSET 5"),
                golden("mysql", "SELECT 'it\\'s', a FROM t", 1, 5, a, "SELECT 'it\\'s', a FROM t\nLIMIT 6"),
                golden("trino", "WITH x AS (SELECT 1 AS a) SELECT * FROM x", 3, 10, a,
                        "WITH x AS (SELECT 1 AS a) SELECT * FROM x\nOFFSET 20 LIMIT 11"),
                golden("trino", "SELECT a FROM t ORDER BY a", 1, 10, a, "SELECT a FROM t ORDER BY a\nLIMIT 11"),
                golden("clickhouse", "SELECT a FROM t ORDER BY a", 2, 10, a, "SELECT a FROM t ORDER BY a\nLIMIT 11 OFFSET 10"),
                golden("clickhouse", "SELECT a, b FROM t ORDER BY b LIMIT 1 BY a", 2, 10, a,
                        "SELECT a, b FROM t ORDER BY b LIMIT 1 BY a\nLIMIT 11 OFFSET 10"),
                golden("sqlite", "SELECT [a b] FROM t", 2, 10, a, "SELECT [a b] FROM t\nLIMIT 11 OFFSET 10"),
                golden("duckdb", "SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1", 2, 10, a,
                        "SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY 1\nLIMIT 11 OFFSET 10"),
                golden("postgres", "(SELECT a FROM t LIMIT 2) UNION ALL (SELECT a FROM u LIMIT 3)", 1, 10, a,
                        "(SELECT a FROM t LIMIT 2) UNION ALL (SELECT a FROM u LIMIT 3)\nLIMIT 11"),
                golden("postgres", "SELECT * FROM (SELECT a FROM t LIMIT 5) s", 1, 10, a,
                        "SELECT * FROM (SELECT a FROM t LIMIT 5) s\nLIMIT 11"),
                golden("postgres", "SELECT $q$ LIMIT 5; $q$ AS s FROM t", 1, 10, a,
                        "SELECT $q$ LIMIT 5; $q$ AS s FROM t\nLIMIT 11"),
                golden("postgres", "SELECT 'x LIMIT 3' FROM t", 1, 10, a, "SELECT 'x LIMIT 3' FROM t\nLIMIT 11"),
                golden("duckdb", "VALUES (1), (2), (3)", 1, 2, a, "VALUES (1), (2), (3)\nLIMIT 3"),
                // a literal window: narrowed to its intersection with the page
                golden("postgres", "SELECT a FROM t LIMIT 100", 3, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 20"),
                golden("postgres", "SELECT a FROM t ORDER BY a LIMIT 25", 3, 10, n,
                        "SELECT a FROM t ORDER BY a\nLIMIT 5 OFFSET 20"),
                golden("postgres", "SELECT a FROM t LIMIT 15", 3, 10, n, "SELECT a FROM t\nLIMIT 0 OFFSET 20"),
                golden("postgres", "SELECT a FROM t LIMIT 100 OFFSET 5", 3, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 25"),
                golden("postgres", "SELECT a FROM t OFFSET 5 LIMIT 100", 1, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 5"),
                golden("mysql", "SELECT a FROM t ORDER BY a LIMIT 5, 100", 3, 10, n,
                        "SELECT a FROM t ORDER BY a\nLIMIT 11 OFFSET 25"),
                golden("sqlite", "SELECT a FROM t LIMIT 40, 15", 2, 10, n, "SELECT a FROM t\nLIMIT 5 OFFSET 50"),
                golden("postgres", "SELECT a FROM t LIMIT ALL", 2, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 10"),
                golden("postgres", "SELECT a FROM t LIMIT ALL OFFSET 3", 1, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 3"),
                golden("postgres", "SELECT a FROM t OFFSET 5", 1, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 5"),
                golden("postgres", "SELECT a FROM t OFFSET 5 ROWS", 2, 10, n, "SELECT a FROM t\nLIMIT 11 OFFSET 15"),
                golden("postgres", "SELECT a FROM t ORDER BY a OFFSET 5 ROWS FETCH NEXT 100 ROWS ONLY", 3, 10, n,
                        "SELECT a FROM t ORDER BY a\nLIMIT 11 OFFSET 25"),
                golden("postgres", "SELECT a FROM t FETCH FIRST 12 ROWS ONLY", 2, 10, n,
                        "SELECT a FROM t\nLIMIT 2 OFFSET 10"),
                golden("postgres", "SELECT a FROM t FETCH FIRST ROW ONLY", 1, 10, n, "SELECT a FROM t\nLIMIT 1"),
                golden("duckdb", "SELECT a FROM t FETCH NEXT 1 ROW ONLY", 1, 10, n, "SELECT a FROM t\nLIMIT 1"),
                golden("trino", "SELECT a FROM t ORDER BY a OFFSET 10 LIMIT 100", 2, 10, n,
                        "SELECT a FROM t ORDER BY a\nOFFSET 20 LIMIT 11"),
                golden("trino", "SELECT a FROM t ORDER BY a LIMIT 5", 1, 10, n, "SELECT a FROM t ORDER BY a\nLIMIT 5"),
                golden("duckdb", "SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 30", 3, 10, n,
                        "SELECT a FROM t UNION SELECT b FROM u ORDER BY 1\nLIMIT 10 OFFSET 20"),
                golden("postgres", "WITH x AS (SELECT a FROM t LIMIT 7) SELECT * FROM x LIMIT 50 -- c\n;", 2, 10, n,
                        "WITH x AS (SELECT a FROM t LIMIT 7) SELECT * FROM x\nLIMIT 11 OFFSET 10"),
                golden("postgres", "SELECT a FROM t ORDER BY a LIMIT 50 /* why */ OFFSET 2", 1, 10, n,
                        "SELECT a FROM t ORDER BY a\nLIMIT 11 OFFSET 2"),
                golden("clickhouse", "SELECT a FROM t LIMIT 10 OFFSET 10", 1, 5, n, "SELECT a FROM t\nLIMIT 6 OFFSET 10"),
                golden("postgres", "(SELECT a FROM t) LIMIT 4", 1, 10, n, "(SELECT a FROM t)\nLIMIT 4"),
                // markers, expressions, ties, percent: wrapped
                golden("postgres", "SELECT a FROM t LIMIT ?", 3, 10, w,
                        wrapOpen + "SELECT a FROM t LIMIT ?" + wrapClose + "LIMIT 11 OFFSET 20"),
                golden("duckdb", "SELECT a FROM t WHERE b > ? ORDER BY a LIMIT ? OFFSET ?;", 1, 10, w,
                        wrapOpen + "SELECT a FROM t WHERE b > ? ORDER BY a LIMIT ? OFFSET ?" + wrapClose + "LIMIT 11"),
                golden("mysql", "SELECT a FROM t LIMIT ?, ?", 2, 10, w,
                        wrapOpen + "SELECT a FROM t LIMIT ?, ?" + wrapClose + "LIMIT 11 OFFSET 10"),
                golden("postgres", "SELECT a FROM t LIMIT 10 OFFSET ?", 2, 5, w,
                        wrapOpen + "SELECT a FROM t LIMIT 10 OFFSET ?" + wrapClose + "LIMIT 6 OFFSET 5"),
                golden("postgres", "SELECT a FROM t OFFSET ? ROWS FETCH FIRST ? ROWS ONLY", 2, 5, w,
                        wrapOpen + "SELECT a FROM t OFFSET ? ROWS FETCH FIRST ? ROWS ONLY" + wrapClose + "LIMIT 6 OFFSET 5"),
                golden("trino", "SELECT a FROM t ORDER BY a LIMIT ?", 2, 5, w,
                        wrapOpen + "SELECT a FROM t ORDER BY a LIMIT ?" + wrapClose + "OFFSET 5 LIMIT 6"),
                golden("postgres", "SELECT a FROM t LIMIT 10 + 1", 1, 5, w,
                        wrapOpen + "SELECT a FROM t LIMIT 10 + 1" + wrapClose + "LIMIT 6"),
                golden("postgres", "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES", 1, 5, w,
                        wrapOpen + "SELECT a FROM t ORDER BY a FETCH FIRST 3 ROWS WITH TIES" + wrapClose + "LIMIT 6"),
                golden("sqlite", "SELECT a FROM t LIMIT -1", 1, 5, w,
                        wrapOpen + "SELECT a FROM t LIMIT -1" + wrapClose + "LIMIT 6"),
                // generic JDBC, locking and ClickHouse tails, unparseable selects: client side
                golden("generic", "SELECT a FROM t LIMIT 5", 2, 10, c, "SELECT a FROM t LIMIT 5"),
                golden("h2", "SELECT a FROM t;", 2, 10, c, "SELECT a FROM t"),
                golden("postgres", "SELECT a FROM t FOR UPDATE", 2, 10, c, "SELECT a FROM t FOR UPDATE"),
                golden("mysql", "SELECT a FROM t LOCK IN SHARE MODE", 2, 10, c, "SELECT a FROM t LOCK IN SHARE MODE"),
                golden("clickhouse", "SELECT a FROM t SETTINGS max_threads = 1", 2, 10, c,
                        "SELECT a FROM t SETTINGS max_threads = 1"),
                golden("clickhouse", "SELECT a FROM t FORMAT JSONEachRow", 2, 10, c, "SELECT a FROM t FORMAT JSONEachRow"),
                golden("duckdb", "FROM t SELECT a", 2, 10, c, "FROM t SELECT a"));
    }

    @ParameterizedTest(name = "{0}: {1} (page {2} of {3})")
    @MethodSource("goldens")
    void goldenRewrites(String family, String sql, long page, int size, PagedSql.Mode mode, String expected) {
        PagedSql r = PAGING.rewrite(sql, new PageRequest(page, size), SqlDialectFamily.of(family));
        assertThat(r.sql()).isEqualTo(expected);
        assertThat(r.mode()).isEqualTo(mode);
        assertThat(r.skip()).isEqualTo(mode == PagedSql.Mode.CLIENT ? (page - 1) * size : 0);
        assertThat(count(r.sql(), '?')).isEqualTo(count(sql, '?'));
    }

    static long count(String s, char c) {
        return s.chars().filter(x -> x == c).count();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "postgres|INSERT INTO t VALUES (1)", "postgres|UPDATE t SET a = 1", "postgres|DELETE FROM t",
        "mysql|SHOW TABLES", "postgres|EXPLAIN SELECT 1", "duckdb|CREATE TABLE x AS SELECT 1",
        "postgres|SELECT 1; SELECT 2", "postgres|''", "postgres|-- only a comment", "postgres|SELECT a INTO b FROM t",
        "postgres|WITH x AS (SELECT 1) DELETE FROM t", "generic|CALL p()", "postgres|SELECT 'unterminated"})
    void nonSelectStatementsAreNotPageable(String family, String sql) {
        assertThatThrownBy(() -> PAGING.rewrite(sql, new PageRequest(1, 10), SqlDialectFamily.of(family)))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.code()).isEqualTo("invalid_paging");
                });
    }

    // -------------------------------------------------------------------------------------------- page sink

    static final class Collect implements RowSink {
        final List<Object> rows = new ArrayList<>();

        @Override
        public void columns(List<ColumnInfo> columns) {}

        @Override
        public boolean row(Object[] values) {
            rows.add(values[0]);
            return true;
        }
    }

    /** Pushes rows 1..total like a dialect that stops when told. */
    static void push(RowSink sink, int total) {
        sink.columns(List.of(new ColumnInfo("n", "INT", JDBCType.INTEGER)));
        for (int i = 1; i <= total; i++) {
            if (!sink.row(new Object[] {i})) {
                return;
            }
        }
    }

    @Test
    void sinkTrimsTheExtraRowAndReportsMore() {
        PagedSql paged = PAGING.rewrite("SELECT n FROM t", new PageRequest(2, 3), SqlDialectFamily.POSTGRES);
        Collect target = new Collect();
        PageSink sink = paged.sink(target);
        push(sink, 4); // the database returns pageSize + 1 rows
        assertThat(target.rows).containsExactly(1, 2, 3);
        assertThat(sink.hasMore()).isTrue();
        assertThat(sink.headers()).containsExactly(java.util.Map.entry("X-Page", "2"),
                java.util.Map.entry("X-Page-Size", "3"), java.util.Map.entry("X-Row-Count", "3"),
                java.util.Map.entry("X-Has-More", "true"));
        Collect last = new Collect();
        PageSink lastSink = paged.sink(last);
        push(lastSink, 2);
        assertThat(last.rows).containsExactly(1, 2);
        assertThat(lastSink.hasMore()).isFalse();
        assertThat(lastSink.headers()).containsEntry("X-Has-More", "false").containsEntry("X-Row-Count", "2");
    }

    @Test
    void readsThatAreNotSelectsArePagedWhileReading() {
        for (String read : new String[] {"SHOW TABLES", "DESCRIBE film", "PRAGMA table_info('film')"}) {
            assertThatThrownBy(() -> PAGING.rewrite(read, new PageRequest(2, 5), SqlDialectFamily.of("duckdb")))
                    .isInstanceOf(ApiException.class);
            PagedSql r = PAGING.rewriteRead(read, new PageRequest(2, 5), SqlDialectFamily.of("duckdb"),
                    SqlDialectFamily.of("duckdb").lexicalRules());
            assertThat(r.sql()).isEqualTo(read);
            assertThat(r.mode()).isEqualTo(PagedSql.Mode.CLIENT);
            assertThat(r.skip()).isEqualTo(5);
        }
    }

    @Test
    void clientSideSinkSkipsAndCuts() {
        PagedSql paged = PAGING.rewrite("SELECT n FROM t", new PageRequest(3, 4), SqlDialectFamily.GENERIC);
        Collect target = new Collect();
        PageSink sink = paged.sink(target);
        push(sink, 100);
        assertThat(target.rows).containsExactly(9, 10, 11, 12);
        assertThat(sink.hasMore()).isTrue();
        Collect end = new Collect();
        PageSink endSink = paged.sink(end);
        push(endSink, 10);
        assertThat(end.rows).containsExactly(9, 10);
        assertThat(endSink.hasMore()).isFalse();
    }
}
