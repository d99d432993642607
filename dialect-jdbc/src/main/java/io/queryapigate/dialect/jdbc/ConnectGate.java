package io.queryapigate.dialect.jdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.io.EOFException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Remembers that a database cannot be reached, so that calls fail at once instead of each waiting its whole time
 * limit for a pooled connection that cannot be made, and so that the pool refills as soon as the database answers.
 *
 * <p>A dialect routes every physical connection its pool opens through {@link #open} and every borrow through
 * {@link #borrow}. When an attempt to connect fails with a connect-class error ({@link #isConnectFailure}: refused,
 * reset, unreachable, timed out, SQLSTATE class 08 but 08004, PostgreSQL's 57P03 "starting up"), the gate is down:
 * {@link #borrow} throws {@link DialectError#UNAVAILABLE} at once, and the thread in {@link #open} (the pool's
 * filler) keeps trying, one attempt every probe interval, until one succeeds, the gate is closed or the thread is
 * interrupted; it never hands the failure back to the pool, whose own back-off (HikariCP: up to 5 s) would
 * otherwise delay the refill after the database is back. One attempt runs at a time. Any other failure (a wrong
 * password, a server that refuses the configuration) means the server answered: the gate opens and the failure goes
 * to the pool as before. Going down and coming back are logged once each. Framework-free and thread-safe.
 */
public final class ConnectGate implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ConnectGate.class.getName());

    /** How long one wait for a pooled connection lasts before the gate is looked at again. */
    static final long BORROW_SLICE_MILLIS = 100;

    /** Opens one physical connection. */
    @FunctionalInterface
    public interface Opener<C> {
        /**
         * Opens a connection.
         *
         * @return the connection
         * @throws SQLException when the driver fails
         */
        C open() throws SQLException;
    }

    /** Takes a connection from a pool, waiting at most the given time. */
    @FunctionalInterface
    public interface Pool<C> {
        /**
         * Borrows a connection.
         *
         * @param timeoutMillis the longest wait, at least 1
         * @return the connection
         * @throws SQLTransientConnectionException when none was free in time (HikariCP's timeout)
         * @throws SQLException when the pool fails otherwise
         */
        C borrow(long timeoutMillis) throws SQLException;
    }

    /** Since when the database has not answered, and why, as last seen. */
    private record Down(Instant since, long sinceNanos, long lastAttemptNanos, String reason) {}

    private final String name;
    private final long probeNanos;
    private final ReentrantLock attempt = new ReentrantLock();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Down down;

    /**
     * A gate, open.
     *
     * @param name what the messages call the database, such as {@code connection 'crm'}
     * @param probeInterval the least time between two attempts to connect while the database is down
     */
    public ConnectGate(String name, Duration probeInterval) {
        this.name = requireNonNull(name, "name is null");
        this.probeNanos = requireNonNull(probeInterval, "probeInterval is null").toNanos();
        if (probeNanos <= 0) {
            throw new IllegalArgumentException("probeInterval must be positive: " + probeInterval);
        }
    }

    /**
     * Opens a physical connection for the pool. While the database is down this waits for its turn and keeps
     * trying, one attempt per probe interval, until an attempt succeeds; a failure that is not connect-class is
     * thrown at once.
     *
     * @param opener what connects
     * @param <C> the connection's type
     * @return the connection
     * @throws SQLException a failure that is not connect-class; or, after {@link #close} or an interrupt, the last
     *     connect failure
     */
    public <C> C open(Opener<C> opener) throws SQLException {
        requireNonNull(opener, "opener is null");
        try {
            attempt.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLNonTransientConnectionException(name + ": interrupted while waiting to connect", "08001", e);
        }
        try {
            while (true) {
                Down d = down;
                if (d != null) {
                    long wait = d.lastAttemptNanos() + probeNanos - System.nanoTime();
                    if (wait > 0 && closed.await(wait, TimeUnit.NANOSECONDS)) {
                        throw new SQLNonTransientConnectionException(name + ": closed while the database was down ("
                                + d.reason() + ")", "08003");
                    }
                }
                if (closed.getCount() == 0 && d != null) {
                    throw new SQLNonTransientConnectionException(name + ": closed", "08003");
                }
                long started = System.nanoTime();
                try {
                    C connection = opener.open();
                    up();
                    return connection;
                } catch (SQLException | RuntimeException e) {
                    if (!isConnectFailure(e)) {
                        up();
                        throw e;
                    }
                    markDown(started, e);
                    if (closed.getCount() == 0 || Thread.currentThread().isInterrupted()) {
                        throw e;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLNonTransientConnectionException(name + ": interrupted while the database was down", "08001",
                    e);
        } finally {
            attempt.unlock();
        }
    }

    /**
     * Borrows from {@code pool} until {@code deadlineNanos}, in waits of at most {@value #BORROW_SLICE_MILLIS} ms,
     * refusing at once (before the first wait and after each) while the database is down.
     *
     * @param pool the pool
     * @param deadlineNanos the {@link System#nanoTime()} by which the borrow must have succeeded
     * @param <C> the connection's type
     * @return the connection
     * @throws DialectException {@link DialectError#UNAVAILABLE} while the database is down
     * @throws SQLException the pool's failure: its timeout at the deadline, or another failure at once
     */
    public <C> C borrow(Pool<C> pool, long deadlineNanos) throws SQLException {
        requireNonNull(pool, "pool is null");
        while (true) {
            refuseWhileDown();
            long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            try {
                return pool.borrow(Math.max(1, Math.min(left, BORROW_SLICE_MILLIS)));
            } catch (SQLTransientConnectionException timedOut) {
                if (deadlineNanos - System.nanoTime() <= 0) {
                    refuseWhileDown();
                    throw timedOut;
                }
            }
        }
    }

    /**
     * Fails at once while the database is down.
     *
     * @throws DialectException {@link DialectError#UNAVAILABLE} naming since when and why
     */
    public void refuseWhileDown() {
        Down d = down;
        if (d != null) {
            long forMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - d.sinceNanos());
            throw new DialectException(DialectError.UNAVAILABLE, name + ": the database has not answered since "
                    + d.since() + " (" + forMillis + " ms; " + d.reason() + ")", "08001", null);
        }
    }

    /**
     * Whether the last attempt to connect failed with a connect-class error.
     *
     * @return true while down
     */
    public boolean isDown() {
        return down != null;
    }

    /** Stops the attempts: a thread waiting in {@link #open} gives up at once. */
    @Override
    public void close() {
        closed.countDown();
    }

    /**
     * Whether a failure to connect means the database cannot be reached (rather than that it answered with a
     * refusal): SQLSTATE class 08 but 08004 (the server rejected the connection), PostgreSQL's 57P03 (starting up
     * or shutting down), or a socket failure in the cause chain.
     *
     * @param failure what connecting threw
     * @return true for a connect-class failure
     */
    public static boolean isConnectFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") && !state.equals("08004") || state.equals("57P03"))) {
                    return true;
                }
            }
            if (t instanceof SocketException || t instanceof SocketTimeoutException
                    || t instanceof UnknownHostException || t instanceof EOFException) {
                return true;
            }
        }
        return false;
    }

    private void markDown(long attemptStarted, Throwable e) {
        Down before = down;
        String reason = reason(e);
        if (before == null) {
            down = new Down(Instant.now(), attemptStarted, System.nanoTime(), reason);
            LOG.log(System.Logger.Level.WARNING, name + ": cannot connect (" + reason + "); calls fail at once until"
                    + " the database answers, one attempt every " + TimeUnit.NANOSECONDS.toMillis(probeNanos) + " ms");
        } else {
            down = new Down(before.since(), before.sinceNanos(), System.nanoTime(), reason);
        }
    }

    private void up() {
        Down before = down;
        if (before != null) {
            down = null;
            LOG.log(System.Logger.Level.WARNING, name + ": the database answers again after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - before.sinceNanos()) + " ms");
        }
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.length() > 200 ? message.substring(0, 200) + "..." : message;
    }
}
