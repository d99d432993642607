package io.queryapigate.dialect.mysql;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stops a running statement the way Connector/J's {@code Statement.cancel()} does, with {@code KILL QUERY
 * <thread id>} sent from a short second connection, but asynchronously and also while a streaming result is being
 * read (Connector/J's cancel does nothing once {@code execute} has returned).
 *
 * <p>Asynchronous because the request comes from the shared time-limit thread, which must not wait for a connect
 * to a server that may be unreachable. The consequence: a kill may land after the statement ended, on whatever the
 * connection runs next. The dialect therefore never reuses a connection for which a kill was requested; it closes
 * it instead (see {@link Kill#requested()}).
 */
final class QueryKiller {
    private static final long MIN_INTERVAL_NANOS = 500_000_000L;

    private final String url;
    private final Properties properties;
    private final ExecutorService executor;

    QueryKiller(String url, Properties properties, ExecutorService executor) {
        this.url = requireNonNull(url, "url is null");
        this.properties = requireNonNull(properties, "properties is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    Kill forThread(long threadId) {
        return new Kill(threadId);
    }

    /** The kill switch of one call. */
    final class Kill {
        private final long threadId;
        private final AtomicBoolean requested = new AtomicBoolean();
        private final AtomicBoolean running = new AtomicBoolean();
        private final AtomicLong lastStart = new AtomicLong();

        private Kill(long threadId) {
            this.threadId = threadId;
        }

        /** Sends {@code KILL QUERY} soon; repeated requests are sent at most every 500 ms, one at a time. */
        void request() {
            requested.set(true);
            long now = System.nanoTime();
            long last = lastStart.get();
            if (last != 0 && now - last < MIN_INTERVAL_NANOS) {
                return;
            }
            if (!running.compareAndSet(false, true)) {
                return;
            }
            lastStart.set(now);
            try {
                executor.execute(this::send);
            } catch (RejectedExecutionException shutDown) {
                running.set(false);
            }
        }

        /** Whether a kill was requested during the call: then the connection must not be reused. */
        boolean requested() {
            return requested.get();
        }

        private void send() {
            try (Connection c = SessionDataSource.openPhysical(url, properties);
                    Statement st = c.createStatement()) {
                st.execute("KILL QUERY " + threadId);
            } catch (SQLException | RuntimeException e) {
                // the statement still ends at the server's own limit, or when its connection is closed
                System.getLogger(QueryKiller.class.getName())
                        .log(System.Logger.Level.DEBUG, "KILL QUERY " + threadId + " failed: " + e.getMessage());
            } finally {
                running.set(false);
            }
        }
    }
}
