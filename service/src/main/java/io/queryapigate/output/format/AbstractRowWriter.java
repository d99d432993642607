package io.queryapigate.output.format;

import io.queryapigate.dialect.spi.ColumnInfo;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/** The lifecycle shared by the writers; subclasses render. */
abstract class AbstractRowWriter implements RowWriter {
    private enum State { NEW, STARTED, DONE }

    protected final OutputStream out;
    protected final WriterOptions options;
    private State state = State.NEW;
    private long rows;

    AbstractRowWriter(OutputStream out, WriterOptions options) {
        this.out = new KeepOpen(Objects.requireNonNull(out, "out"));
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public final void columns(List<ColumnInfo> columns) {
        if (state != State.NEW) {
            throw new IllegalStateException("columns() must be called once, before any row");
        }
        state = State.STARTED;
        try {
            start(List.copyOf(columns));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public final boolean row(Object[] values) {
        if (state != State.STARTED) {
            throw new IllegalStateException(state == State.NEW ? "row() before columns()" : "row() after the end");
        }
        try {
            writeRow(values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        rows++;
        return true;
    }

    @Override
    public final void flush() {
        if (state == State.STARTED) {
            try {
                flushBuffered();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public final void finish() {
        end(null);
    }

    @Override
    public final void abort(String reason) {
        end(oneLine(reason == null || reason.isBlank() ? "stopped early" : reason));
    }

    private void end(String truncatedReason) {
        if (state == State.DONE) {
            return;
        }
        try {
            if (state == State.NEW) {
                start(List.of());
            }
            state = State.DONE;
            if (truncatedReason == null) {
                complete();
            } else {
                completeTruncated(truncatedReason);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public final long rows() {
        return rows;
    }

    /** Writes the document's start. {@code columns} may be empty (a result that ended before its columns). */
    protected abstract void start(List<ColumnInfo> columns) throws IOException;

    protected abstract void writeRow(Object[] values) throws IOException;

    protected abstract void flushBuffered() throws IOException;

    /** Writes the document's end. */
    protected abstract void complete() throws IOException;

    /** Writes the truncation trailer and the document's end. */
    protected abstract void completeTruncated(String reason) throws IOException;

    static String oneLine(String s) {
        return s.replace("\r\n", " ").replace('\r', ' ').replace('\n', ' ');
    }

    /** Shields the caller's stream from libraries that close what they write to. */
    static final class KeepOpen extends FilterOutputStream {
        KeepOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
