package com.example.qag.derby;

import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * At most {@code poolSize} Derby connections to one database, each read-only until a write borrows it.
 *
 * <p>A session is opened when first needed and handed back after each call: kept when the call was a read that
 * ended normally (rolled back, still read-only), closed otherwise (a write, a statement stopped by an interrupt, a
 * lost connection), so that the next caller gets a new one. Waiting for a free session counts against the call's time
 * limit.
 */
final class DerbySessions {

    private final Driver driver;
    private final String url;
    private final Semaphore permits;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private volatile boolean closed;

    /**
     * @param driver Derby's embedded driver, as loaded by this plugin's class loader
     * @param database the database directory
     * @param poolSize the most sessions open at once
     */
    DerbySessions(Driver driver, Path database, int poolSize) {
        this.driver = driver;
        this.url = "jdbc:derby:" + database;
        this.permits = new Semaphore(poolSize, true);
    }

    /**
     * A read-only session with auto-commit off, waiting at most {@code nanos} for one to be free.
     *
     * @param nanos the longest wait
     * @return the session; hand it back with {@link #release}
     * @throws DialectException {@code TIMEOUT} when none is free in time, {@code UNAVAILABLE} when the database
     *     cannot be opened or the dialect is closed
     */
    Connection acquire(long nanos) {
        checkOpen();
        try {
            if (!permits.tryAcquire(Math.max(0, nanos), TimeUnit.NANOSECONDS)) {
                throw new DialectException(DialectError.TIMEOUT, "no free Derby session within the time limit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DialectException(DialectError.CANCELLED, "interrupted while waiting for a Derby session");
        }
        try {
            checkOpen();
            Connection connection;
            synchronized (idle) {
                connection = idle.pollFirst();
            }
            return connection != null ? connection : open();
        } catch (RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /**
     * Hands a session back.
     *
     * @param connection the session from {@link #acquire}
     * @param reusable whether it is in its initial state (read-only, no open transaction); otherwise it is closed
     */
    void release(Connection connection, boolean reusable) {
        try {
            boolean keep = reusable && !closed && !connection.isClosed();
            if (keep) {
                synchronized (idle) {
                    idle.addFirst(connection);
                }
            } else {
                closeQuietly(connection);
            }
        } catch (SQLException e) {
            closeQuietly(connection);
        } finally {
            permits.release();
        }
    }

    /**
     * Opens a new read-only session; package-private so that the tests can show what Derby refuses on it.
     *
     * @return the session
     */
    Connection open() {
        try {
            Connection connection = driver.connect(url, new Properties());
            connection.setAutoCommit(false);
            connection.setReadOnly(true);
            return connection;
        } catch (SQLException e) {
            throw new DialectException(DialectError.UNAVAILABLE, "Derby database " + url.substring(11)
                    + " cannot be opened: " + e.getMessage(), e.getSQLState(), e);
        }
    }

    /** Rolls back and closes (Derby refuses to close a connection in a transaction); a closed one is left. */
    private static void closeQuietly(Connection connection) {
        try {
            if (!connection.isClosed()) {
                connection.rollback();
                connection.close();
            }
        } catch (SQLException e) {
            // Derby has already closed it (the statement was interrupted or the database went away)
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new DialectException(DialectError.UNAVAILABLE, "the Derby dialect is closed");
        }
    }

    /** Closes the idle sessions; sessions in use are closed when they are handed back. Idempotent. */
    void close() {
        closed = true;
        synchronized (idle) {
            idle.forEach(DerbySessions::closeQuietly);
            idle.clear();
        }
    }
}
