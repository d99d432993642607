package io.queryapigate.output.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/** Reads a Parquet file from bytes with parquet-java, without Hadoop. */
final class ParquetReading {
    record Result(MessageType schema, Map<String, String> metadata, List<Group> rows, int rowGroups) {}

    private ParquetReading() {}

    /**
     * Read options without Hadoop. {@code ParquetReadOptions.builder(..)} reaches for {@code ParquetInputFormat}
     * (Hadoop MapReduce), so the options are made with their package-private constructor: no filters, no checksum
     * checks, our codecs.
     */
    static ParquetReadOptions options() {
        try {
            for (Constructor<?> c : ParquetReadOptions.class.getDeclaredConstructors()) {
                Class<?>[] types = c.getParameterTypes();
                if (types.length == 18 && types[17] == ParquetConfiguration.class) {
                    c.setAccessible(true);
                    return (ParquetReadOptions) c.newInstance(false, false, false, false, false, false, false, false,
                            false, FilterCompat.NOOP, ParquetMetadataConverter.NO_FILTER, ParquetCodecs.INSTANCE,
                            new HeapByteBufferAllocator(), 8 << 20, new HashMap<String, String>(), null, null,
                            new PlainParquetConfiguration());
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("ParquetReadOptions constructor not found (parquet-java changed?)");
    }

    static Result read(byte[] bytes) throws IOException {
        ParquetReadOptions options = options();
        try (ParquetFileReader reader = ParquetFileReader.open(new BytesFile(bytes), options)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageColumnIO io = new ColumnIOFactory().getColumnIO(schema);
            List<Group> rows = new ArrayList<>();
            int groups = 0;
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                groups++;
                RecordReader<Group> rr = io.getRecordReader(pages, new GroupRecordConverter(schema));
                for (long i = 0; i < pages.getRowCount(); i++) {
                    rows.add(rr.read());
                }
            }
            return new Result(schema, reader.getFooter().getFileMetaData().getKeyValueMetaData(), rows, groups);
        }
    }

    /** Row count and row groups only, without materialising rows. */
    static long[] count(byte[] bytes) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(new BytesFile(bytes), options())) {
            return new long[] {reader.getRecordCount(), reader.getRowGroups().size()};
        }
    }

    static final class BytesFile implements InputFile {
        private final byte[] bytes;

        BytesFile(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public long getLength() {
            return bytes.length;
        }

        @Override
        public SeekableInputStream newStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes);
            return new DelegatingSeekableInputStream(in) {
                @Override
                public long getPos() {
                    return bytes.length - in.available();
                }

                @Override
                public void seek(long newPos) {
                    in.reset();
                    in.skip(newPos);
                }
            };
        }
    }
}
