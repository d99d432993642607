package io.queryapigate.output.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Streams 2,000,000 rows per streamable format into a discarding stream and checks that the heap does not grow
 * with the row count (measured after full GCs at checkpoints). Its {@code main} prints the 1M-row throughput of every
 * format (a benchmark, not a test).
 */
class StreamingMemoryTest {
    static final List<ColumnInfo> COLUMNS = List.of(
            new ColumnInfo("id", "BIGINT", JDBCType.BIGINT),
            new ColumnInfo("name", "VARCHAR", JDBCType.VARCHAR),
            new ColumnInfo("amount", "DECIMAL(12,2)", JDBCType.DECIMAL),
            new ColumnInfo("score", "DOUBLE", JDBCType.DOUBLE),
            new ColumnInfo("at", "TIMESTAMP", JDBCType.TIMESTAMP),
            new ColumnInfo("ok", "BOOLEAN", JDBCType.BOOLEAN));
    static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0);

    @BeforeAll
    static void quiet() {
        TestingLogging.quiet();
    }

    static final class Discard extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    static void fill(Object[] row, long i) {
        row[0] = i;
        row[1] = "customer " + i + " \"quoted\", with comma";
        row[2] = BigDecimal.valueOf(i % 1_000_000, 2);
        row[3] = i * 0.5;
        row[4] = T0.plusSeconds(i);
        row[5] = (i & 1) == 0;
    }

    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }

    /** [rows/s, bytes, peak growth in bytes] */
    static long[] stream(OutputFormat format, int rows, boolean measureHeap) {
        Discard out = new Discard();
        RowWriter w = format.newWriter(out);
        w.columns(COLUMNS);
        Object[] row = new Object[COLUMNS.size()];
        long baseline = 0;
        long peak = 0;
        long start = System.nanoTime();
        for (long i = 0; i < rows; i++) {
            fill(row, i);
            w.row(row);
            if (measureHeap && i == 20_000) {
                baseline = usedAfterGc(); // the writer's working set is in place by now
            } else if (measureHeap && i > 0 && i % 500_000 == 0) {
                peak = Math.max(peak, usedAfterGc() - baseline);
            }
        }
        if (measureHeap) {
            peak = Math.max(peak, usedAfterGc() - baseline);
        }
        w.finish();
        long nanos = System.nanoTime() - start;
        return new long[] {rows * 1_000_000_000L / Math.max(1, nanos), out.bytes, peak};
    }

    @ParameterizedTest
    @EnumSource(value = OutputFormat.class, names = {"CSV", "TSV", "NDJSON", "XLSX", "PARQUET"})
    void twoMillionRowsKeepTheHeapFlat(OutputFormat format) {
        long[] r = stream(format, 2_000_000, true);
        System.out.printf("%-8s 2M rows: %,d bytes, heap growth %,d bytes%n", format, r[1], r[2]);
        long limit = switch (format) {
            case PARQUET -> 32L << 20; // one 8 MiB row group, page and dictionary buffers
            case XLSX -> 16L << 20;
            default -> 8L << 20;
        };
        assertThat(r[1]).isGreaterThan(2_000_000L * 20);
        assertThat(r[2]).as("heap growth of %s", format).isLessThan(limit);
    }

    /** Throughput of each writer for 1M rows: a benchmark, run by hand (not a test), see docs/formats.md. */
    public static void main(String[] args) {
        for (OutputFormat format : OutputFormat.values()) {
            stream(format, 100_000, false); // warm-up
            long[] r = stream(format, 1_000_000, false);
            System.out.printf("BENCH %-8s 1M rows: %,d rows/s, %,d bytes%n", format, r[0], r[1]);
        }
    }
}
