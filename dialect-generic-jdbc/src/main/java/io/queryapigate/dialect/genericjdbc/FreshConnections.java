package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Connections that each serve one call: {@code size} slots, each cycling through open (in the background), spare,
 * in use by one call, and closed (in the background) before the slot opens its next connection. A caller waits
 * only when every slot is busy opening, in use or closing; at most {@code size} connections are open at once.
 *
 * <p>Each slot has a worker thread of its own, so replacements are opened in parallel and without pause (HikariCP,
 * which this replaces, opens them on one thread and sleeps 30 ms after each, which capped a pool of any size at
 * about 32 calls a second). A failed open is retried after a back-off of 50 ms doubling to 2 s; the last failure is
 * the cause a waiting caller is given. A spare that waited over a second is checked with {@code isValid} before it
 * is handed out. Thread-safe.
 */
final class FreshConnections implements AutoCloseable {

    private static final long CHECK_AFTER_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long FIRST_BACKOFF_MILLIS = 50;
    private static final long MAX_BACKOFF_MILLIS = 2_000;

    /** Where connections come from, such as {@link DriverDataSource#getConnection()}. */
    @FunctionalInterface
    interface Opener {
        /**
         * Opens a physical connection.
         *
         * @return a new connection
         * @throws SQLException when the database cannot be reached
         */
        Connection open() throws SQLException;
    }

    private record Spare(Connection connection, long openedNanos) {}

    private final Opener source;
    private final BlockingDeque<Spare> spares = new LinkedBlockingDeque<>();
    private final ExecutorService workers;
    private final AtomicInteger inUse = new AtomicInteger();
    private final AtomicInteger openNow = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile SQLException lastFailure;
    private volatile boolean closed;

    /**
     * Starts opening {@code size} connections in the background.
     *
     * @param name the threads' name prefix
     * @param source where connections come from
     * @param size the most connections open at once, at least 1
     */
    FreshConnections(String name, Opener source, int size) {
        this.source = requireNonNull(source, "source is null");
        if (size < 1) {
            throw new IllegalArgumentException("size must be at least 1, got " + size);
        }
        this.workers = Executors.newFixedThreadPool(size, threads(name));
        for (int i = 0; i < size; i++) {
            workers.execute(this::open);
        }
    }

    private static ThreadFactory threads(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A slot's opening: retried with back-off until it succeeds or the pool closes. */
    private void open() {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (!closed) {
            try {
                Connection connection = source.open();
                openNow.incrementAndGet();
                spares.addLast(new Spare(connection, System.nanoTime()));
                lastFailure = null;
                if (closed) {
                    closeSpares();
                }
                return;
            } catch (SQLException | RuntimeException | LinkageError e) {
                // a driver missing a class of its own must not end the slot's thread
                lastFailure = e instanceof SQLException sql ? sql : new SQLException(String.valueOf(e), "08001", e);
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return; // shut down
            }
            backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
        }
    }

    /**
     * Takes a spare connection, waiting at most {@code timeoutMillis}.
     *
     * @param timeoutMillis how long to wait for one
     * @return a connection that served no call before; the caller hands it back to {@link #release}
     * @throws SQLException when none came in time, with the last failure to open one as its next exception
     */
    Connection take(long timeoutMillis) throws SQLException {
        return take(timeoutMillis, false);
    }

    /**
     * Takes a connection opened after this call began, closing older spares on the way: what a health check needs,
     * since some drivers' {@code isValid} answers {@code true} on a connection whose database has since gone away
     * (HSQLDB's in-process connections).
     *
     * @param timeoutMillis how long to wait for one
     * @return a connection opened during this call; the caller hands it back to {@link #release}
     * @throws SQLException when none came in time, with the last failure to open one as its next exception
     */
    Connection takeNew(long timeoutMillis) throws SQLException {
        return take(timeoutMillis, true);
    }

    private Connection take(long timeoutMillis, boolean openedDuringCall) throws SQLException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        waiting.incrementAndGet();
        try {
            while (!closed) {
                long left = deadline - System.nanoTime();
                Spare spare;
                try {
                    // in slices, so that closing the source ends the wait
                    spare = spares.pollFirst(Math.max(0, Math.min(left, POLL_SLICE_NANOS)), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new SQLTransientConnectionException("interrupted while waiting for a connection", "08001", e);
                }
                if (spare == null) {
                    if (left <= POLL_SLICE_NANOS) {
                        break;
                    }
                    continue;
                }
                inUse.incrementAndGet();
                if (openedDuringCall && spare.openedNanos() - start < 0) {
                    release(spare.connection());
                    continue;
                }
                if (System.nanoTime() - spare.openedNanos() < CHECK_AFTER_NANOS || valid(spare.connection())) {
                    return spare.connection();
                }
                release(spare.connection());
            }
        } finally {
            waiting.decrementAndGet();
        }
        SQLException timeout = new SQLTransientConnectionException(closed ? "closed"
                : "no connection within " + timeoutMillis + " ms", "08001");
        SQLException cause = lastFailure;
        if (cause != null) {
            timeout.setNextException(cause);
        }
        throw timeout;
    }

    private static boolean valid(Connection connection) {
        try {
            return connection.isValid(1);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Closes a connection {@link #take} gave out, in the background, and then opens its slot's next one.
     *
     * @param connection the connection; never used again
     */
    void release(Connection connection) {
        requireNonNull(connection, "connection is null");
        inUse.decrementAndGet();
        if (closed) {
            closeQuietly(connection);
            return;
        }
        try {
            workers.execute(() -> {
                closeQuietly(connection);
                open();
            });
        } catch (RejectedExecutionException shutDown) {
            closeQuietly(connection);
        }
    }

    private void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // the connection is discarded either way
        } finally {
            openNow.decrementAndGet();
        }
    }

    private void closeSpares() {
        Spare spare;
        while ((spare = spares.pollFirst()) != null) {
            closeQuietly(spare.connection());
        }
    }

    /** @return connections in use by calls */
    int active() {
        return inUse.get();
    }

    /** @return spare connections, opened and waiting for a call */
    int idle() {
        return spares.size();
    }

    /** @return connections open now: spare, in use, or not yet closed */
    int openCount() {
        return openNow.get();
    }

    /** @return callers waiting for a spare connection */
    int waiting() {
        return waiting.get();
    }

    /** Closes the spares and stops the workers; connections in use are closed when released. */
    @Override
    public void close() {
        closed = true;
        for (Runnable pending : workers.shutdownNow()) {
            pending.run(); // a pending close still closes; an opening returns at once
        }
        closeSpares();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeSpares();
    }
}
