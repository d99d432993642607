package io.queryapigate.dialect.spi;

/**
 * Counts for a finished call.
 *
 * @param rows rows delivered to the sink
 * @param updateCount rows changed by a write, or {@code -1} for a read
 * @param truncated true when the row limit stopped the read while more rows were available
 */
public record QueryStats(long rows, long updateCount, boolean truncated) {
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
