package io.queryapigate.output.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * YAML: a block sequence of mappings, keys in column order ({@link ColumnNames#unique}), written with
 * jackson-dataformat-yaml. Strings are always double-quoted, so text such as {@code "true"}, {@code "0123"},
 * {@code "2024-01-01"} or {@code "null"} stays text for YAML 1.1 and 1.2 readers. NULL is {@code null}; numbers
 * are exact plain scalars; other values follow {@link Values#writeJson} (binary is base64 text, not
 * {@code !!binary}). Truncation trailer: a last mapping {@code {_truncated: true, _reason: ..., _rows: N}}.
 */
final class YamlRowWriter extends AbstractRowWriter {
    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private JsonGenerator yaml;
    private String[] names;

    YamlRowWriter(OutputStream out, WriterOptions options) {
        super(out, options);
    }

    @Override
    public OutputFormat format() {
        return OutputFormat.YAML;
    }

    @Override
    protected void start(List<ColumnInfo> columns) throws IOException {
        names = ColumnNames.unique(columns).toArray(String[]::new);
        yaml = FACTORY.createGenerator(out);
        yaml.writeStartArray();
    }

    @Override
    protected void writeRow(Object[] values) throws IOException {
        yaml.writeStartObject();
        for (int i = 0; i < names.length; i++) {
            yaml.writeFieldName(names[i]);
            Values.writeJson(yaml, values[i]);
        }
        yaml.writeEndObject();
    }

    @Override
    protected void flushBuffered() throws IOException {
        yaml.flush();
    }

    @Override
    protected void complete() throws IOException {
        yaml.writeEndArray();
        yaml.close();
    }

    @Override
    protected void completeTruncated(String reason) throws IOException {
        yaml.writeStartObject();
        yaml.writeFieldName(TRUNCATED_KEY);
        yaml.writeBoolean(true);
        yaml.writeFieldName(REASON_KEY);
        yaml.writeString(reason);
        yaml.writeFieldName(ROWS_KEY);
        yaml.writeNumber(rows());
        yaml.writeEndObject();
        complete();
    }
}
