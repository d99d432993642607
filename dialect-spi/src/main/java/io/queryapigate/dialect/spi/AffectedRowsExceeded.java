package io.queryapigate.dialect.spi;

/**
 * A write that changed more rows than its {@link QueryRequest#maxAffectedRows()} and was rolled back: nothing it
 * did is kept. Classified {@link DialectError#ROW_LIMIT}.
 */
public final class AffectedRowsExceeded extends DialectException {
    private static final long serialVersionUID = 1L;

    private final long affected;
    private final long ceiling;

    /**
     * The refusal of a write rolled back.
     *
     * @param affected the rows the statement changed before it was rolled back
     * @param ceiling the most it was allowed to change
     */
    public AffectedRowsExceeded(long affected, long ceiling) {
        super(DialectError.ROW_LIMIT, "the write changed " + affected + " rows, more than the " + ceiling
                + " allowed; it was rolled back");
        this.affected = affected;
        this.ceiling = ceiling;
    }

    /**
     * The rows the statement changed before it was rolled back.
     *
     * @return the count
     */
    public long affected() {
        return affected;
    }

    /**
     * The most rows it was allowed to change.
     *
     * @return the ceiling
     */
    public long ceiling() {
        return ceiling;
    }
}
