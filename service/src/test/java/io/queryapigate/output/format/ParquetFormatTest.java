package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.JDBCType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParquetFormatTest {
    @org.junit.jupiter.api.BeforeAll
    static void quiet() {
        TestingLogging.quiet();
    }

    static boolean isNull(Group g, String field) {
        return g.getFieldRepetitionCount(field) == 0;
    }

    static BigDecimal decimal(Group g, String field, int scale) {
        PrimitiveType t = g.getType().getType(field).asPrimitiveType();
        BigInteger unscaled = switch (t.getPrimitiveTypeName()) {
            case INT32 -> BigInteger.valueOf(g.getInteger(field, 0));
            case INT64 -> BigInteger.valueOf(g.getLong(field, 0));
            default -> new BigInteger(g.getBinary(field, 0).getBytes());
        };
        return new BigDecimal(unscaled, scale);
    }

    static LocalDateTime fromMicros(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000,
                ZoneOffset.UTC);
    }

    @Test
    void schemaFollowsTheJdbcTypes() throws Exception {
        MessageType schema = ParquetReading.read(SampleRows.write(OutputFormat.PARQUET)).schema();
        assertThat(schema.getFields()).extracting(f -> f.getName()).containsExactlyElementsOf(SampleRows.NAMES);
        assertThat(schema.getFields()).allSatisfy(f -> assertThat(f.isRepetition(org.apache.parquet.schema.Type.Repetition.OPTIONAL)).isTrue());
        Map<String, String> types = new HashMap<>();
        schema.getFields().forEach(f -> types.put(f.getName(), f.asPrimitiveType().getPrimitiveTypeName()
                + (f.getLogicalTypeAnnotation() == null ? "" : " " + f.getLogicalTypeAnnotation())));
        assertThat(types).containsEntry("id", "INT64").containsEntry("i", "INT32").containsEntry("s", "INT32")
                .containsEntry("huge", "FIXED_LEN_BYTE_ARRAY DECIMAL(38,0)")
                .containsEntry("dec", "FIXED_LEN_BYTE_ARRAY DECIMAL(29,9)")
                .containsEntry("dbl", "DOUBLE").containsEntry("flt", "FLOAT").containsEntry("flag", "BOOLEAN")
                .containsEntry("txt", "BINARY STRING").containsEntry("d", "INT32 DATE")
                .containsEntry("t", "INT64 TIME(MICROS,false)")
                .containsEntry("ts", "INT64 TIMESTAMP(MICROS,false)")
                .containsEntry("tstz", "INT64 TIMESTAMP(MICROS,true)")
                .containsEntry("bin", "BINARY").containsEntry("uid", "FIXED_LEN_BYTE_ARRAY UUID")
                .containsEntry("arr", "BINARY STRING").containsEntry("obj", "BINARY JSON");
    }

    @Test
    void roundTripWithParquetJavaKeepsExactValues() throws Exception {
        ParquetReading.Result result = ParquetReading.read(SampleRows.write(OutputFormat.PARQUET));
        assertThat(result.metadata()).containsEntry(RowWriter.PARQUET_TRUNCATED_KEY, "false");
        List<Group> rows = result.rows();
        assertThat(rows).hasSize(4);
        Group r0 = rows.get(0);
        assertThat(r0.getLong("id", 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(r0.getInteger("i", 0)).isEqualTo(Integer.MIN_VALUE);
        assertThat(r0.getInteger("s", 0)).isEqualTo(-32768);
        assertThat(r0.getInteger("b", 0)).isEqualTo(127);
        assertThat(decimal(r0, "huge", 0)).isEqualTo(new BigDecimal(SampleRows.HUGE));
        assertThat(decimal(r0, "dec", 9)).isEqualTo(SampleRows.DEC);
        assertThat(r0.getDouble("dbl", 0)).isEqualTo(0.1);
        assertThat(r0.getFloat("flt", 0)).isEqualTo(1.5f);
        assertThat(r0.getBoolean("flag", 0)).isTrue();
        assertThat(r0.getString("txt", 0)).isEqualTo(SampleRows.UNICODE);
        assertThat(LocalDate.ofEpochDay(r0.getInteger("d", 0))).isEqualTo(SampleRows.DATE);
        assertThat(LocalTime.ofNanoOfDay(r0.getLong("t", 0) * 1000)).isEqualTo(SampleRows.TIME);
        assertThat(fromMicros(r0.getLong("ts", 0))).isEqualTo(SampleRows.TS);
        assertThat(fromMicros(r0.getLong("tstz", 0)).toInstant(ZoneOffset.UTC))
                .isEqualTo(SampleRows.TSTZ.toInstant());
        assertThat(r0.getBinary("bin", 0).getBytes()).isEqualTo(SampleRows.BYTES);
        ByteBuffer uuid = ByteBuffer.wrap(r0.getBinary("uid", 0).getBytes());
        assertThat(new UUID(uuid.getLong(), uuid.getLong())).isEqualTo(SampleRows.UID);
        assertThat(r0.getString("arr", 0)).isEqualTo(Expected.TEXT[0][16]);
        assertThat(r0.getString("obj", 0)).isEqualTo(Expected.TEXT[0][17]);
        assertThat(r0.getString("txt_2", 0)).isEqualTo(SampleRows.QUOTES);
        assertThat(r0.getInteger("1st", 0)).isEqualTo(1);
        assertThat(r0.getString("a b", 0)).isEqualTo(SampleRows.SEPARATORS);
        assertThat(r0.getString("x:y", 0)).isEqualTo(SampleRows.NEWLINES);
        Group r1 = rows.get(1);
        assertThat(r1.getLong("id", 0)).isEqualTo(Long.MIN_VALUE);
        assertThat(decimal(r1, "dec", 9)).isEqualTo(SampleRows.DEC.negate());
        assertThat(decimal(r1, "huge", 0)).isEqualTo(new BigDecimal(SampleRows.HUGE.negate()));
        assertThat(r1.getDouble("dbl", 0)).isNaN();
        assertThat(r1.getFloat("flt", 0)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(r1.getString("txt_2", 0)).isEmpty();
        assertThat(r1.getBinary("bin", 0).length()).isZero();
        Group r2 = rows.get(2);
        for (String name : SampleRows.NAMES) {
            assertThat(isNull(r2, name)).as(name).isTrue();
        }
        Group r3 = rows.get(3);
        assertThat(decimal(r3, "dec", 9)).isEqualTo(new BigDecimal("1000.000000000"));
        assertThat(fromMicros(r3.getLong("ts", 0))).isEqualTo(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 7_000_000));
        assertThat(r3.getString("<script>", 0)).isEqualTo("x\u0001y\u0000z");
    }

    @Test
    void duckDbReadsTheFileWithTheRightTypes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sample.parquet");
        Files.write(file, SampleRows.write(OutputFormat.PARQUET));
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                var st = c.createStatement()) {
            Map<String, String> types = new HashMap<>();
            try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
            assertThat(types).containsEntry("id", "BIGINT").containsEntry("i", "INTEGER")
                    .containsEntry("huge", "DECIMAL(38,0)").containsEntry("dec", "DECIMAL(29,9)")
                    .containsEntry("dbl", "DOUBLE").containsEntry("flt", "FLOAT").containsEntry("flag", "BOOLEAN")
                    .containsEntry("txt", "VARCHAR").containsEntry("d", "DATE").containsEntry("t", "TIME")
                    .containsEntry("ts", "TIMESTAMP").containsEntry("tstz", "TIMESTAMP WITH TIME ZONE")
                    .containsEntry("bin", "BLOB").containsEntry("uid", "UUID").containsEntry("obj", "JSON");
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery("SELECT id, dec::VARCHAR, huge::VARCHAR, ts, tstz, uid::VARCHAR, "
                    + "bin, txt, t, d FROM read_parquet('" + file + "')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(Long.MAX_VALUE);
                assertThat(rs.getString(2)).isEqualTo(SampleRows.DEC.toPlainString());
                assertThat(rs.getString(3)).isEqualTo(SampleRows.HUGE.toString());
                assertThat(rs.getObject(4, LocalDateTime.class)).isEqualTo(SampleRows.TS);
                assertThat(rs.getObject(5, OffsetDateTime.class).toInstant()).isEqualTo(SampleRows.TSTZ.toInstant());
                assertThat(rs.getString(6)).isEqualTo(SampleRows.UID.toString());
                assertThat(rs.getBytes(7)).isEqualTo(SampleRows.BYTES);
                assertThat(rs.getString(8)).isEqualTo(SampleRows.UNICODE);
                assertThat(rs.getObject(9, LocalTime.class)).isEqualTo(SampleRows.TIME);
                assertThat(rs.getObject(10, LocalDate.class)).isEqualTo(SampleRows.DATE);
                assertThat(rs.next()).isTrue();
                assertThat(rs.next()).isTrue();
                assertThat(rs.getObject(1)).isNull();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy", "zstd", "none"})
    void everyCodecReadsBack(String codec) throws Exception {
        byte[] bytes = SampleRows.write(OutputFormat.PARQUET, WriterOptions.DEFAULTS.withParquetCompression(codec));
        assertThat(ParquetReading.read(bytes).rows()).hasSize(4);
    }

    @Test
    void decimalPrecisionComesFromTheTypeNameAndUnknownPrecisionIsExactText() {
        assertThat(kind("NUMERIC(10,2)", JDBCType.NUMERIC)).isEqualTo("INT64 DECIMAL(10,2)");
        assertThat(kind("decimal(5, 1)", JDBCType.DECIMAL)).isEqualTo("INT32 DECIMAL(5,1)");
        assertThat(kind("Nullable(Decimal(38, 4))", JDBCType.DECIMAL)).isEqualTo("FIXED_LEN_BYTE_ARRAY DECIMAL(38,4)");
        assertThat(kind("Decimal64(3)", JDBCType.DECIMAL)).isEqualTo("INT64 DECIMAL(18,3)");
        assertThat(kind("numeric", JDBCType.NUMERIC)).isEqualTo("BINARY STRING");
        assertThat(kind("DECIMAL(60,2)", JDBCType.DECIMAL)).isEqualTo("BINARY STRING");
        assertThat(kind("INT UNSIGNED", JDBCType.INTEGER)).isEqualTo("INT64");
        assertThat(kind("BIGINT UNSIGNED", JDBCType.BIGINT)).isEqualTo("FIXED_LEN_BYTE_ARRAY DECIMAL(20,0)");
        assertThat(kind("UInt64", JDBCType.BIGINT)).isEqualTo("FIXED_LEN_BYTE_ARRAY DECIMAL(20,0)");
        assertThat(kind("UInt128", JDBCType.BIGINT)).isEqualTo("BINARY STRING");
        assertThat(kind("jsonb", JDBCType.OTHER)).isEqualTo("BINARY JSON");
        assertThat(kind("interval", JDBCType.OTHER)).isEqualTo("BINARY STRING");
        assertThat(kind("bit(8)", JDBCType.BIT)).isEqualTo("BINARY STRING");
        assertThat(kind("bit", JDBCType.BIT)).isEqualTo("BOOLEAN");
    }

    static String kind(String typeName, JDBCType type) {
        PrimitiveType t = ParquetColumn.of(new ColumnInfo("c", typeName, type), "c", 0).type;
        return t.getPrimitiveTypeName() + (t.getLogicalTypeAnnotation() == null ? "" : " " + t.getLogicalTypeAnnotation());
    }

    @Test
    void unsignedBigintsAndUnconstrainedNumericsStayExact() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.PARQUET.newWriter(out);
        w.columns(List.of(new ColumnInfo("u", "BIGINT UNSIGNED", JDBCType.BIGINT),
                new ColumnInfo("n", "numeric", JDBCType.NUMERIC)));
        BigInteger max = new BigInteger("18446744073709551615");
        BigDecimal wide = new BigDecimal("1234567890123456789012345678901234567890.0987654321");
        w.row(new Object[] {max, wide});
        w.finish();
        Group g = ParquetReading.read(out.toByteArray()).rows().get(0);
        assertThat(decimal(g, "u", 0)).isEqualTo(new BigDecimal(max));
        assertThat(g.getString("n", 0)).isEqualTo(wide.toPlainString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.234", "12345.6"})
    void aValueThatDoesNotFitItsColumnFailsLoudly(String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.PARQUET.newWriter(out);
        w.columns(List.of(new ColumnInfo("d", "DECIMAL(5,2)", JDBCType.DECIMAL)));
        assertThatThrownBy(() -> w.row(new Object[] {new BigDecimal(value)}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit DECIMAL(5,2)");
    }

    @Test
    void emptyResultIsAValidFileWithTheSchema() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.PARQUET.newWriter(out);
        w.columns(SampleRows.COLUMNS);
        w.finish();
        ParquetReading.Result r = ParquetReading.read(out.toByteArray());
        assertThat(r.rows()).isEmpty();
        assertThat(r.schema().getFieldCount()).isEqualTo(SampleRows.COLUMNS.size());
    }

    @Test
    void smallRowGroupsAreFlushedAsTheyFill() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.PARQUET.newWriter(out, WriterOptions.DEFAULTS.withParquetRowGroupBytes(64 << 10));
        w.columns(List.of(new ColumnInfo("n", "BIGINT", JDBCType.BIGINT),
                new ColumnInfo("s", "VARCHAR", JDBCType.VARCHAR)));
        Object[] row = new Object[2];
        int firstBytesAt = -1;
        for (long i = 0; i < 200_000; i++) {
            row[0] = i;
            row[1] = "value-" + i;
            w.row(row);
            if (firstBytesAt < 0 && out.size() > 4) {
                firstBytesAt = (int) i;
            }
        }
        w.finish();
        assertThat(firstBytesAt).as("row at which the first row group left").isBetween(1, 150_000);
        long[] count = ParquetReading.count(out.toByteArray());
        assertThat(count[0]).isEqualTo(200_000);
        assertThat(count[1]).isGreaterThan(1);
    }

}
