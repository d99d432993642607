package io.queryapigate.output.format;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Parquet page compression without Hadoop's codec classes: snappy through snappy-java, zstd through zstd-jni
 * (both already parquet-hadoop dependencies), or none. Decompression is there for readers (the tests).
 */
final class ParquetCodecs implements CompressionCodecFactory {
    static final ParquetCodecs INSTANCE = new ParquetCodecs();
    private static final int ZSTD_LEVEL = 3;

    private ParquetCodecs() {}

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, ZSTD -> new Compressor(codec);
            default -> throw new IllegalArgumentException("unsupported Parquet codec " + codec);
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return switch (codec) {
            case UNCOMPRESSED, SNAPPY, ZSTD -> new Decompressor(codec);
            default -> throw new IllegalArgumentException("unsupported Parquet codec " + codec);
        };
    }

    @Override
    public void release() {}

    /** The bytes of a page, copied once. */
    static byte[] array(BytesInput bytes) throws IOException {
        byte[] out = new byte[Math.toIntExact(bytes.size())];
        bytes.writeAllTo(new OutputStream() {
            private int pos;

            @Override
            public void write(int b) {
                out[pos++] = (byte) b;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                System.arraycopy(b, off, out, pos, len);
                pos += len;
            }
        });
        return out;
    }

    private record Compressor(CompressionCodecName codec) implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            return switch (codec) {
                case SNAPPY -> BytesInput.from(Snappy.compress(array(bytes)));
                case ZSTD -> BytesInput.from(Zstd.compress(array(bytes), ZSTD_LEVEL));
                default -> bytes;
            };
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        @Override
        public void release() {}
    }

    private record Decompressor(CompressionCodecName codec) implements BytesInputDecompressor {
        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            return switch (codec) {
                case SNAPPY -> BytesInput.from(Snappy.uncompress(array(bytes)));
                case ZSTD -> BytesInput.from(Zstd.decompress(array(bytes), uncompressedSize));
                default -> bytes;
            };
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            byte[] in = new byte[compressedSize];
            input.get(in);
            BytesInput result = decompress(BytesInput.from(in), uncompressedSize);
            output.put(array(result));
        }

        @Override
        public void release() {}
    }
}
