package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.TimeLimit;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Calls {@link Statement#cancel()} on a thread of its own, at most one at a time. {@link TimeLimit} runs its
 * cancellers on one timer thread shared by every connection, and a driver's cancel may block (HSQLDB's in-process
 * cancel waits for the running statement; a network driver's may wait for the server): here it cannot hold up the
 * other connections' limits. A cancel that lands after the call ended meets a closed statement, which drivers
 * answer with an exception that is ignored.
 */
final class BackgroundCancel implements TimeLimit.Canceller {

    private final Statement statement;
    private final String threadName;
    private final AtomicBoolean inFlight = new AtomicBoolean();

    BackgroundCancel(Statement statement, String driverName) {
        this.statement = requireNonNull(statement, "statement is null");
        this.threadName = "queryapigate-jdbc-cancel-" + driverName;
    }

    @Override
    public void cancel() {
        if (!inFlight.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name(threadName).start(() -> {
            try {
                statement.cancel();
            } catch (SQLException | RuntimeException ignored) {
                // the statement ended or the driver cannot cancel: the driver's own query timeout still applies
            } finally {
                inFlight.set(false);
            }
        });
    }
}
