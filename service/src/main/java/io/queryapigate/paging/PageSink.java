package io.queryapigate.paging;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cuts one page out of the rows a dialect pushes: skips the rows the SQL could not skip, forwards up to {@code
 * pageSize} rows, and on the extra row ({@code pageSize + 1}) records {@link #hasMore()} and stops the read.
 */
public final class PageSink implements RowSink {
    private final RowSink target;
    private final PageRequest request;
    private long toSkip;
    private int passed;
    private boolean more;

    PageSink(RowSink target, PageRequest request, long skip) {
        this.target = target;
        this.request = request;
        this.toSkip = skip;
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        target.columns(columns);
    }

    @Override
    public boolean row(Object[] values) {
        if (toSkip > 0) {
            toSkip--;
            return true;
        }
        if (passed >= request.pageSize()) {
            more = true;
            return false;
        }
        passed++;
        return target.row(values);
    }

    @Override
    public void onCancellable(Runnable cancel) {
        target.onCancellable(cancel);
    }

    /** Whether a row beyond this page exists (within the statement's own window). */
    public boolean hasMore() {
        return more;
    }

    /** Rows passed to the target. */
    public int rows() {
        return passed;
    }

    /**
     * {@code X-Page}, {@code X-Page-Size}, {@code X-Row-Count} (rows on this page), {@code X-Has-More}
     * ({@code true}/{@code false}) for the response.
     */
    public Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("X-Page", Long.toString(request.page()));
        h.put("X-Page-Size", Integer.toString(request.pageSize()));
        h.put("X-Row-Count", Integer.toString(passed));
        h.put("X-Has-More", Boolean.toString(more));
        return h;
    }
}
