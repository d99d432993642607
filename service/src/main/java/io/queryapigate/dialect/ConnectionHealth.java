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
 * Each live connection's latest health-check result: every interval (the first one interval after the start), on a
 * background virtual thread, every connection of the registry runs its dialect's own check
 * ({@link io.queryapigate.dialect.spi.Dialect#checkHealth}, bounded by a timeout), all at once, each on its own
 * virtual thread; a stored connection taken out of service because it cannot open (its secret cannot be resolved)
 * fails without a check. Readers ({@link #latest}) never start a check.
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

    /** The latest result of every connection checked at least once and still live or out of service, by name. */
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

    /** Checks every live connection once, all at once, and keeps the results. */
    public void checkAll() throws InterruptedException {
        Map<String, ConnectionRegistry.Connection> live = connections.all();
        Map<String, RuntimeException> outOfService = connections.outOfService();
        results.keySet().removeIf(name -> !live.containsKey(name) && !outOfService.containsKey(name));
        outOfService.forEach((name, why) -> record(name, "cannot open: " + why.getMessage()));
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
        results.keySet().removeIf(name -> !connections.all().containsKey(name)
                && connections.unavailable(name).isEmpty());
    }

    // entered like a call, so a replaced or removed connection is not checked and its pool closes after the check
    private void check(String name, ConnectionRegistry.Connection c) {
        if (!c.enter()) {
            return;
        }
        String problem = null;
        try {
            c.dialect().checkHealth(timeout);
        } catch (DialectException e) {
            problem = e.error() + ": " + e.getMessage();
        } catch (RuntimeException e) { // a driver's own failure
            problem = e.toString();
        } finally {
            c.exit();
        }
        record(name, problem);
    }

    // a failure keeps the time the checks began failing
    private void record(String name, String problem) {
        long now = clock.millis();
        results.compute(name, (n, before) -> problem == null ? new Result(n, true, null, now, null)
                : new Result(n, false, problem, now,
                        before != null && before.failingSince() != null ? before.failingSince() : now));
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(interval); // the first round one interval after the start: a start opens no pool
                checkAll();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("The connections' health checks failed: {}", e.toString());
            }
        }
    }
}
