package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every DuckDB type reaches the sink as one of the RowSink kinds, through the shared JDBC reader. */
class DuckDbValuesTest {

    @TempDir
    Path home;

    private Dialect dialect;

    @BeforeEach
    void open() {
        dialect = new DuckDbDialectFactory().create(new DialectContext("values", ":memory:", Optional.empty(),
                Optional.empty(), Duration.ofSeconds(30), 100, 1, home), Map.of("duckdb.read_only", "false"));
    }

    @AfterEach
    void close() {
        dialect.close();
    }

    private RecordingSink select(String expressions) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read("SELECT " + expressions, List.of(), Duration.ofSeconds(30), 10), sink);
        return sink;
    }

    private Object value(String expression) {
        return select(expression + " AS v").singleValue();
    }

    @Test
    void integers() {
        assertThat(value("1::TINYINT")).isEqualTo((byte) 1);
        assertThat(value("2::SMALLINT")).isEqualTo((short) 2);
        assertThat(value("3::INTEGER")).isEqualTo(3);
        assertThat(value("4::BIGINT")).isEqualTo(4L);
        assertThat(value("255::UTINYINT")).isEqualTo((short) 255);
        assertThat(value("4294967295::UINTEGER")).isEqualTo(4_294_967_295L);
        assertThat(value("7::UBIGINT")).isEqualTo(7L);
        assertThat(value("5::HUGEINT")).isEqualTo(5L);
        assertThat(value("18446744073709551615::UBIGINT")).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(value("170141183460469231731687303715884105727::HUGEINT"))
                .isEqualTo(new BigInteger("170141183460469231731687303715884105727"));
        assertThat(value("-9223372036854775808::HUGEINT")).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void decimalsKeepTheirScaleExactly() {
        assertThat(value("1234.50::DECIMAL(12,2)")).isEqualTo(new BigDecimal("1234.50"));
        assertThat(value("0::DECIMAL(4,2)")).isEqualTo(new BigDecimal("0.00"));
        assertThat(value("123456789012345678901234567890.123::DECIMAL(38,3)"))
                .isEqualTo(new BigDecimal("123456789012345678901234567890.123"));
        assertThat(value("1.25::REAL")).isEqualTo(1.25f);
        assertThat(value("2.5::DOUBLE")).isEqualTo(2.5d);
        assertThat(value("'NaN'::DOUBLE")).isEqualTo(Double.NaN);
    }

    @Test
    void datesAndTimes() {
        assertThat(value("DATE '2024-02-29'")).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(value("TIME '13:14:15.123456'")).isEqualTo(LocalTime.of(13, 14, 15, 123_456_000));
        assertThat(value("TIMESTAMP '2024-02-29 13:14:15.123456'")).isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000));
        assertThat(value("TIMESTAMP_NS '2024-01-01 00:00:01.123456789'")).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 1, 123_456_789));
        assertThat(value("TIMESTAMP_MS '2024-01-01 00:00:01.5'")).isEqualTo(LocalDateTime.of(2024, 1, 1, 0, 0, 1, 500_000_000));
        assertThat(value("TIMESTAMPTZ '2024-02-29 13:14:15+02'"))
                .isEqualTo(OffsetDateTime.of(2024, 2, 29, 11, 14, 15, 0, ZoneOffset.UTC));
        assertThat(value("TIMETZ '13:14:15+02'")).isEqualTo("13:14:15+02:00");
        assertThat(value("'-infinity'::DATE")).isEqualTo(LocalDate.MIN.withYear(-5_877_641).withMonth(6).withDayOfMonth(24));
        // no DST gap: 02:30 on 2024-03-31 does not exist in Europe but is a valid TIMESTAMP without zone
        assertThat(value("TIMESTAMP '2024-03-31 02:30:00'")).isEqualTo(LocalDateTime.of(2024, 3, 31, 2, 30));
    }

    @Test
    void textBinaryUuidBooleanAndOthers() {
        assertThat(value("'héllo'::VARCHAR")).isEqualTo("héllo");
        assertThat(value("true")).isEqualTo(true);
        assertThat(value("'\\xAA\\xBB'::BLOB")).isEqualTo(new byte[] {(byte) 0xAA, (byte) 0xBB});
        assertThat(value("'5d4ec7b2-9b6f-4bd0-8b2c-3b2c9b1f8e11'::UUID")).isEqualTo(UUID.fromString("5d4ec7b2-9b6f-4bd0-8b2c-3b2c9b1f8e11"));
        assertThat(value("INTERVAL 3 DAY")).isEqualTo("3 days");
        assertThat(value("'a'::ENUM('a', 'b')")).isEqualTo("a");
        assertThat(value("'{\"a\": [1, 2]}'::JSON")).isEqualTo("{\"a\": [1, 2]}");
        assertThat(value("NULL::INTEGER")).isNull();
    }

    @Test
    void nestedTypesBecomeListsAndMaps() {
        assertThat(value("[1, 2, 3]")).isEqualTo(List.of(1, 2, 3));
        assertThat(value("['a', NULL]")).isEqualTo(Arrays.asList("a", null));
        assertThat(value("[[1, 2], [3]]")).isEqualTo(List.of(List.of(1, 2), List.of(3)));
        assertThat(value("[1, 2]::INTEGER[2]")).isEqualTo(List.of(1, 2));
        Map<String, Object> struct = new LinkedHashMap<>();
        struct.put("k", 1);
        struct.put("when", LocalDate.of(2020, 1, 1));
        struct.put("tags", List.of("x"));
        struct.put("inner", Map.of("big", new BigInteger("18446744073709551615")));
        assertThat(value("{'k': 1, 'when': DATE '2020-01-01', 'tags': ['x'], 'inner': {'big': 18446744073709551615::UBIGINT}}"))
                .isEqualTo(struct);
        assertThat(value("MAP {'a': TIMESTAMP '2020-01-01 00:00:00', 'b': NULL}"))
                .isEqualTo(new LinkedHashMap<>(Map.of("a", LocalDateTime.of(2020, 1, 1, 0, 0))) {{ put("b", null); }});
        assertThat(value("MAP {1: 'one'}")).isEqualTo(Map.of("1", "one"));
        assertThat(value("[{'a': 1}]")).isEqualTo(List.of(Map.of("a", 1)));
    }

    @Test
    void columnsCarryDuckDbTypeNamesAndTheNearestJdbcType() {
        RecordingSink sink = select("1::BIGINT AS b, 1.5::DECIMAL(12,2) AS d, TIMESTAMPTZ '2024-01-01 00:00:00+00' AS tz,"
                + " 1::HUGEINT AS h, [1] AS l, 'x' AS s, 'x' AS s");
        assertThat(sink.columns()).containsExactly(
                new ColumnInfo("b", "BIGINT", JDBCType.BIGINT),
                new ColumnInfo("d", "DECIMAL(12,2)", JDBCType.DECIMAL),
                new ColumnInfo("tz", "TIMESTAMP WITH TIME ZONE", JDBCType.TIMESTAMP_WITH_TIMEZONE),
                new ColumnInfo("h", "HUGEINT", JDBCType.OTHER),
                new ColumnInfo("l", "INTEGER[]", JDBCType.ARRAY),
                new ColumnInfo("s", "VARCHAR", JDBCType.VARCHAR),
                new ColumnInfo("s", "VARCHAR", JDBCType.VARCHAR));
    }
}
