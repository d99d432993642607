package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import java.util.List;

/**
 * A {@link RowSink} that renders one result in one {@link OutputFormat} straight to an {@link java.io.OutputStream},
 * row by row. Nothing is kept per row beyond what the format's library needs (Parquet buffers one row group, XLSX
 * a few hundred rows), so a writer can carry any number of rows in flat memory.
 *
 * <p>Lifecycle: {@link #columns} once, {@link #row} per row, then exactly one of {@link #finish} (the result is
 * complete) or {@link #abort} (the result ends early: the writer closes the document with the format's
 * truncation trailer naming the reason, see {@code docs/formats.md}). Later calls to {@code finish}/{@code abort}
 * do nothing. Neither closes the stream: its owner does. A writer is used by one thread at a time.
 *
 * <p>I/O failures (a client that went away) surface as {@link java.io.UncheckedIOException} from any method;
 * a value that the format cannot carry (for example a decimal too wide for its Parquet column) as {@link
 * IllegalArgumentException}.
 */
public interface RowWriter extends RowSink {
    /** The key (JSON, NDJSON, YAML) marking the truncation trailer: {@code {"_truncated": true, ...}}. */
    String TRUNCATED_KEY = "_truncated";
    /** The trailer key holding the human-readable reason. */
    String REASON_KEY = "_reason";
    /** The trailer key holding the number of rows written before it. */
    String ROWS_KEY = "_rows";
    /** How a CSV/TSV/XLSX truncation trailer line starts. */
    String TEXT_TRAILER_PREFIX = "# truncated: ";
    /** Parquet footer metadata keys (key/value metadata of the file). */
    String PARQUET_TRUNCATED_KEY = "queryapigate.truncated";
    /** Parquet footer metadata key holding the reason when truncated. */
    String PARQUET_REASON_KEY = "queryapigate.truncated.reason";

    /** The format written. */
    OutputFormat format();

    /**
     * Starts the document. Must be called once, before any row.
     *
     * @param columns the result columns
     */
    @Override
    void columns(List<ColumnInfo> columns);

    /**
     * Writes one row. The array may be reused by the caller after the call.
     *
     * @param values one value per column
     * @return {@code true} (writers never ask to stop; wrappers such as {@link CeilingRowWriter} may)
     */
    @Override
    boolean row(Object[] values);

    /**
     * Pushes what the format has already completed to the stream (text formats: everything written so far; Parquet:
     * finished row groups; XLSX: finished rows). Useful before a long pause so the client sees progress.
     */
    void flush();

    /** Completes the document and flushes it. Does not close the stream. */
    void finish();

    /**
     * Ends the document early with the format's truncation trailer carrying {@code reason}, and flushes it. Used
     * when a row ceiling is reached or the stream must stop before the result's end. Does not close the stream.
     *
     * @param reason a short human-readable reason, such as {@code row limit 1000 reached}; line breaks are replaced
     */
    void abort(String reason);

    /** Rows written so far (trailers excluded). */
    long rows();
}
