package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.util.List;
import java.util.Map;
import org.dhatim.fastexcel.reader.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

class CeilingRowWriterTest {
    static final List<ColumnInfo> COLUMNS = List.of(new ColumnInfo("n", "BIGINT", JDBCType.BIGINT),
            new ColumnInfo("s", "VARCHAR", JDBCType.VARCHAR));

    @BeforeAll
    static void quiet() {
        TestingLogging.quiet();
    }

    /** Feeds {@code offered} rows through a writer capped at {@code ceiling}, as a dialect would. */
    static byte[] run(OutputFormat format, long ceiling, int offered, boolean[] truncated) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CeilingRowWriter w = CeilingRowWriter.capped(format.newWriter(out), ceiling);
        w.columns(COLUMNS);
        Object[] row = new Object[2];
        for (int i = 1; i <= offered; i++) {
            row[0] = (long) i;
            row[1] = "row " + i;
            if (!w.row(row)) {
                break; // the dialect stops reading
            }
        }
        w.finish();
        truncated[0] = w.truncated();
        assertThat(w.rows()).isEqualTo(Math.min(ceiling, offered));
        return out.toByteArray();
    }

    @Test
    void stopsAtTheFirstRowPastTheCeiling() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CeilingRowWriter w = CeilingRowWriter.capped(OutputFormat.NDJSON.newWriter(out), 2);
        w.columns(COLUMNS);
        assertThat(w.row(new Object[] {1L, "a"})).isTrue();
        assertThat(w.row(new Object[] {2L, "b"})).isTrue();
        assertThat(w.truncated()).isFalse();
        assertThat(w.row(new Object[] {3L, "c"})).isFalse();
        assertThat(w.row(new Object[] {4L, "d"})).isFalse();
        assertThat(w.truncated()).isTrue();
        assertThat(w.rows()).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void exactlyTheCeilingIsComplete(OutputFormat format) throws Exception {
        boolean[] truncated = new boolean[1];
        byte[] bytes = run(format, 5, 5, truncated);
        assertThat(truncated[0]).isFalse();
        assertThat(trailer(format, bytes)).isNull();
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void pastTheCeilingEndsWithTheFormatsTrailer(OutputFormat format) throws Exception {
        boolean[] truncated = new boolean[1];
        byte[] bytes = run(format, 5, 10, truncated);
        assertThat(truncated[0]).isTrue();
        assertThat(trailer(format, bytes)).isEqualTo("row limit 5 reached");
    }

    /** What a client reads: the trailer's reason, or null when the result is complete; checks the row count too. */
    static String trailer(OutputFormat format, byte[] bytes) throws Exception {
        String text = new String(bytes, StandardCharsets.UTF_8);
        switch (format) {
            case JSON, YAML -> {
                JsonNode root = format == OutputFormat.JSON ? JsonFormatsTest.MAPPER.readTree(bytes)
                        : YamlFormatTest.MAPPER.readTree(bytes);
                JsonNode last = root.get(root.size() - 1);
                if (last.has(RowWriter.TRUNCATED_KEY)) {
                    assertThat(last.get(RowWriter.TRUNCATED_KEY).booleanValue()).isTrue();
                    assertThat(last.get(RowWriter.ROWS_KEY).longValue()).isEqualTo(root.size() - 1);
                    return last.get(RowWriter.REASON_KEY).textValue();
                }
                assertThat(root).hasSize(5);
                return null;
            }
            case NDJSON -> {
                String[] lines = text.split("\n");
                JsonNode last = JsonFormatsTest.MAPPER.readTree(lines[lines.length - 1]);
                if (last.has(RowWriter.TRUNCATED_KEY)) {
                    assertThat(last.get(RowWriter.ROWS_KEY).longValue()).isEqualTo(lines.length - 1);
                    return last.get(RowWriter.REASON_KEY).textValue();
                }
                assertThat(lines).hasSize(5);
                return null;
            }
            case CSV, TSV -> {
                // a CSV reader that skips '#' comment lines sees exactly the rows
                CsvMapper mapper = CsvMapper.builder().enable(CsvParser.Feature.WRAP_AS_ARRAY)
                        .enable(CsvParser.Feature.ALLOW_COMMENTS).build();
                CsvSchema schema = CsvSchema.emptySchema()
                        .withColumnSeparator(format == OutputFormat.CSV ? ',' : '\t').withHeader();
                try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class).with(schema)
                        .readValues(bytes)) {
                    assertThat(it.readAll()).hasSize(5).last().extracting(m -> m.get("n")).isEqualTo("5");
                }
                String eol = format == OutputFormat.CSV ? "\r\n" : "\n";
                assertThat(text).endsWith(eol);
                String[] lines = text.split(eol);
                String last = lines[lines.length - 1];
                return last.startsWith(RowWriter.TEXT_TRAILER_PREFIX)
                        ? last.substring(RowWriter.TEXT_TRAILER_PREFIX.length()) : null;
            }
            case XML -> {
                List<Element> children = XmlFormatTest.children(XmlFormatTest.parse(bytes).getDocumentElement());
                Element last = children.get(children.size() - 1);
                if (last.getTagName().equals("truncated")) {
                    assertThat(last.getAttribute("rows")).isEqualTo("5");
                    assertThat(children).hasSize(6);
                    return last.getTextContent();
                }
                assertThat(children).hasSize(5);
                return null;
            }
            case XLSX -> {
                Map<Integer, Row> rows = XlsxFormatTest.rows(bytes, 0);
                Row last = rows.get(rows.size());
                String first = last.getCell(0).getText();
                if (first.startsWith(RowWriter.TEXT_TRAILER_PREFIX)) {
                    assertThat(rows).hasSize(7); // header, 5 rows, trailer
                    return first.substring(RowWriter.TEXT_TRAILER_PREFIX.length());
                }
                assertThat(rows).hasSize(6);
                return null;
            }
            case PARQUET -> {
                ParquetReading.Result r = ParquetReading.read(bytes);
                assertThat(r.rows()).hasSize(5);
                if ("true".equals(r.metadata().get(RowWriter.PARQUET_TRUNCATED_KEY))) {
                    return r.metadata().get(RowWriter.PARQUET_REASON_KEY);
                }
                assertThat(r.metadata()).containsEntry(RowWriter.PARQUET_TRUNCATED_KEY, "false");
                return null;
            }
            default -> throw new AssertionError(format);
        }
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void abortBeforeAnyColumnStillWritesAValidDocumentWithTheReason(OutputFormat format) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = format.newWriter(out);
        w.abort("query failed:\nconnection reset");
        w.finish(); // ignored after abort
        byte[] bytes = out.toByteArray();
        String reason = switch (format) {
            case JSON -> JsonFormatsTest.MAPPER.readTree(bytes).get(0).get(RowWriter.REASON_KEY).textValue();
            case YAML -> YamlFormatTest.MAPPER.readTree(bytes).get(0).get(RowWriter.REASON_KEY).textValue();
            case NDJSON -> JsonFormatsTest.MAPPER.readTree(bytes).get(RowWriter.REASON_KEY).textValue();
            case CSV, TSV -> new String(bytes, StandardCharsets.UTF_8).strip()
                    .substring(RowWriter.TEXT_TRAILER_PREFIX.length());
            case XML -> XmlFormatTest.parse(bytes).getDocumentElement().getElementsByTagName("truncated").item(0)
                    .getTextContent();
            case XLSX -> XlsxFormatTest.rows(bytes, 0).values().iterator().next().getCell(0).getText()
                    .substring(RowWriter.TEXT_TRAILER_PREFIX.length());
            case PARQUET -> ParquetReading.read(bytes).metadata().get(RowWriter.PARQUET_REASON_KEY);
        };
        assertThat(reason).isEqualTo("query failed: connection reset");
    }
}
