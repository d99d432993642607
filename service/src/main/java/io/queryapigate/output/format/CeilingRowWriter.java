package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.util.List;
import java.util.Objects;

/**
 * Caps a stream at a row ceiling. Rows up to the ceiling pass through; the first row past it is not written,
 * {@link #row} returns {@code false} (the dialect then stops reading and ends the call normally) and {@link
 * #finish} ends the document with the format's truncation trailer, reason {@code row limit N reached}, instead of
 * completing it. A result of exactly N rows is complete, not truncated.
 *
 * <pre>{@code
 * CeilingRowWriter capped = CeilingRowWriter.capped(format.newWriter(out, options), maxRows);
 * dialect.execute(request, capped);
 * capped.finish();
 * if (capped.truncated()) { log.warn(...); }
 * }</pre>
 */
public final class CeilingRowWriter implements RowWriter {
    private final RowWriter delegate;
    private final long ceiling;
    private boolean truncated;

    private CeilingRowWriter(RowWriter delegate, long ceiling) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        if (ceiling < 0) {
            throw new IllegalArgumentException("ceiling must be >= 0");
        }
        this.ceiling = ceiling;
    }

    /**
     * Wraps a writer with a cap.
     *
     * @param writer the writer
     * @param ceiling the most rows to write, at least 0
     * @return the capped writer
     */
    public static CeilingRowWriter capped(RowWriter writer, long ceiling) {
        return new CeilingRowWriter(writer, ceiling);
    }

    /** The reason written in the trailer for a ceiling of {@code n}. */
    public static String reason(long n) {
        return "row limit " + n + " reached";
    }

    @Override
    public OutputFormat format() {
        return delegate.format();
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        delegate.columns(columns);
    }

    @Override
    public boolean row(Object[] values) {
        if (truncated) {
            return false;
        }
        if (delegate.rows() >= ceiling) {
            truncated = true;
            return false;
        }
        return delegate.row(values);
    }

    @Override
    public void onCancellable(Runnable cancel) {
        delegate.onCancellable(cancel);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public void finish() {
        if (truncated) {
            delegate.abort(reason(ceiling));
        } else {
            delegate.finish();
        }
    }

    @Override
    public void abort(String reason) {
        delegate.abort(reason);
    }

    @Override
    public long rows() {
        return delegate.rows();
    }

    /** Whether a row past the ceiling arrived (and the stream was therefore cut). */
    public boolean truncated() {
        return truncated;
    }

    /** The ceiling. */
    public long ceiling() {
        return ceiling;
    }
}
