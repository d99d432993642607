package io.queryapigate.dialect.spi;

import java.util.List;

/**
 * Receives one call's result, pushed by the dialect: first {@link #columns} once, then {@link #row} per row.
 *
 * <p>Values handed to {@link #row} are Java objects of these kinds, so that the service can render every format
 * without knowing the driver: {@code null}; {@link Long}, {@link Integer}, {@link Short}, {@link Byte}, {@link
 * java.math.BigInteger} (integers that do not fit a long); {@link java.math.BigDecimal}; {@link Double}, {@link
 * Float}; {@link Boolean}; {@link String}; {@link java.time.LocalDate}, {@link java.time.LocalTime}, {@link
 * java.time.LocalDateTime} (no zone), {@link java.time.OffsetDateTime} (with zone); {@code byte[]}; {@link
 * java.util.UUID}; {@link java.util.List} (arrays) and {@link java.util.Map} (structs, JSON objects) of the same
 * kinds. Dialects convert anything else, for example to its {@code String} form.
 *
 * <p>A sink is used by one thread at a time, the one that called {@link Dialect#execute}, except {@link
 * #onCancellable}'s callback, which the service may invoke from any thread.
 */
public interface RowSink {

    /**
     * The result's columns, called once before the first row (also for an empty result).
     *
     * @param columns the columns in result order
     */
    void columns(List<ColumnInfo> columns);

    /**
     * One row. The dialect may reuse {@code values} for the next row, so the sink must copy what it keeps.
     *
     * @param values one value per column, in column order
     * @return {@code true} to receive more rows, {@code false} to stop reading (the call then ends normally)
     */
    boolean row(Object[] values);

    /**
     * Called once the statement is running with a callback that cancels it (on the database where the engine
     * allows). The service keeps it to stop a query whose caller went away. Safe to ignore; the default does.
     *
     * @param cancel cancels the running statement; may be called from any thread, more than once, or after the
     *     statement ended (then it does nothing)
     */
    default void onCancellable(Runnable cancel) {}
}
