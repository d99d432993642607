package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Reading TabSeparated bytes and converting ClickHouse values, without a server. */
class TsvAndTypesTest {
    private static final Supplier<ZoneId> UTC = () -> ZoneOffset.UTC;

    /** Hands out the bytes a few at a time, as a network would. */
    private static InputStream trickle(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new InputStream() {
            private int pos;
            private int step;

            @Override
            public int read() {
                return pos < bytes.length ? bytes[pos++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, 1 + (step++ % 7)), bytes.length - pos);
                System.arraycopy(bytes, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    private static Object convert(String typeName, String field) {
        ClickHouseType t = ClickHouseType.parse(typeName, UTC);
        if (t.nullable() && field.equals("\\N")) {
            return null;
        }
        return t.fromText(t.composite() ? field : Tsv.unescape(field));
    }

    @Test
    void linesFieldsEscapesAndNulls() throws IOException {
        Tsv.Reader r = new Tsv.Reader(trickle("a\tb\\tc\t\\N\n\\\\N\tx\\ny\t\n"));
        assertThat(r.nextLine()).isTrue();
        assertThat(r.fieldCount()).isEqualTo(3);
        assertThat(r.text(0)).isEqualTo("a");
        assertThat(r.text(1)).isEqualTo("b\tc");
        assertThat(r.isNull(2)).isTrue();
        assertThat(r.nextLine()).isTrue();
        assertThat(r.isNull(0)).as("an escaped backslash before N is the text \\N").isFalse();
        assertThat(r.text(0)).isEqualTo("\\N");
        assertThat(r.text(1)).isEqualTo("x\ny");
        assertThat(r.text(2)).isEmpty();
        assertThat(r.nextLine()).isFalse();
    }

    @Test
    void longLinesSpanTheBuffer() throws IOException {
        String big = "é".repeat(100_000);
        Tsv.Reader r = new Tsv.Reader(new ByteArrayInputStream((big + "\tz\nnext\n").getBytes(StandardCharsets.UTF_8)));
        assertThat(r.nextLine()).isTrue();
        assertThat(r.text(0)).isEqualTo(big);
        assertThat(r.text(1)).isEqualTo("z");
        assertThat(r.nextLine()).isTrue();
        assertThat(r.text(0)).isEqualTo("next");
        assertThat(r.nextLine()).isFalse();
    }

    @Test
    void aCutOffLineIsAnError() throws IOException {
        Tsv.Reader r = new Tsv.Reader(trickle("1\n2"));
        assertThat(r.nextLine()).isTrue();
        assertThatThrownBy(r::nextLine).isInstanceOf(IOException.class).hasMessageContaining("cut off");
    }

    @Test
    void serverErrorsAfterTheRowsBeganAreRecognised() throws IOException {
        String error = "Code: 159, e.displayText() = DB::Exception: Timeout exceeded: elapsed 1.0 seconds, maximum: 1,"
                + " e.what() = DB::Exception\n";
        Tsv.Reader r = new Tsv.Reader(trickle("1\n2\n" + error));
        r.nextLine();
        assertThat(r.looksLikeError()).isFalse();
        r.nextLine();
        r.nextLine();
        assertThat(r.looksLikeError()).isTrue();
        assertThat(r.lineAndRestIfEndsWithin(ClickHouseDialect.ERROR_TAIL)).isEqualTo(error.strip() + "\n");

        // a row that merely looks like an error, with plenty of data after it, is data and nothing is lost
        StringBuilder data = new StringBuilder("Code: 1, looks like an error\n");
        for (int i = 0; i < 20_000; i++) {
            data.append("row ").append(i).append('\n');
        }
        Tsv.Reader d = new Tsv.Reader(trickle(data.toString()));
        d.nextLine();
        assertThat(d.looksLikeError()).isTrue();
        assertThat(d.lineAndRestIfEndsWithin(ClickHouseDialect.ERROR_TAIL)).isNull();
        assertThat(d.text(0)).isEqualTo("Code: 1, looks like an error");
        int rows = 0;
        while (d.nextLine()) {
            assertThat(d.text(0)).isEqualTo("row " + rows);
            rows++;
        }
        assertThat(rows).isEqualTo(20_000);
        assertThat(new Tsv.Reader(trickle("Code: x, no\n")).nextLine()).isTrue();
    }

    @Test
    void newerServersErrorFormat() throws IOException {
        Tsv.Reader r = new Tsv.Reader(trickle("Code: 159. DB::Exception: Timeout exceeded. (TIMEOUT_EXCEEDED)\n"));
        r.nextLine();
        assertThat(r.looksLikeError()).isTrue();
    }

    @Test
    void drainStopsAtItsBudget() throws IOException {
        Tsv.Reader small = new Tsv.Reader(trickle("a\n" + "x\n".repeat(1000)));
        small.nextLine();
        assertThat(small.drain(1 << 20)).isTrue();
        Tsv.Reader endless = new Tsv.Reader(new InputStream() {
            private long n;

            @Override
            public int read() {
                return n++ % 10 == 9 ? '\n' : 'x';
            }
        });
        endless.nextLine();
        assertThat(endless.drain(1000)).isFalse();
    }

    @Test
    void integers() {
        assertThat(convert("Int8", "-5")).isEqualTo((byte) -5);
        assertThat(convert("UInt8", "200")).isEqualTo((short) 200);
        assertThat(convert("Int32", "7")).isEqualTo(7);
        assertThat(convert("UInt32", "4294967295")).isEqualTo(4_294_967_295L);
        assertThat(convert("Int64", "9007199254740993")).isEqualTo(9_007_199_254_740_993L);
        assertThat(convert("UInt64", "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(convert("UInt64", "18446744073709551615")).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(convert("Int128", "-170141183460469231731687303715884105728"))
                .isEqualTo(new BigInteger("-170141183460469231731687303715884105728"));
        assertThat(ClickHouseType.parse("UInt64", UTC).jdbcType()).isEqualTo(JDBCType.NUMERIC);
        assertThat(ClickHouseType.parse("Int64", UTC).jdbcType()).isEqualTo(JDBCType.BIGINT);
    }

    @Test
    void floatsAndDecimals() {
        assertThat(convert("Float64", "nan")).isEqualTo(Double.NaN);
        assertThat(convert("Float64", "-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(convert("Float64", "1e301")).isEqualTo(1e301);
        assertThat(convert("Float32", "0.1")).isEqualTo(0.1f);
        assertThat(convert("Decimal(12, 2)", "1234.50")).isEqualTo(new BigDecimal("1234.50"));
        assertThat(convert("Decimal(12, 2)", "1234.5")).as("newer servers drop trailing zeros").isEqualTo(new BigDecimal("1234.50"));
        assertThat(convert("Decimal64(3)", "-0.001")).isEqualTo(new BigDecimal("-0.001"));
        assertThat(ClickHouseType.parse("Decimal(38, 10)", UTC).jdbcType()).isEqualTo(JDBCType.DECIMAL);
    }

    @Test
    void stringsAndFriends() {
        assertThat(convert("String", "it\\'s\\ta\\\\b\\0")).isEqualTo("it's\ta\\b\0");
        assertThat(convert("FixedString(4)", "ab\\0\\0")).isEqualTo("ab");
        assertThat(convert("UUID", "341733bc-869f-49b4-abb8-92ed88ce5b21"))
                .isEqualTo(UUID.fromString("341733bc-869f-49b4-abb8-92ed88ce5b21"));
        assertThat(convert("Enum8(\\'x\\' = 1, \\'y\\' = 2)".replace("\\'", "'"), "y")).isEqualTo("y");
        assertThat(convert("LowCardinality(String)", "abc")).isEqualTo("abc");
        assertThat(convert("LowCardinality(Nullable(String))", "\\N")).isNull();
        assertThat(convert("IPv4", "127.0.0.1")).isEqualTo("127.0.0.1");
        assertThat(ClickHouseType.parse("AggregateFunction(uniq, UInt64)", UTC).jdbcType()).isEqualTo(JDBCType.OTHER);
        assertThat(ClickHouseType.parse("Nothing", UTC).jdbcType()).isEqualTo(JDBCType.NULL);
    }

    @Test
    void booleans() {
        assertThat(convert("Enum8('false' = 0, 'true' = 1)", "true")).isEqualTo(true);
        assertThat(convert("Nullable(Enum8('false' = 0, 'true' = 1))", "false")).isEqualTo(false);
        assertThat(ClickHouseType.parse("Enum8('false' = 0, 'true' = 1)", UTC).jdbcType()).isEqualTo(JDBCType.BOOLEAN);
        assertThat(ClickHouseType.parse("Enum8('true' = 1, 'false' = 0)", UTC).jdbcType()).isEqualTo(JDBCType.BOOLEAN);
        assertThat(ClickHouseType.parse("Enum8('false' = 1, 'true' = 2)", UTC).jdbcType()).isEqualTo(JDBCType.VARCHAR);
        assertThat(ClickHouseType.parse("Enum8('no' = 0, 'yes' = 1)", UTC).jdbcType()).isEqualTo(JDBCType.VARCHAR);
        assertThat(convert("Bool", "true")).isEqualTo(true);
    }

    @Test
    void datesAndTimes() {
        assertThat(convert("Date", "2000-02-29")).isEqualTo(LocalDate.of(2000, 2, 29));
        assertThat(convert("Date", "0000-00-00")).isEqualTo(LocalDate.EPOCH);
        assertThat(convert("DateTime", "2038-01-19 03:14:08")).isEqualTo(LocalDateTime.of(2038, 1, 19, 3, 14, 8));
        assertThat(convert("DateTime", "0000-00-00 00:00:00")).isEqualTo(LocalDateTime.of(1970, 1, 1, 0, 0));
        ClickHouseType tokyoServer = ClickHouseType.parse("DateTime", () -> ZoneId.of("Asia/Tokyo"));
        assertThat(tokyoServer.fromText("0000-00-00 00:00:00")).isEqualTo(LocalDateTime.of(1970, 1, 1, 9, 0));
        assertThat(convert("DateTime('Asia/Tokyo')", "2024-01-15 19:30:00"))
                .isEqualTo(OffsetDateTime.of(2024, 1, 15, 19, 30, 0, 0, ZoneOffset.ofHours(9)));
        assertThat(ClickHouseType.parse("DateTime('Asia/Tokyo')", UTC).jdbcType()).isEqualTo(JDBCType.TIMESTAMP_WITH_TIMEZONE);
        assertThat(convert("DateTime64(3)", "2024-01-15 10:30:00.125")).isEqualTo(LocalDateTime.of(2024, 1, 15, 10, 30, 0, 125_000_000));
        assertThat(convert("Nullable(DateTime)", "\\N")).isNull();
    }

    @Test
    void composites() {
        assertThat(convert("Array(Nullable(String))", "['a','b\\'c\\\\d',NULL,'x\\ty']"))
                .isEqualTo(Arrays.asList("a", "b'c\\d", null, "x\ty"));
        assertThat(convert("Array(Array(UInt8))", "[[1,2],[],[3]]")).isEqualTo(List.of(List.of((short) 1, (short) 2), List.of(),
                List.of((short) 3)));
        assertThat(convert("Array(Date)", "['2024-01-01']")).isEqualTo(List.of(LocalDate.of(2024, 1, 1)));
        assertThat(convert("Array(Nullable(Float64))", "[NULL,1.5,nan]")).isEqualTo(Arrays.asList(null, 1.5, Double.NaN));
        assertThat(convert("Array(Decimal(9, 2))", "[1.50,-2.00]"))
                .isEqualTo(List.of(new BigDecimal("1.50"), new BigDecimal("-2.00")));
        assertThat(convert("Tuple(UInt8, String)", "(1,'a,b')")).isEqualTo(List.of((short) 1, "a,b"));
        assertThat(convert("Tuple(a UInt8, b Nullable(String))", "(1, NULL)")).isEqualTo(Arrays.asList((short) 1, null));
        assertThat(convert("Map(String, UInt64)", "{'a':1,'b':18446744073709551615}"))
                .isEqualTo(Map.of("a", 1L, "b", new BigInteger("18446744073709551615")));
        assertThat(convert("Array(String)", "['NULL']")).as("a quoted NULL is text").isEqualTo(List.of("NULL"));
        assertThat(ClickHouseType.parse("Array(String)", UTC).jdbcType()).isEqualTo(JDBCType.ARRAY);
        assertThatThrownBy(() -> convert("Array(UInt8)", "[1,2")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownOrMalformedTypeNamesReadAsText() {
        assertThat(convert("SomethingNew(42)", "whatever")).isEqualTo("whatever");
        assertThat(convert("Decimal(x)", "1.5")).isEqualTo("1.5");
        assertThat(ClickHouseType.parse("SomethingNew", UTC).name()).isEqualTo("SomethingNew");
    }
}
