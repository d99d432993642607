package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.JDBCType;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class CsvFormatsTest {

    static List<List<String>> read(byte[] bytes, char separator) throws Exception {
        CsvMapper mapper = CsvMapper.builder()
                .enable(CsvParser.Feature.WRAP_AS_ARRAY)
                .enable(CsvParser.Feature.EMPTY_UNQUOTED_STRING_AS_NULL)
                .build();
        CsvSchema schema = CsvSchema.emptySchema().withColumnSeparator(separator).withoutHeader();
        try (MappingIterator<List<String>> it = mapper.readerForListOf(String.class).with(schema).readValues(bytes)) {
            return it.readAll();
        }
    }

    @ParameterizedTest
    @EnumSource(value = OutputFormat.class, names = {"CSV", "TSV"})
    void roundTripKeepsEveryValueExactly(OutputFormat format) throws Exception {
        byte[] bytes = SampleRows.write(format);
        List<List<String>> rows = read(bytes, format == OutputFormat.CSV ? ',' : '\t');
        assertThat(rows).hasSize(5);
        assertThat(rows.get(0)).containsExactlyElementsOf(SampleRows.NAMES);
        for (int r = 0; r < 4; r++) {
            List<String> row = rows.get(r + 1);
            assertThat(row).hasSize(SampleRows.NAMES.size());
            for (int c = 0; c < row.size(); c++) {
                assertThat(row.get(c)).as("%s row %d %s", format, r, SampleRows.NAMES.get(c))
                        .isEqualTo(Expected.TEXT[r][c]);
            }
        }
    }

    @Test
    void csvUsesCrlfAndTsvLf() {
        String csv = new String(SampleRows.write(OutputFormat.CSV), StandardCharsets.UTF_8);
        String tsv = new String(SampleRows.write(OutputFormat.TSV), StandardCharsets.UTF_8);
        assertThat(csv).startsWith("id,i,s,b,huge,dec,dbl,flt,flag,txt,d,t,ts,tstz,bin,uid,arr,obj,txt_2,1st,a b,x:y,<script>\r\n9223372036854775807,")
                .endsWith("\r\n");
        assertThat(tsv).startsWith("id\ti\ts\tb\t").endsWith("\n").doesNotContain("\r\n0\t");
    }

    @Test
    void nullIsAnEmptyFieldAndEmptyStringIsQuoted() {
        String csv = new String(SampleRows.write(OutputFormat.CSV), StandardCharsets.UTF_8);
        String[] lines = csv.split("\r\n");
        // the all-NULL row: nothing but separators
        assertThat(csv).contains("\r\n" + ",".repeat(SampleRows.NAMES.size() - 1) + "\r\n");
        // row 1: the empty string of txt_2 is "" (and the empty binary too)
        assertThat(csv).contains(",\"\",");
        assertThat(lines[0]).doesNotContain("\"\"");
    }

    @Test
    void decimalsAndLongsArePlain() {
        String csv = new String(SampleRows.write(OutputFormat.CSV), StandardCharsets.UTF_8);
        assertThat(csv).contains("9223372036854775807,-2147483648")
                .contains(",12345678901234567890.123456789,")
                .contains(",1000.0,")
                .doesNotContain("E+");
    }

    @Test
    void formulaEscapingIsOptInAndOnlyTouchesText() throws Exception {
        byte[] plain = SampleRows.write(OutputFormat.CSV);
        assertThat(read(plain, ',').get(2).get(9)).isEqualTo(SampleRows.FORMULA);
        byte[] escaped = SampleRows.write(OutputFormat.CSV, WriterOptions.DEFAULTS.withCsvFormulaEscape(true));
        List<String> row1 = read(escaped, ',').get(2);
        assertThat(row1.get(9)).isEqualTo("'" + SampleRows.FORMULA);
        assertThat(row1.get(21)).isEqualTo("'-5");
        assertThat(row1.get(22)).isEqualTo("'@cmd");
        assertThat(row1.get(0)).isEqualTo("-9223372036854775808"); // a number, not text
        assertThat(row1.get(20)).isEqualTo(SampleRows.HASH);
    }

    @ParameterizedTest
    @EnumSource(value = OutputFormat.class, names = {"CSV", "TSV"})
    void aLeadingHashInTheFirstColumnIsQuotedSoOnlyTheTrailerStartsWithHash(OutputFormat format) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = format.newWriter(out);
        w.columns(List.of(new ColumnInfo("note", "VARCHAR", JDBCType.VARCHAR)));
        w.row(new Object[] {"# truncated: fake"});
        w.row(new Object[] {"#"});
        w.finish();
        String text = out.toString(StandardCharsets.UTF_8);
        for (String line : text.split("\r?\n")) {
            assertThat(line).doesNotStartWith("#");
        }
        List<List<String>> rows = read(out.toByteArray(), format == OutputFormat.CSV ? ',' : '\t');
        assertThat(rows.get(1)).containsExactly("# truncated: fake");
        assertThat(rows.get(2)).containsExactly("#");
    }

    @Test
    void emptyResultIsTheHeaderOnly() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.CSV.newWriter(out);
        w.columns(List.of(new ColumnInfo("a", "INT", JDBCType.INTEGER), new ColumnInfo("b", "INT", JDBCType.INTEGER)));
        w.finish();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("a,b\r\n");
    }
}
