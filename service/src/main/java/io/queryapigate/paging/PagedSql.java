package io.queryapigate.paging;

import io.queryapigate.dialect.spi.RowSink;

/**
 * A statement rewritten for one page.
 *
 * @param sql the statement to run (same {@code ?} markers, in the same order, as the original)
 * @param request the page asked for
 * @param mode how the page is cut
 * @param skip rows the caller must skip before the page ({@code 0} unless {@link Mode#CLIENT})
 */
public record PagedSql(String sql, PageRequest request, Mode mode, long skip) {
    /** How the window is applied. */
    public enum Mode {
        /** {@code LIMIT pageSize+1 OFFSET o} appended (the statement had no window of its own). */
        APPENDED,
        /** The statement's own literal window replaced by its intersection with the page. */
        NARROWED,
        /** The statement wrapped: {@code SELECT * FROM (<stmt>) AS qag_page LIMIT .. OFFSET ..}. */
        WRAPPED,
        /** SQL unchanged (generic JDBC family, or a statement the parser cannot place a clause in): the rows are
         *  skipped and cut while reading, see {@link #sink}. */
        CLIENT
    }

    /**
     * The sink to hand to the dialect: it skips {@link #skip} rows, passes at most {@code pageSize} rows to
     * {@code target}, and stops the read at the extra row, recording that more rows exist.
     *
     * @param target where the page's rows go (a {@link RowWriter}, say)
     * @return the paging sink; read {@link PageSink#hasMore()} and {@link PageSink#headers()} after the call
     */
    public PageSink sink(RowSink target) {
        return new PageSink(target, request, skip);
    }
}
