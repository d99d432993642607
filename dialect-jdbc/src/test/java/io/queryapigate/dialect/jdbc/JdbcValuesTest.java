package io.queryapigate.dialect.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.JDBCType;
import java.sql.SQLException;
import java.sql.Struct;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JdbcValuesTest {

    @Test
    void keepsTheSinkKindsAsTheyAre() throws SQLException {
        byte[] bytes = {1, 2};
        UUID uuid = UUID.fromString("5d4ec7b2-9b6f-4bd0-8b2c-3b2c9b1f8e11");
        for (Object value : List.of("s", true, 1L, 2, (short) 3, (byte) 4, new BigDecimal("1.50"), 2.5d, 1.25f,
                LocalDate.of(2024, 2, 29), LocalTime.of(1, 2, 3), LocalDateTime.of(2024, 1, 1, 0, 0),
                OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHours(2)), uuid)) {
            assertThat(JdbcValues.normalize(value)).isSameAs(value);
        }
        assertThat(JdbcValues.normalize(bytes)).isSameAs(bytes);
        assertThat(JdbcValues.normalize(null)).isNull();
    }

    @Test
    void bigIntegersBecomeLongsOnlyWhenTheyFit() throws SQLException {
        assertThat(JdbcValues.normalize(BigInteger.valueOf(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(JdbcValues.normalize(BigInteger.valueOf(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
        BigInteger tooBig = BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE);
        assertThat(JdbcValues.normalize(tooBig)).isEqualTo(tooBig);
        BigInteger unsigned64 = new BigInteger("18446744073709551615");
        assertThat(JdbcValues.normalize(unsigned64)).isInstanceOf(BigInteger.class).isEqualTo(unsigned64);
    }

    @Test
    void legacyDateTimeTypesBecomeJavaTime() throws SQLException {
        assertThat(JdbcValues.normalize(Timestamp.valueOf("2024-02-29 13:14:15.123456789")))
                .isEqualTo(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123456789));
        assertThat(JdbcValues.normalize(java.sql.Date.valueOf("1999-12-31"))).isEqualTo(LocalDate.of(1999, 12, 31));
        assertThat(JdbcValues.normalize(java.sql.Time.valueOf("23:59:58"))).isEqualTo(LocalTime.of(23, 59, 58));
        assertThat(JdbcValues.normalize(Instant.parse("2024-01-01T00:00:00Z")))
                .isEqualTo(OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
        assertThat(JdbcValues.normalize(ZonedDateTime.of(2024, 7, 1, 12, 0, 0, 0, ZoneId.of("Europe/Paris"))))
                .isEqualTo(OffsetDateTime.of(2024, 7, 1, 12, 0, 0, 0, ZoneOffset.ofHours(2)));
        assertThat(JdbcValues.normalize(OffsetTime.of(13, 14, 15, 0, ZoneOffset.ofHours(2)))).isEqualTo("13:14:15+02:00");
    }

    @Test
    void arraysCollectionsAndMapsAreConvertedAtEveryDepth() throws SQLException {
        Object nested = new Object[] {new int[] {1, 2}, List.of(Timestamp.valueOf("2020-01-01 00:00:00")), null};
        assertThat(JdbcValues.normalize(nested))
                .isEqualTo(java.util.Arrays.asList(List.of(1, 2), List.of(LocalDateTime.of(2020, 1, 1, 0, 0)), null));

        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(1, BigInteger.TEN);
        map.put("k", Set.of('c'));
        assertThat(JdbcValues.normalize(map)).isEqualTo(Map.of("1", 10L, "k", List.of("c")));
    }

    @Test
    void structsBecomeMapsWithPositionalKeys() throws SQLException {
        Struct struct = new Struct() {
            @Override
            public String getSQLTypeName() {
                return "point";
            }

            @Override
            public Object[] getAttributes() {
                return new Object[] {BigInteger.ONE, "x"};
            }

            @Override
            public Object[] getAttributes(Map<String, Class<?>> map) {
                return getAttributes();
            }
        };
        assertThat(JdbcValues.normalize(struct)).isEqualTo(Map.of("f1", 1L, "f2", "x"));
    }

    @Test
    void unknownObjectsBecomeTheirStringForm() throws SQLException {
        Object odd = new Object() {
            @Override
            public String toString() {
                return "3 days";
            }
        };
        assertThat(JdbcValues.normalize(odd)).isEqualTo("3 days");
        assertThat(JdbcValues.normalize(new StringBuilder("sb"))).isEqualTo("sb");
    }

    @Test
    void unknownVendorTypeCodesAreOther() {
        assertThat(JdbcValues.jdbcType(java.sql.Types.BIGINT)).isEqualTo(JDBCType.BIGINT);
        assertThat(JdbcValues.jdbcType(-155)).isEqualTo(JDBCType.OTHER);
        assertThat(JdbcValues.jdbcType(123456)).isEqualTo(JDBCType.OTHER);
    }
}
