package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.dhatim.fastexcel.Workbook;
import org.dhatim.fastexcel.Worksheet;

/**
 * XLSX, written with fastexcel's streaming writer: rows leave for the stream every {@value #FLUSH_EVERY} rows and
 * strings are written inline (no shared-string table), so memory stays bounded (fastexcel keeps 4 bytes per row of
 * the current sheet: at most about 5 MB, see {@link #release}).
 *
 * <p>One sheet ({@link WriterOptions#xlsxSheetName}) with a bold, frozen header row of {@link ColumnNames#unique}
 * names; past Excel's 1,048,576 rows per sheet the rows continue on "Sheet (2)", "Sheet (3)", ... each with the
 * header again. A cell is typed when Excel can hold the value exactly, else it is text, so no value changes:
 * <ul>
 *   <li>integers within +-2^53 and decimals of at most 15 significant digits are numbers, wider ones text;
 *   <li>doubles are numbers (NaN/Infinity text); booleans are booleans;
 *   <li>dates from 1900-03-01 to 9999-12-31 are date cells (yyyy-mm-dd), timestamps without zone in that range
 *       date-time cells when they have no digits below the millisecond; others ISO text; timestamps with an
 *       offset, times, UUIDs are ISO/canonical text;
 *   <li>binary is base64 text; lists and maps are JSON text;
 *   <li>strings are always written as strings (never formulas), with the characters XML cannot carry removed and
 *       cut to Excel's 32,767-character cell limit.
 * </ul>
 * NULL is an empty cell. Truncation trailer: a last row whose first cell is {@code # truncated: <reason>}.
 */
final class XlsxRowWriter extends AbstractRowWriter {
    static final int FLUSH_EVERY = 256;
    static final int MAX_CELL_CHARS = 32_767;
    /** Deflate level: compression dominates the writer's time; level 1 is several times faster for ~15% more bytes. */
    static final int COMPRESSION_LEVEL = 1;
    private static final long MAX_EXACT = 1L << 53;
    private static final Field ROWS = rowsField();
    /** Excel's day 0 (serial numbers count from 1899-12-30 for dates from 1900-03-01 on). */
    private static final long EXCEL_EPOCH_DAY = LocalDate.of(1899, 12, 30).toEpochDay();
    private static final LocalDate FIRST_EXCEL_DATE = LocalDate.of(1900, 3, 1);
    private static final LocalDate LAST_EXCEL_DATE = LocalDate.of(9999, 12, 31);

    private Workbook workbook;
    private Worksheet sheet;
    private int sheetNumber;
    private List<String> names;
    private int r;

    XlsxRowWriter(OutputStream out, WriterOptions options) {
        super(out, options);
    }

    @Override
    public OutputFormat format() {
        return OutputFormat.XLSX;
    }

    @Override
    protected void start(List<ColumnInfo> columns) throws IOException {
        names = ColumnNames.unique(columns);
        if (names.size() > Worksheet.MAX_COLS) {
            throw new IllegalArgumentException("XLSX holds at most " + Worksheet.MAX_COLS + " columns, the result has "
                    + names.size());
        }
        workbook = new Workbook(out, "QueryAPIGate", "1.0");
        workbook.setCompressionLevel(COMPRESSION_LEVEL);
        newSheet();
    }

    private void newSheet() throws IOException {
        if (sheet != null) {
            sheet.finish();
            release(sheet);
        }
        sheetNumber++;
        String name = sheetNumber == 1 ? options.xlsxSheetName() : options.xlsxSheetName() + " (" + sheetNumber + ")";
        sheet = workbook.newWorksheet(name);
        r = 0;
        if (!names.isEmpty()) {
            for (int c = 0; c < names.size(); c++) {
                sheet.inlineString(0, c, text(names.get(c)));
            }
            sheet.range(0, 0, 0, names.size() - 1).style().bold().set();
            sheet.freezePane(0, 1);
            r = 1;
        }
    }

    @Override
    protected void writeRow(Object[] values) throws IOException {
        if (r >= Worksheet.MAX_ROWS) {
            newSheet();
        }
        Worksheet ws = sheet;
        int row = r++;
        for (int c = 0; c < names.size(); c++) {
            Object v = values[c];
            if (v == null) {
                continue;
            }
            if (v instanceof String s) {
                ws.inlineString(row, c, text(s));
            } else if (v instanceof Boolean b) {
                ws.value(row, c, b);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                long l = ((Number) v).longValue();
                if (l >= -MAX_EXACT && l <= MAX_EXACT) {
                    ws.value(row, c, l);
                } else {
                    ws.inlineString(row, c, Long.toString(l));
                }
            } else if (v instanceof BigInteger b) {
                if (b.bitLength() <= 53) {
                    ws.value(row, c, b.longValue());
                } else {
                    ws.inlineString(row, c, b.toString());
                }
            } else if (v instanceof BigDecimal d) {
                if (d.precision() <= 15 && d.scale() <= 30 && d.scale() >= -290) {
                    ws.value(row, c, d);
                } else {
                    ws.inlineString(row, c, d.toPlainString());
                }
            } else if (v instanceof Double d) {
                if (Double.isFinite(d)) {
                    ws.value(row, c, d);
                } else {
                    ws.inlineString(row, c, d.toString());
                }
            } else if (v instanceof Float f) {
                if (Float.isFinite(f)) {
                    ws.value(row, c, Double.parseDouble(f.toString()));
                } else {
                    ws.inlineString(row, c, f.toString());
                }
            } else if (v instanceof LocalDate d && excelDate(d)) {
                ws.value(row, c, d.toEpochDay() - EXCEL_EPOCH_DAY);
                ws.style(row, c).format("yyyy-mm-dd").set();
            } else if (v instanceof LocalDateTime t && excelDate(t.toLocalDate()) && t.getNano() % 1_000_000 == 0) {
                // the serial number is computed here rather than by fastexcel, which goes through the JVM's
                // default time zone (and so shifts wall-clock times that fall in its DST gaps)
                double serial = t.toLocalDate().toEpochDay() - EXCEL_EPOCH_DAY
                        + t.toLocalTime().toNanoOfDay() / 1_000_000 / 86_400_000.0;
                ws.value(row, c, serial);
                ws.style(row, c).format(t.getNano() == 0 ? "yyyy-mm-dd hh:mm:ss" : "yyyy-mm-dd hh:mm:ss.000").set();
            } else {
                ws.inlineString(row, c, text(Values.text(v)));
            }
        }
        if (row % FLUSH_EVERY == 0) {
            ws.flush();
        }
    }

    /**
     * fastexcel keeps one list slot per written row (null once flushed), and {@code finish()} clears the list
     * without shrinking it: about 5 MB for a full sheet, held until the workbook is done. Shrinks a finished
     * sheet's list so only the current sheet costs that. Best effort: if fastexcel's internals change, nothing
     * happens and memory grows by that much per extra sheet.
     */
    private static void release(Worksheet finished) {
        if (ROWS == null) {
            return;
        }
        try {
            if (ROWS.get(finished) instanceof ArrayList<?> list && list.isEmpty()) {
                list.trimToSize();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // keep going: only memory is at stake
        }
    }

    private static Field rowsField() {
        try {
            Field f = Worksheet.class.getDeclaredField("rows");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Dates Excel numbers without its 1900 leap-year quirk. */
    private static boolean excelDate(LocalDate d) {
        return !d.isBefore(FIRST_EXCEL_DATE) && !d.isAfter(LAST_EXCEL_DATE);
    }

    private static String text(String s) {
        String safe = Values.xmlSafe(s);
        if (safe.length() > MAX_CELL_CHARS) {
            int end = MAX_CELL_CHARS;
            if (Character.isHighSurrogate(safe.charAt(end - 1))) {
                end--;
            }
            safe = safe.substring(0, end);
        }
        return safe;
    }

    @Override
    protected void flushBuffered() throws IOException {
        sheet.flush();
    }

    @Override
    protected void complete() throws IOException {
        sheet.finish();
        workbook.finish();
    }

    @Override
    protected void completeTruncated(String reason) throws IOException {
        if (r >= Worksheet.MAX_ROWS) {
            newSheet();
        }
        sheet.inlineString(r, 0, text(TEXT_TRAILER_PREFIX + reason));
        sheet.style(r, 0).italic().set();
        r++;
        complete();
    }
}
