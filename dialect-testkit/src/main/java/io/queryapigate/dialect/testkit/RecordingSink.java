package io.queryapigate.dialect.testkit;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.RowSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link RowSink} that keeps what it receives: the columns, a copy of every row, how often {@link #columns} was
 * called and the cancel callback. Optionally asks the dialect to stop after a number of rows.
 *
 * <p>Used by one call at a time, like any sink; {@link #cancel()} may be called from another thread.
 */
public final class RecordingSink implements RowSink {
    private final long stopAfter;
    private final List<List<Object>> rows = new ArrayList<>();
    private final AtomicReference<Runnable> cancel = new AtomicReference<>();
    private List<ColumnInfo> columns;
    private int columnsCalls;

    /** A sink that takes every row. */
    public RecordingSink() {
        this(Long.MAX_VALUE);
    }

    /**
     * A sink that returns {@code false} from {@link #row} once it holds {@code stopAfter} rows.
     *
     * @param stopAfter the number of rows to take; at least 1
     */
    public RecordingSink(long stopAfter) {
        if (stopAfter < 1) {
            throw new IllegalArgumentException("stopAfter must be at least 1");
        }
        this.stopAfter = stopAfter;
    }

    @Override
    public void columns(List<ColumnInfo> columns) {
        this.columns = List.copyOf(columns);
        columnsCalls++;
    }

    @Override
    public boolean row(Object[] values) {
        if (columns == null) {
            throw new AssertionError("row() before columns()");
        }
        if (values.length != columns.size()) {
            throw new AssertionError("row has " + values.length + " values for " + columns.size() + " columns");
        }
        rows.add(Collections.unmodifiableList(Arrays.asList(values.clone())));
        return rows.size() < stopAfter;
    }

    /**
     * Cancels the call this sink receives from another thread: waits (up to 10 s) until the dialect hands over its
     * cancel callback, then {@code delay} more, then cancels.
     *
     * @param delay how long the call runs before it is cancelled
     * @return the cancelling thread, to join after the call returns
     */
    public Thread cancelAfter(java.time.Duration delay) {
        return Thread.ofPlatform().daemon().start(() -> {
            try {
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
                while (cancelCallback() == null && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                Thread.sleep(delay.toMillis());
                cancel();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Runs a call that is cancelled from another thread {@code delay} after the dialect hands over its cancel
     * callback, and returns how it failed (null when it did not).
     *
     * @param dialect the dialect
     * @param request the call, slow enough to be cancelled
     * @param delay how long the call runs before it is cancelled
     * @return the failure, or null
     * @throws InterruptedException when interrupted while waiting for the cancelling thread
     */
    public static io.queryapigate.dialect.spi.DialectException cancelled(io.queryapigate.dialect.spi.Dialect dialect,
            io.queryapigate.dialect.spi.QueryRequest request, java.time.Duration delay) throws InterruptedException {
        RecordingSink sink = new RecordingSink();
        Thread canceller = sink.cancelAfter(delay);
        io.queryapigate.dialect.spi.DialectException failure = null;
        try {
            dialect.execute(request, sink);
        } catch (io.queryapigate.dialect.spi.DialectException e) {
            failure = e;
        }
        canceller.join(10_000);
        return failure;
    }

    @Override
    public void onCancellable(Runnable cancel) {
        this.cancel.set(cancel);
    }

    /**
     * The columns received, or null before {@link #columns} was called.
     *
     * @return the columns
     */
    public List<ColumnInfo> columns() {
        return columns;
    }

    /**
     * The column names, in order.
     *
     * @return the names; empty before {@link #columns} was called
     */
    public List<String> columnNames() {
        return columns == null ? List.of() : columns.stream().map(ColumnInfo::name).toList();
    }

    /**
     * How often {@link #columns} was called; the SPI requires exactly once per call.
     *
     * @return the count
     */
    public int columnsCalls() {
        return columnsCalls;
    }

    /**
     * Copies of the rows received, in order; values may be null.
     *
     * @return the rows
     */
    public List<List<Object>> rows() {
        return Collections.unmodifiableList(rows);
    }

    /**
     * One column's values, across the rows.
     *
     * @param name the column name
     * @return the values, in row order
     */
    public List<Object> column(String name) {
        int index = columnNames().indexOf(name);
        if (index < 0) {
            throw new AssertionError("no column " + name + " in " + columnNames());
        }
        List<Object> values = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            values.add(row.get(index));
        }
        return values;
    }

    /**
     * Runs {@code request} into a new sink.
     *
     * @param dialect the dialect
     * @param request the call
     * @return the sink, holding the result
     */
    public static RecordingSink run(io.queryapigate.dialect.spi.Dialect dialect,
            io.queryapigate.dialect.spi.QueryRequest request) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        return sink;
    }

    /**
     * The failure of {@code request}; throws {@link AssertionError} when the call succeeds.
     *
     * @param dialect the dialect
     * @param request the call that must fail
     * @return the failure
     */
    public static io.queryapigate.dialect.spi.DialectException failure(io.queryapigate.dialect.spi.Dialect dialect,
            io.queryapigate.dialect.spi.QueryRequest request) {
        try {
            dialect.execute(request, new RecordingSink());
        } catch (io.queryapigate.dialect.spi.DialectException e) {
            return e;
        }
        throw new AssertionError("expected the call to fail: " + request.sql() + " (" + request.mode() + ")");
    }

    /**
     * The first value of the first row.
     *
     * @return the value, possibly null
     */
    public Object singleValue() {
        if (rows.isEmpty()) {
            throw new AssertionError("no rows");
        }
        return rows.get(0).get(0);
    }

    /**
     * The cancel callback the dialect handed over, if any.
     *
     * @return the callback, or null
     */
    public Runnable cancelCallback() {
        return cancel.get();
    }

    /** Invokes the cancel callback; fails when the dialect did not provide one. */
    public void cancel() {
        Runnable callback = cancel.get();
        if (callback == null) {
            throw new AssertionError("the dialect did not call onCancellable");
        }
        callback.run();
    }
}
