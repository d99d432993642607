package io.queryapigate.sql;

import io.queryapigate.dialect.spi.LexicalRules;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.errors.ApiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlShapeTest {
    private static void check(String sql) {
        SqlText t = SqlText.parse(sql, LexicalRules.POSTGRES);
        SqlShape.checkShape(t, 65_536);
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
    @ValueSource(strings = {"", "   ", ";"})
    void emptySqlIsRefused(String sql) {
        assertThatThrownBy(() -> check(sql)).isInstanceOfSatisfying(ApiException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("sql_required"));
    }

    @org.junit.jupiter.api.Test
    void tooLongSqlIsRefused() {
        String sql = "SELECT '" + "x".repeat(70_000) + "'";
        assertThatThrownBy(() -> SqlShape.checkShape(SqlText.parse(sql, LexicalRules.POSTGRES), 65_536))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    org.assertj.core.api.Assertions.assertThat(e.status()).isEqualTo(413);
                    org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo("sql_too_long");
                });
    }
}
