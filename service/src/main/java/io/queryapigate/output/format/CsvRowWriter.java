package io.queryapigate.output.format;

import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * CSV (RFC 4180: comma, CRLF) and TSV (tab, LF), written with jackson-dataformat-csv. Both quote a field with
 * {@code "} when it contains the separator, a quote, CR or LF (quotes doubled), so TSV here is "CSV with tabs" as
 * spreadsheets write it. A header row with {@link ColumnNames#unique} names comes first, also for an empty result.
 *
 * <p>Fields are quoted only when they must be. NULL is an empty unquoted field; an empty string is {@code ""}, so
 * the two stay distinct. Values follow {@link Values#text} (booleans {@code True}/{@code False}, as the Python
 * original writes them). Truncation trailer: a last line
 * {@code # truncated: <reason>}.
 */
final class CsvRowWriter extends AbstractRowWriter {
    private static final CsvFactory FACTORY = CsvFactory.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private final boolean tabs;
    private final String lineEnd;
    private CsvGenerator csv;
    private int width;

    CsvRowWriter(OutputStream out, WriterOptions options, boolean tabs) {
        super(out, options);
        this.tabs = tabs;
        this.lineEnd = tabs ? "\n" : "\r\n";
    }

    @Override
    public OutputFormat format() {
        return tabs ? OutputFormat.TSV : OutputFormat.CSV;
    }

    @Override
    protected void start(List<ColumnInfo> columns) throws IOException {
        List<String> names = ColumnNames.unique(columns);
        width = names.size();
        CsvSchema.Builder schema = CsvSchema.builder()
                .setColumnSeparator(tabs ? '\t' : ',')
                .setLineSeparator(lineEnd)
                .setQuoteChar('"')
                .setNullValue("")
                .setUseHeader(false);
        for (int i = 0; i < width; i++) {
            schema.addColumn("c" + i);
        }
        if (width == 0) {
            return; // nothing to write: no header, no rows
        }
        csv = FACTORY.createGenerator(out);
        csv.setSchema(schema.build());
        csv.writeStartArray();
        for (int i = 0; i < width; i++) {
            writeText(csv, escapeFormula(names.get(i)), i);
        }
        csv.writeEndArray();
    }

    @Override
    protected void writeRow(Object[] values) throws IOException {
        if (width == 0) {
            return;
        }
        CsvGenerator g = csv;
        g.writeStartArray();
        for (int i = 0; i < width; i++) {
            Object v = values[i];
            if (v == null) {
                g.writeNull();
            } else if (v instanceof String s) {
                writeText(g, escapeFormula(s), i);
            } else if (v instanceof Long l) {
                g.writeNumber(l);
            } else if (v instanceof Integer n) {
                g.writeNumber(n);
            } else if (v instanceof BigInteger b) {
                g.writeNumber(b);
            } else if (v instanceof BigDecimal d) {
                g.writeNumber(Values.decimal(d));
            } else {
                // doubles (NaN/Infinity as words), booleans (True/False), dates, binary, UUID, nested values: their
                // text form
                writeText(g, Values.text(v), i);
            }
        }
        g.writeEndArray();
    }

    /**
     * Minimal quoting (only what RFC 4180 needs), plus: an empty string is {@code ""} so it differs from NULL, and
     * a first-column value starting with {@code #} is quoted so that only the truncation trailer starts a line
     * with {@code #}.
     */
    private static void writeText(CsvGenerator g, String s, int column) throws IOException {
        if (s.isEmpty()) {
            g.writeRawValue("\"\"");
        } else if (column == 0 && s.charAt(0) == '#') {
            g.writeRawValue("\"" + s.replace("\"", "\"\"") + "\"");
        } else {
            g.writeString(s);
        }
    }

    private String escapeFormula(String s) {
        if (options.csvFormulaEscape() && !s.isEmpty()) {
            char c = s.charAt(0);
            if (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') {
                return "'" + s;
            }
        }
        return s;
    }

    @Override
    protected void flushBuffered() throws IOException {
        if (csv != null) {
            csv.flush();
        }
    }

    @Override
    protected void complete() throws IOException {
        if (csv != null) {
            csv.close();
        }
    }

    @Override
    protected void completeTruncated(String reason) throws IOException {
        complete();
        out.write((TEXT_TRAILER_PREFIX + reason + lineEnd).getBytes(StandardCharsets.UTF_8));
    }
}
