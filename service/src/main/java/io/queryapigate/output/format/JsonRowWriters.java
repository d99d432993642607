package io.queryapigate.output.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * JSON (one array of objects) and NDJSON (one object per line, each line ending in LF), written with Jackson's
 * streaming generator. Field names follow {@link ColumnNames#unique}; values follow {@link Values#writeJson}.
 * Truncation trailer: a last object {@code {"_truncated":true,"_reason":"...","_rows":N}}.
 */
final class JsonRowWriters {
    private JsonRowWriters() {}

    static RowWriter json(OutputStream out, WriterOptions options) {
        return new Writer(out, options, false);
    }

    static RowWriter ndjson(OutputStream out, WriterOptions options) {
        return new Writer(out, options, true);
    }

    private static final class Writer extends AbstractRowWriter {
        private static final SerializedString TRUNCATED = new SerializedString(TRUNCATED_KEY);
        private static final SerializedString REASON = new SerializedString(REASON_KEY);
        private static final SerializedString ROWS = new SerializedString(ROWS_KEY);

        private final boolean lines;
        private JsonGenerator json;
        private SerializableString[] names;

        Writer(OutputStream out, WriterOptions options, boolean lines) {
            super(out, options);
            this.lines = lines;
        }

        @Override
        public OutputFormat format() {
            return lines ? OutputFormat.NDJSON : OutputFormat.JSON;
        }

        @Override
        protected void start(List<ColumnInfo> columns) throws IOException {
            List<String> unique = ColumnNames.unique(columns);
            names = new SerializableString[unique.size()];
            for (int i = 0; i < names.length; i++) {
                names[i] = new SerializedString(unique.get(i));
            }
            json = Values.JSON.createGenerator(out);
            if (lines) {
                json.setRootValueSeparator(null);
            } else {
                json.writeStartArray();
            }
        }

        @Override
        protected void writeRow(Object[] values) throws IOException {
            JsonGenerator g = json;
            g.writeStartObject();
            for (int i = 0; i < names.length; i++) {
                g.writeFieldName(names[i]);
                Values.writeJson(g, values[i]);
            }
            g.writeEndObject();
            if (lines) {
                g.writeRaw('\n');
            }
        }

        @Override
        protected void flushBuffered() throws IOException {
            json.flush();
        }

        @Override
        protected void complete() throws IOException {
            if (!lines) {
                json.writeEndArray();
            }
            json.close();
        }

        @Override
        protected void completeTruncated(String reason) throws IOException {
            json.writeStartObject();
            json.writeFieldName(TRUNCATED);
            json.writeBoolean(true);
            json.writeFieldName(REASON);
            json.writeString(reason);
            json.writeFieldName(ROWS);
            json.writeNumber(rows());
            json.writeEndObject();
            if (lines) {
                json.writeRaw('\n');
            }
            complete();
        }
    }
}
