package io.queryapigate.call;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.guard.Masking;
import io.queryapigate.output.format.JsonColumns;
import io.queryapigate.output.format.RowWriter;
import io.queryapigate.paging.PageSink;
import io.queryapigate.paging.PagedSql;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one place that composes what a call's rows pass through on their way from the dialect to the writer, for
 * all three ways of answering (buffered, paged, streamed): page → masking → JSON columns → writer (for a stream,
 * the writer is already capped by the stream's ceiling, and a client that goes away cancels the query). It also
 * notes whether the statement returned a result set at all (a write may return only an update count).
 */
final class SinkChain implements RowSink {
    private final RowSink first;
    private final PageSink pager;
    private boolean resultSet;

    private SinkChain(RowSink first, PageSink pager) {
        this.first = first;
        this.pager = pager;
    }

    /**
     * The sink a dialect fills.
     *
     * @param writer where the rows are written
     * @param mask the caller's masking plan ({@link Masking.Plan#NONE} for none)
     * @param page the paged statement, or null when the call is not paged
     */
    static SinkChain of(RowWriter writer, Masking masking, Masking.Plan mask, PagedSql page) {
        RowSink sink = masking.apply(mask, JsonColumns.wrap(writer));
        PageSink pager = page == null ? null : page.sink(sink);
        return new SinkChain(pager == null ? sink : pager, pager);
    }

    /** As {@link #of}, for a stream: a write that fails because the client went away cancels the query. */
    static SinkChain streamed(RowWriter writer, Masking masking, Masking.Plan mask) {
        AtomicReference<Runnable> cancel = new AtomicReference<>();
        RowSink toClient = new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {
                writer.columns(columns);
            }

            @Override
            public boolean row(Object[] values) {
                try {
                    return writer.row(values);
                } catch (UncheckedIOException gone) {
                    Runnable c = cancel.get();
                    if (c != null) {
                        c.run();
                    }
                    throw gone;
                }
            }

            @Override
            public void onCancellable(Runnable c) {
                cancel.set(c);
            }
        };
        return new SinkChain(masking.apply(mask, JsonColumns.wrap(toClient)), null);
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        resultSet = !columns.isEmpty();
        first.columns(columns);
    }

    @Override
    public boolean row(Object[] values) {
        return first.row(values);
    }

    @Override
    public void onCancellable(Runnable cancel) {
        first.onCancellable(cancel);
    }

    /** True when the statement returned a result set (columns), false for an update count alone. */
    boolean resultSet() {
        return resultSet;
    }

    /** The page's headers ({@code X-Page}, ...), or null when the call is not paged. */
    PageSink pager() {
        return pager;
    }
}
