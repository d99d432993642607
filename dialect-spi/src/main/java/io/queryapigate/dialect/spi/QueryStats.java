package io.queryapigate.dialect.spi;

/**
 * Counts for a finished call.
 *
 * @param rows rows delivered to the sink
 * @param updateCount rows changed by a write, {@code -1} for a read, or {@link #UNKNOWN_UPDATE_COUNT} for a write
 *     whose engine does not say how many rows it changed
 * @param truncated true when the row limit stopped the read while more rows were available
 */
public record QueryStats(long rows, long updateCount, boolean truncated) {
    /** The update count of a write whose engine does not report it (ClickHouse before 19.x). */
    public static final long UNKNOWN_UPDATE_COUNT = -2;

    /**
     * Stats for a read.
     *
     * @param rows rows delivered
     * @param truncated whether more were available
     * @return the stats
     */
    public static QueryStats read(long rows, boolean truncated) {
        return new QueryStats(rows, -1, truncated);
    }
}
