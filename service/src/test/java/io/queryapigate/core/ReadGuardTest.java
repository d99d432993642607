package io.queryapigate.core;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.errors.ApiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadGuardTest {
    private static void check(String sql) {
        SqlText t = SqlText.parse(sql, false);
        ReadGuard.checkShape(t, 65_536);
        ReadGuard.checkRead(t);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT 1",
        "  select * from film where film_id = :id",
        "(SELECT 1) UNION (SELECT 2)",
        "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
        "VALUES (1), (2)",
        "SELECT 'insert into t values (1); drop table t' AS s",
        "SELECT \"update\", updated_at, deleted, insert_count FROM t",
        "SELECT replace(title, 'a', 'b') FROM film",
        "SELECT 1 -- delete everything\n",
        "SELECT 1; ",
    })
    void readsPass(String sql) {
        assertThatCode(() -> check(sql)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t VALUES (1)",
        "/* hi */ UPDATE t SET a = 1",
        "DELETE FROM t",
        "DROP TABLE t",
        "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
        "with u as (update t set a = 1 returning *) select * from u",
        "EXPLAIN ANALYZE DELETE FROM t",
        "SELECT * INTO new_table FROM t",
        "SELECT * FROM t INTO OUTFILE '/tmp/x'",
        "SELECT /*!50000 1 */",
        "SET search_path = evil",
        "COPY t TO '/tmp/x'",
        "ATTACH 'x.db' AS x",
        "SELECT * FROM t FOR UPDATE",
        "CALL proc()",
        "PRAGMA table_info(t)",
        "SELECT set_config('a','b',false) FROM t FOR SHARE",
        "REPLACE INTO t VALUES (1)",
    })
    void writesAndSessionChangesAreRefused(String sql) {
        assertThatThrownBy(() -> check(sql)).isInstanceOf(ApiException.class)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((ApiException) e).status())
                        .isIn(400, 403));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 1; DELETE FROM t", "SELECT 1; SELECT 2", "SELECT 'a'; SELECT 'b'"})
    void secondStatementsAreRefusedAs400(String sql) {
        assertThatThrownBy(() -> check(sql)).isInstanceOfSatisfying(ApiException.class, e -> {
            org.assertj.core.api.Assertions.assertThat(e.status()).isEqualTo(400);
            org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("multiple_statements");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", ";", "-- only a comment"})
    void emptySqlIsRefused(String sql) {
        assertThatThrownBy(() -> check(sql)).isInstanceOfSatisfying(ApiException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("sql_required"));
    }

    @org.junit.jupiter.api.Test
    void tooLongSqlIsRefused() {
        String sql = "SELECT '" + "x".repeat(70_000) + "'";
        assertThatThrownBy(() -> ReadGuard.checkShape(SqlText.parse(sql, false), 65_536))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.status()).isEqualTo(413);
                    org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("sql_too_long");
                });
    }
}
