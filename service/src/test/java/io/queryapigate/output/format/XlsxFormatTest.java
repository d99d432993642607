package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.dhatim.fastexcel.reader.Cell;
import org.dhatim.fastexcel.reader.CellType;
import org.dhatim.fastexcel.reader.ReadableWorkbook;
import org.dhatim.fastexcel.reader.ReadingOptions;
import org.dhatim.fastexcel.reader.Row;
import org.dhatim.fastexcel.reader.Sheet;
import org.junit.jupiter.api.Test;

class XlsxFormatTest {

    /** Rows of the first sheet by 1-based row number. */
    static Map<Integer, Row> rows(byte[] bytes, int sheet) throws Exception {
        try (ReadableWorkbook wb = new ReadableWorkbook(new ByteArrayInputStream(bytes), new ReadingOptions(true, false))) {
            Sheet s = wb.getSheet(sheet).orElseThrow();
            try (var stream = s.openStream()) {
                return stream.collect(Collectors.toMap(Row::getRowNum, r -> r, (a, b) -> a, TreeMap::new));
            }
        }
    }

    // S: text cell, N: number cell, B: boolean, D: date cell (ISO local date-time), null: empty
    static final String[][] CELLS = {
        {"S:9223372036854775807", "N:-2147483648", "N:-32768", "N:127", "S:1180591620717411303425",
            "S:12345678901234567890.123456789", "N:0.1", "N:1.5", "B:true", "S:" + SampleRows.UNICODE,
            "D:2024-02-29T00:00", "S:23:59:58.123456", "S:2024-01-02 03:04:05.123456",
            "S:" + Expected.local("2024-01-02T03:04:05.654321+05:30"), "S:AAEC/4A=", "S:123e4567-e89b-12d3-a456-426614174000",
            "S:[1,\"two\",null,[3,4],true]",
            "S:{\"k\":\"v\",\"n\":5,\"nil\":null,\"inner\":{\"x\":1.5},\"key with space\":[\"a\"]}",
            "S:" + SampleRows.QUOTES, "N:1", "S:" + SampleRows.SEPARATORS, "S:" + SampleRows.NEWLINES,
            "S:<b>&amp;</b>"},
        {"S:-9223372036854775808", "N:0", "N:0", "N:0", "S:-1180591620717411303425",
            "S:-12345678901234567890.123456789", "S:NaN", "S:-Infinity", "B:false", "S:" + SampleRows.FORMULA,
            "D:1970-01-01T00:00", "S:00:00:00", "D:1999-12-31T23:59:59", "S:" + Expected.local("2024-06-01T00:00:00Z"), "S:",
            "S:00000000-0000-0000-0000-000000000000", "S:[]", "S:{}", "S:", "N:2", "S:" + SampleRows.HASH, "S:-5",
            "S:@cmd"},
        new String[SampleRows.COLUMNS.size()],
        {"N:0", "N:42", "N:7", "N:-1", "N:0", "N:1000.000000000", "S:Infinity", "N:0.25", "B:true", "S:null",
            "D:2000-01-01T00:00", "S:12:00:00", "D:2024-01-02T03:04:05.007", "S:" + Expected.local("2024-01-02T03:04:05-08:00"), "S:QQ==",
            "S:123e4567-e89b-12d3-a456-426614174000", "S:[[]]", "S:{\"a\":{}}", "S:true", "N:3", "S:0123",
            "S:2024-01-01", "S:xyz"},
    };

    @Test
    void cellsAreTypedWhenExcelHoldsTheValueExactlyElseText() throws Exception {
        Map<Integer, Row> rows = rows(SampleRows.write(OutputFormat.XLSX), 0);
        Row header = rows.get(1);
        List<String> names = new ArrayList<>();
        for (int c = 0; c < header.getCellCount(); c++) {
            names.add(header.getCell(c).getText());
        }
        assertThat(names).containsExactlyElementsOf(SampleRows.NAMES);
        for (int r = 0; r < 4; r++) {
            Row row = rows.get(r + 2);
            for (int c = 0; c < SampleRows.NAMES.size(); c++) {
                String expected = CELLS[r][c];
                String label = "row " + r + " " + SampleRows.NAMES.get(c);
                Cell cell = row == null || c >= row.getCellCount() ? null : row.getCell(c);
                if (expected == null) {
                    assertThat(cell == null || cell.getType() == CellType.EMPTY).as(label).isTrue();
                    continue;
                }
                String value = expected.substring(2);
                switch (expected.charAt(0)) {
                    case 'S' -> {
                        assertThat(cell.getType()).as(label).isEqualTo(CellType.STRING);
                        assertThat(cell.getText()).as(label).isEqualTo(value);
                    }
                    case 'N' -> {
                        assertThat(cell.getType()).as(label).isEqualTo(CellType.NUMBER);
                        assertThat(cell.asNumber()).as(label).isEqualByComparingTo(new BigDecimal(value));
                    }
                    case 'B' -> {
                        assertThat(cell.getType()).as(label).isEqualTo(CellType.BOOLEAN);
                        assertThat(cell.asBoolean()).as(label).isEqualTo(Boolean.parseBoolean(value));
                    }
                    case 'D' -> {
                        assertThat(cell.getType()).as(label).isEqualTo(CellType.NUMBER);
                        assertThat(cell.getDataFormatString()).as(label).startsWith("yyyy-mm-dd");
                        assertThat(cell.asDate()).as(label).isEqualTo(LocalDateTime.parse(value));
                    }
                    default -> throw new AssertionError(expected);
                }
            }
        }
    }

    @Test
    void formulaLikeTextIsNeverAFormula() throws Exception {
        Map<Integer, Row> rows = rows(SampleRows.write(OutputFormat.XLSX), 0);
        for (Row row : rows.values()) {
            for (int c = 0; c < row.getCellCount(); c++) {
                Cell cell = row.getCell(c);
                assertThat(cell == null ? CellType.EMPTY : cell.getType()).isNotEqualTo(CellType.FORMULA);
            }
        }
    }

    @Test
    void longTextIsCutToTheCellLimit() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.XLSX.newWriter(out);
        w.columns(List.of(new ColumnInfo("big", "TEXT", JDBCType.VARCHAR)));
        w.row(new Object[] {"x".repeat(40_000)});
        w.finish();
        assertThat(rows(out.toByteArray(), 0).get(2).getCell(0).getText()).hasSize(XlsxRowWriter.MAX_CELL_CHARS);
    }

    @Test
    void rowsPastTheSheetLimitContinueOnANewSheetWithTheHeader() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RowWriter w = OutputFormat.XLSX.newWriter(out);
        w.columns(List.of(new ColumnInfo("n", "BIGINT", JDBCType.BIGINT)));
        int total = org.dhatim.fastexcel.Worksheet.MAX_ROWS + 10; // one header per sheet
        Object[] row = new Object[1];
        for (long i = 1; i <= total; i++) {
            row[0] = i;
            w.row(row);
        }
        w.finish();
        byte[] bytes = out.toByteArray();
        try (ReadableWorkbook wb = new ReadableWorkbook(new ByteArrayInputStream(bytes))) {
            assertThat(wb.getSheets().map(Sheet::getName)).containsExactly("Sheet", "Sheet (2)");
        }
        Map<Integer, Row> second = rows(bytes, 1);
        assertThat(second.get(1).getCell(0).getText()).isEqualTo("n");
        assertThat(second).hasSize(12); // header + 11 rows (1,048,576 - 1 fit on the first sheet)
        assertThat(second.get(12).getCell(0).asNumber()).isEqualByComparingTo(BigDecimal.valueOf(total));
    }
}
