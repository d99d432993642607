package io.queryapigate.dialect;

import io.dropwizard.lifecycle.Managed;
import io.queryapigate.dialect.spi.DialectException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each live connection's latest health-check result: every interval, on a background virtual thread, every connection
 * of the registry runs its dialect's own check ({@link io.queryapigate.dialect.spi.Dialect#checkHealth}, bounded by
 * a timeout), all at once, each on its own virtual thread. Readers ({@link #latest}) never start a check.
 */
public final class ConnectionHealth implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHealth.class);

    private final ConnectionRegistry connections;
    private final Clock clock;
    private final Duration interval;
    private final Duration timeout;
    private final Map<String, Result> results = new ConcurrentHashMap<>();
    private volatile boolean running;
    private Thread thread;

    /**
     * A connection's latest check.
     *
     * @param failingSince when the checks began failing without a pass between (epoch ms), or null while healthy
     */
    public record Result(String connection, boolean healthy, String problem, long checkedAt, Long failingSince) {}

    public ConnectionHealth(ConnectionRegistry connections, Clock clock, Duration interval, Duration timeout) {
        this.connections = connections;
        this.clock = clock;
        this.interval = interval;
        this.timeout = timeout;
    }

    /** The latest result of every connection checked at least once and still live, by name. */
    public Map<String, Result> latest() {
        return Map.copyOf(results);
    }

    @Override
    public void start() {
        running = true;
        thread = Thread.ofVirtual().name("qag-connection-health").start(this::loop);
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(timeout.toMillis() + 5_000);
        }
    }

    /** Checks every live connection once, at once, and keeps the results (tests call it; the loop does). */
    public void checkAll() throws InterruptedException {
        Map<String, ConnectionRegistry.Connection> live = connections.all();
        results.keySet().retainAll(live.keySet());
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            live.forEach((name, c) -> running.add(each.submit(() -> check(name, c))));
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    LOG.warn("A health check failed unexpectedly", e.getCause());
                }
            }
        }
        results.keySet().retainAll(connections.all().keySet());
    }

    private void check(String name, ConnectionRegistry.Connection c) {
        String problem = null;
        try {
            c.dialect().checkHealth(timeout);
        } catch (DialectException e) {
            problem = e.error() + ": " + e.getMessage();
        } catch (RuntimeException e) { // a closed pool (the connection replaced meanwhile), a driver's own failure
            problem = e.toString();
        }
        long now = clock.millis();
        String failure = problem;
        results.compute(name, (n, before) -> failure == null ? new Result(n, true, null, now, null)
                : new Result(n, false, failure, now,
                        before != null && before.failingSince() != null ? before.failingSince() : now));
    }

    private void loop() {
        while (running) {
            try {
                checkAll();
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("The connections' health checks failed: {}", e.toString());
            }
        }
    }
}
