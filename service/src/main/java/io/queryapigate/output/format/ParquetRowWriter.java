package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Parquet, written with parquet-java ({@code parquet-hadoop}) without Hadoop at run time: the file goes straight to
 * the stream through an {@link OutputFile}, configuration is {@link PlainParquetConfiguration} and compression is
 * {@link ParquetCodecs} (snappy-java, zstd-jni) instead of Hadoop's codecs. Hadoop's API is needed to compile
 * only.
 *
 * <p>The writer keeps one row group in memory ({@link WriterOptions#parquetRowGroupBytes}, 8 MiB by default), so
 * the first bytes leave once the first row group is complete and the footer at the end. Column types come from
 * {@link ParquetColumn}; field names are {@link ColumnNames#unique} (an empty name becomes {@code column_N}).
 * The footer's key/value metadata carries {@value RowWriter#PARQUET_TRUNCATED_KEY} ({@code true}/{@code false})
 * and, when truncated, {@value RowWriter#PARQUET_REASON_KEY}.
 */
final class ParquetRowWriter extends AbstractRowWriter {
    /** The placeholder column of a file for a result without columns. */
    static final String NO_COLUMNS = "_no_columns";

    private RowSupport support;
    private ParquetWriter<Object[]> writer;
    private StreamFile file;

    ParquetRowWriter(OutputStream out, WriterOptions options) {
        super(out, options);
    }

    @Override
    public OutputFormat format() {
        return OutputFormat.PARQUET;
    }

    @Override
    protected void start(List<ColumnInfo> columns) throws IOException {
        List<String> raw = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            String n = columns.get(i).name();
            raw.add(n.isEmpty() ? "column_" + (i + 1) : n);
        }
        List<String> names = ColumnNames.distinct(raw);
        ParquetColumn[] cols = new ParquetColumn[columns.size()];
        List<Type> fields = new ArrayList<>(cols.length);
        for (int i = 0; i < cols.length; i++) {
            cols[i] = ParquetColumn.of(columns.get(i), names.get(i), i);
            fields.add(cols[i].type);
        }
        if (fields.isEmpty()) {
            // Parquet cannot hold a schema without columns: a result that ended before its columns (or has none)
            // becomes a file with one empty BOOLEAN column
            fields.add(org.apache.parquet.schema.Types.optional(
                    org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN).named(NO_COLUMNS));
        }
        support = new RowSupport(new MessageType("result", fields), cols);
        CompressionCodecName codec = switch (options.parquetCompression()) {
            case "zstd" -> CompressionCodecName.ZSTD;
            case "none" -> CompressionCodecName.UNCOMPRESSED;
            default -> CompressionCodecName.SNAPPY;
        };
        file = new StreamFile(out);
        writer = new Builder(file, support)
                .withConf(new PlainParquetConfiguration())
                .withCodecFactory(ParquetCodecs.INSTANCE)
                .withCompressionCodec(codec)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withRowGroupSize(options.parquetRowGroupBytes())
                .withPageSize(options.parquetPageBytes())
                .withDictionaryPageSize(options.parquetPageBytes())
                .withValidation(false)
                .build();
    }

    @Override
    protected void writeRow(Object[] values) throws IOException {
        writer.write(values);
    }

    @Override
    protected void flushBuffered() throws IOException {
        file.flush(); // finished row groups; the current one is written whole when full
    }

    @Override
    protected void complete() throws IOException {
        support.metadata.put(PARQUET_TRUNCATED_KEY, "false");
        writer.close();
    }

    @Override
    protected void completeTruncated(String reason) throws IOException {
        support.metadata.put(PARQUET_TRUNCATED_KEY, "true");
        support.metadata.put(PARQUET_REASON_KEY, reason);
        writer.close();
    }

    /** Feeds rows to Parquet's record consumer, skipping NULL fields (OPTIONAL columns). */
    static final class RowSupport extends WriteSupport<Object[]> {
        final Map<String, String> metadata = new LinkedHashMap<>();
        private final MessageType schema;
        private final ParquetColumn[] cols;
        private RecordConsumer rc;

        RowSupport(MessageType schema, ParquetColumn[] cols) {
            this.schema = schema;
            this.cols = cols;
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        @SuppressWarnings("deprecation") // abstract in WriteSupport: must exist, never called (no Hadoop here)
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.rc = recordConsumer;
        }

        @Override
        public void write(Object[] values) {
            rc.startMessage();
            for (ParquetColumn c : cols) {
                Object v = values[c.index];
                if (v != null) {
                    rc.startField(c.name, c.index);
                    c.write(rc, v);
                    rc.endField(c.name, c.index);
                }
            }
            rc.endMessage();
        }

        @Override
        public String getName() {
            return "queryapigate";
        }

        @Override
        public FinalizedWriteContext finalizeWrite() {
            return new FinalizedWriteContext(metadata);
        }
    }

    private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
        private final RowSupport support;

        Builder(OutputFile file, RowSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(ParquetConfiguration conf) {
            return support;
        }

        @Override
        @SuppressWarnings("deprecation") // abstract in the builder: must exist, never called (no Hadoop here)
        protected WriteSupport<Object[]> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
            return support;
        }
    }

    /** The response stream as a Parquet output "file", counting bytes for the writer's offsets. */
    private static final class StreamFile implements OutputFile {
        private final OutputStream out;
        private PositionOutputStream created;

        StreamFile(OutputStream out) {
            this.out = out;
        }

        void flush() throws IOException {
            if (created != null) {
                created.flush();
            }
            out.flush();
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) {
            return createOrOverwrite(blockSizeHint);
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) {
            BufferedOutputStream buffered = new BufferedOutputStream(out, 64 << 10);
            created = new PositionOutputStream() {
                private long pos;

                @Override
                public long getPos() {
                    return pos;
                }

                @Override
                public void write(int b) throws IOException {
                    buffered.write(b);
                    pos++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    buffered.write(b, off, len);
                    pos += len;
                }

                @Override
                public void flush() throws IOException {
                    buffered.flush();
                }

                @Override
                public void close() throws IOException {
                    buffered.flush(); // the stream's owner closes it
                }
            };
            return created;
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return "response";
        }
    }
}
