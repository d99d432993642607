package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A result with every value kind a dialect hands over, tricky text, duplicate and awkward column names. */
final class SampleRows {
    static final BigDecimal DEC = new BigDecimal("12345678901234567890.123456789");
    static final BigInteger HUGE = BigInteger.TWO.pow(70).add(BigInteger.ONE);
    static final LocalDateTime TS = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000);
    static final OffsetDateTime TSTZ = OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 654_321_000, ZoneOffset.ofHoursMinutes(5, 30));
    static final LocalDate DATE = LocalDate.of(2024, 2, 29);
    static final LocalTime TIME = LocalTime.of(23, 59, 58, 123_456_000);
    static final byte[] BYTES = {0, 1, 2, (byte) 0xFF, (byte) 0x80};
    static final UUID UID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    static final String UNICODE = "héllo ✓ 😀 中文 Ω";
    static final String QUOTES = "say \"hi\", 'then' leave";
    static final String SEPARATORS = "a,b\tc;d|e";
    static final String NEWLINES = "line1\nline2\r\nline3\rend";
    static final String FORMULA = "=HYPERLINK(\"http://x\")";
    static final String HASH = "# not a trailer";
    static final List<Object> LIST = Arrays.asList(1L, "two", null, List.of(3L, 4L), true);
    static final Map<String, Object> MAP = nestedMap();

    /** Column names as the database reports them. */
    static final List<ColumnInfo> COLUMNS = List.of(
            col("id", "BIGINT", JDBCType.BIGINT),
            col("i", "INTEGER", JDBCType.INTEGER),
            col("s", "SMALLINT", JDBCType.SMALLINT),
            col("b", "TINYINT", JDBCType.TINYINT),
            col("huge", "DECIMAL(38,0)", JDBCType.DECIMAL),
            col("dec", "DECIMAL(29,9)", JDBCType.DECIMAL),
            col("dbl", "DOUBLE", JDBCType.DOUBLE),
            col("flt", "REAL", JDBCType.REAL),
            col("flag", "BOOLEAN", JDBCType.BOOLEAN),
            col("txt", "VARCHAR", JDBCType.VARCHAR),
            col("d", "DATE", JDBCType.DATE),
            col("t", "TIME", JDBCType.TIME),
            col("ts", "TIMESTAMP", JDBCType.TIMESTAMP),
            col("tstz", "TIMESTAMP WITH TIME ZONE", JDBCType.TIMESTAMP_WITH_TIMEZONE),
            col("bin", "BLOB", JDBCType.VARBINARY),
            col("uid", "UUID", JDBCType.OTHER),
            col("arr", "BIGINT[]", JDBCType.ARRAY),
            col("obj", "JSON", JDBCType.OTHER),
            col("txt", "VARCHAR", JDBCType.VARCHAR),
            col("1st", "INTEGER", JDBCType.INTEGER),
            col("a b", "VARCHAR", JDBCType.VARCHAR),
            col("x:y", "VARCHAR", JDBCType.VARCHAR),
            col("<script>", "VARCHAR", JDBCType.VARCHAR));

    /** The distinct names (JSON rule). */
    static final List<String> NAMES = List.of("id", "i", "s", "b", "huge", "dec", "dbl", "flt", "flag", "txt", "d",
            "t", "ts", "tstz", "bin", "uid", "arr", "obj", "txt_2", "1st", "a b", "x:y", "<script>");

    private SampleRows() {}

    static ColumnInfo col(String name, String typeName, JDBCType type) {
        return new ColumnInfo(name, typeName, type);
    }

    private static Map<String, Object> nestedMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("k", "v");
        m.put("n", 5L);
        m.put("nil", null);
        m.put("inner", Map.of("x", new BigDecimal("1.50")));
        m.put("key with space", List.of("a"));
        return m;
    }

    /** The rows: 0 = extremes, 1 = tricky text and other values, 2 = all NULL, 3 = more edge values. */
    static List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {Long.MAX_VALUE, Integer.MIN_VALUE, (short) -32768, (byte) 127, HUGE, DEC,
            0.1, 1.5f, true, UNICODE, DATE, TIME, TS, TSTZ, BYTES, UID, LIST, MAP, QUOTES, 1, SEPARATORS, NEWLINES,
            "<b>&amp;</b>"});
        rows.add(new Object[] {Long.MIN_VALUE, 0, (short) 0, (byte) 0, HUGE.negate(), DEC.negate(),
            Double.NaN, Float.NEGATIVE_INFINITY, false, FORMULA, LocalDate.of(1970, 1, 1), LocalTime.MIDNIGHT,
            LocalDateTime.of(1999, 12, 31, 23, 59, 59), OffsetDateTime.of(2024, 6, 1, 0, 0, 0, 0, ZoneOffset.UTC),
            new byte[0], new UUID(0, 0), List.of(), Map.of(), "", 2, HASH, "-5", "@cmd"});
        Object[] nulls = new Object[COLUMNS.size()];
        rows.add(nulls);
        rows.add(new Object[] {0L, 42, (short) 7, (byte) -1, BigInteger.ZERO, new BigDecimal("1000.000000000"),
            Double.POSITIVE_INFINITY, 0.25f, true, "null", LocalDate.of(2000, 1, 1), LocalTime.NOON,
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 7_000_000), OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0,
                ZoneOffset.ofHours(-8)), new byte[] {65}, UID, List.of(List.of()), Map.of("a", Map.of()), "true", 3,
            "0123", "2024-01-01", "x\u0001y\u0000z"});
        return rows;
    }

    /** Writes the sample with a fresh writer and returns the bytes. */
    static byte[] write(OutputFormat format) {
        return write(format, WriterOptions.DEFAULTS);
    }

    static byte[] write(OutputFormat format, WriterOptions options) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = format.newWriter(out, options);
        w.columns(COLUMNS);
        Object[] reused = new Object[COLUMNS.size()];
        for (Object[] row : rows()) {
            System.arraycopy(row, 0, reused, 0, row.length); // the dialect reuses its array
            w.row(reused);
            Arrays.fill(reused, "garbage");
        }
        w.finish();
        return out.toByteArray();
    }
}
