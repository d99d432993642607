package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.Parameter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Golden literals: what each parameter value becomes in the statement text. */
class ClickHouseLiteralsTest {

    private static String lit(Object value, JDBCType type) {
        return ClickHouseLiterals.literal(new Parameter("p", value, type));
    }

    private static String render(String sql, Object... values) {
        List<Parameter> ps = Arrays.stream(values).map(v -> new Parameter("p", v, JDBCType.OTHER)).toList();
        return ClickHouseLiterals.render(ClickHouseSql.scan(sql), ps);
    }

    @Test
    void numbers() {
        assertThat(lit(42L, JDBCType.BIGINT)).isEqualTo("42");
        assertThat(lit(-9_223_372_036_854_775_808L, JDBCType.BIGINT)).isEqualTo("-9223372036854775808");
        assertThat(lit(7, JDBCType.INTEGER)).isEqualTo("7");
        assertThat(lit(new BigInteger("18446744073709551615"), JDBCType.NUMERIC)).isEqualTo("18446744073709551615");
        assertThat(lit(1.0e10d, JDBCType.DOUBLE)).isEqualTo("1.0E10");
        assertThat(lit(-0.01d, JDBCType.DOUBLE)).isEqualTo("-0.01");
        assertThat(lit(Double.NaN, JDBCType.DOUBLE)).isEqualTo("nan");
        assertThat(lit(Double.NEGATIVE_INFINITY, JDBCType.DOUBLE)).isEqualTo("-inf");
        assertThat(lit(new BigDecimal("-0.01"), JDBCType.DECIMAL)).isEqualTo("toDecimal128('-0.01', 2)");
        assertThat(lit(new BigDecimal("1E+3"), JDBCType.DECIMAL)).isEqualTo("toDecimal128('1000', 0)");
        assertThat(lit(true, JDBCType.BOOLEAN)).isEqualTo("1");
        assertThat(lit(false, JDBCType.BOOLEAN)).isEqualTo("0");
        assertThat(lit(null, JDBCType.VARCHAR)).isEqualTo("NULL");
    }

    @Test
    void datesAndTimes() {
        assertThat(lit(LocalDate.of(2000, 2, 29), JDBCType.DATE)).isEqualTo("toDate('2000-02-29')");
        assertThat(lit(LocalDateTime.of(2038, 1, 19, 3, 14, 8), JDBCType.TIMESTAMP))
                .isEqualTo("toDateTime('2038-01-19 03:14:08')");
        assertThat(lit(LocalDateTime.of(2024, 1, 1, 0, 0), JDBCType.TIMESTAMP)).isEqualTo("toDateTime('2024-01-01 00:00:00')");
        assertThat(lit(OffsetDateTime.of(2024, 1, 15, 19, 30, 0, 0, ZoneOffset.ofHours(9)), JDBCType.TIMESTAMP_WITH_TIMEZONE))
                .isEqualTo("toDateTime('2024-01-15 10:30:00', 'UTC')");
        assertThat(lit(UUID.fromString("341733bc-869f-49b4-abb8-92ed88ce5b21"), JDBCType.OTHER))
                .isEqualTo("toUUID('341733bc-869f-49b4-abb8-92ed88ce5b21')");
    }

    @Test
    void stringsAreEscapedSoThatTheyEndAtTheirClosingQuote() {
        assertThat(lit("it's", JDBCType.VARCHAR)).isEqualTo("'it\\'s'");
        assertThat(lit("a\\b", JDBCType.VARCHAR)).isEqualTo("'a\\\\b'");
        assertThat(lit("x'; DROP TABLE t; --", JDBCType.VARCHAR)).isEqualTo("'x\\'; DROP TABLE t; --'");
        assertThat(lit("\\'", JDBCType.VARCHAR)).isEqualTo("'\\\\\\''");
        assertThat(lit("l1\nl2\r\t\0\b\f\u0001\u007f", JDBCType.VARCHAR))
                .isEqualTo("'l1\\nl2\\r\\t\\0\\b\\f\\x01\\x7F'");
        assertThat(lit("*/ /* //", JDBCType.VARCHAR)).as("no comment delimiter survives").isEqualTo("'*\\/ \\/* \\/\\/'");
        assertThat(lit("ünïcödé ✓ 😀", JDBCType.VARCHAR)).isEqualTo("'ünïcödé ✓ 😀'");
        assertThat(lit("", JDBCType.VARCHAR)).isEqualTo("''");
    }

    @Test
    void literalsArePlacedWithSpacesSoTheyCannotMergeWithNeighbours() {
        assertThat(render("SELECT ? AS v", "x")).isEqualTo("SELECT  'x'  AS v");
        assertThat(render("SELECT 1 -?", -5L)).as("not the comment --5").isEqualTo("SELECT 1 - -5 ");
        assertThat(render("SELECT 'a'?", "b")).as("not the one string 'a''b'").isEqualTo("SELECT 'a' 'b' ");
        assertThat(render("SELECT ?, '?', ? -- ?", 1L, 2L)).as("trailing comments are cut off")
                .isEqualTo("SELECT  1 , '?',  2 ");
        assertThat(render("SELECT ?;", 1L)).isEqualTo("SELECT  1 ");
    }

    @Test
    void valuesClickHouseCannotHoldAreRefusedNotChanged() {
        assertThatThrownBy(() -> lit(LocalDate.of(1969, 12, 31), JDBCType.DATE)).hasMessageContaining("outside");
        assertThatThrownBy(() -> lit(LocalDate.of(2106, 1, 1), JDBCType.DATE)).hasMessageContaining("outside");
        assertThatThrownBy(() -> lit(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000_000), JDBCType.TIMESTAMP))
                .hasMessageContaining("whole seconds");
        assertThatThrownBy(() -> lit(new BigDecimal("1" + "0".repeat(38)), JDBCType.DECIMAL))
                .hasMessageContaining("38 digits");
        assertThatThrownBy(() -> lit(4.9e-324, JDBCType.DOUBLE)).hasMessageContaining("subnormal");
        assertThatThrownBy(() -> lit(BigInteger.ONE.shiftLeft(64), JDBCType.NUMERIC)).hasMessageContaining("UInt64");
        assertThatThrownBy(() -> lit("a\uD800b", JDBCType.VARCHAR)).hasMessageContaining("lone surrogate")
                .hasMessageContaining("'p'");
        assertThatThrownBy(() -> lit(new Object(), JDBCType.OTHER)).hasMessageContaining("cannot be sent");
    }

    @Test
    void markerCountsMustMatchAndUnsafeStatementsAreRefused() {
        assertThatThrownBy(() -> render("SELECT ?, ?", 1L)).hasMessageContaining("2 parameter markers")
                .hasMessageContaining("1 parameter was given");
        assertThatThrownBy(() -> render("SELECT 1", 1L)).hasMessageContaining("0 parameter markers");
        assertThatThrownBy(() -> render("SELECT /* /* */ ?", 1L)).hasMessageContaining("nest");
        assertThatThrownBy(() -> render("SELECT $$x$$, ?", 1L)).hasMessageContaining("$$");
        assertThat(render("SELECT /* /* */ 1")).as("no parameters: nothing to place").isEqualTo("SELECT /* /* */ 1");
    }
}
