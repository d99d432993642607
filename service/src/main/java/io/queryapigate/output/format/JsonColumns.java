package io.queryapigate.output.format;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * Turns the text of JSON-typed columns ({@code json}, {@code jsonb}) into nested values, so every format renders
 * them as JSON (nested where the format nests, compact text elsewhere) rather than as the database's own text.
 * Text that does not parse is passed through unchanged.
 */
public final class JsonColumns {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<Object> ANY = new TypeReference<>() {};

    private JsonColumns() {}

    public static RowSink wrap(RowSink delegate) {
        return new RowSink() {
            private int[] jsonColumns = new int[0];

            @Override
            public void columns(List<ColumnInfo> columns) {
                int[] found = new int[columns.size()];
                int n = 0;
                for (int i = 0; i < columns.size(); i++) {
                    String type = columns.get(i).typeName().toLowerCase(Locale.ROOT);
                    if (type.equals("json") || type.equals("jsonb")) {
                        found[n++] = i;
                    }
                }
                jsonColumns = java.util.Arrays.copyOf(found, n);
                delegate.columns(columns);
            }

            @Override
            public boolean row(Object[] values) {
                for (int i : jsonColumns) {
                    if (values[i] instanceof String text) {
                        try {
                            values[i] = MAPPER.readValue(text, ANY);
                        } catch (IOException notJson) {
                            // keep the text
                        }
                    }
                }
                return delegate.row(values);
            }

            @Override
            public void onCancellable(Runnable cancel) {
                delegate.onCancellable(cancel);
            }
        };
    }
}
