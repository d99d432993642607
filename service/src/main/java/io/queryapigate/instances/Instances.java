package io.queryapigate.instances;

import io.dropwizard.lifecycle.Managed;
import io.queryapigate.store.InstanceDao;
import io.queryapigate.store.InstanceRow;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway processes using this store. Each writes its own heartbeat row ({@code instances}, schema 15) when it
 * starts and again every heartbeat interval on a background virtual thread, never on a call's path; a clean stop
 * removes the row. A row refreshed within three intervals is {@code alive}, an older one {@code stale}; rows not
 * refreshed for a day are removed by the next heartbeat of any instance. {@link #problems} says what looks wrong
 * about the alive ones: several sharing the store without Redis (each keeps its own rate limits, quota view and
 * response cache), or different versions.
 */
public final class Instances implements Managed {
    /** Rows not refreshed for this long are removed. */
    public static final Duration FORGET = Duration.ofDays(1);
    /** At most this many rows are read for one answer. */
    private static final int MAX_ROWS = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(Instances.class);

    private final InstanceDao store;
    private final Clock clock;
    private final Duration interval;
    private final InstanceRow self;
    private volatile boolean running;
    private Thread thread;

    /** One instance, with whether it is this process and alive. */
    public record Instance(InstanceRow row, boolean alive, boolean self) {}

    /** Something that looks wrong about the instances sharing this store: an alert's kind and its message. */
    public record Problem(String kind, String message) {}

    /**
     * @param version      this process's version
     * @param storeKind    {@code sqlite} or {@code postgresql}
     * @param sharedLimits whether this process shares its limits and cache through Redis
     * @param interval     between two heartbeats
     */
    public Instances(InstanceDao store, Clock clock, String version, String storeKind, boolean sharedLimits,
            Duration interval) {
        this.store = store;
        this.clock = clock;
        this.interval = interval;
        long pid = ProcessHandle.current().pid();
        long now = clock.millis();
        this.self = new InstanceRow(UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "-" + pid,
                hostName(), pid, version, storeKind, sharedLimits, now, now);
    }

    /** This process's id in the store. */
    public String id() {
        return self.id();
    }

    @Override
    public void start() {
        beat();
        running = true;
        thread = Thread.ofVirtual().name("qag-instance-heartbeat").start(this::loop);
    }

    /** Stops the heartbeat and removes this process's row. */
    @Override
    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.interrupt();
            thread.join(10_000);
        }
        try {
            store.remove(self.id());
        } catch (RuntimeException e) {
            LOG.warn("Could not remove this instance's heartbeat row; it turns stale and goes within a day: {}",
                    e.toString());
        }
    }

    /** Refreshes this process's row (inserted again when it is missing) and forgets rows quiet for a day. */
    public void beat() {
        long now = clock.millis();
        if (store.beat(self.id(), now) == 0) {
            store.insert(new InstanceRow(self.id(), self.host(), self.pid(), self.version(), self.storeKind(),
                    self.sharedLimits(), self.startedAt(), now));
        }
        store.forget(now - FORGET.toMillis());
    }

    /** Every instance seen in the last day, newest start first. */
    public List<Instance> list() {
        long now = clock.millis();
        long aliveSince = now - aliveFor();
        List<Instance> out = new ArrayList<>();
        for (InstanceRow row : store.seenSince(now - FORGET.toMillis(), MAX_ROWS)) {
            out.add(new Instance(row, row.lastSeen() >= aliveSince, row.id().equals(self.id())));
        }
        return out;
    }

    /** What looks wrong about the alive instances (none with one instance). */
    public List<Problem> problems(List<Instance> instances) {
        List<InstanceRow> alive = instances.stream().filter(Instance::alive).map(Instance::row).toList();
        List<Problem> found = new ArrayList<>();
        long unshared = alive.stream().filter(r -> !r.sharedLimits()).count();
        if (alive.size() > 1 && unshared > 0) {
            found.add(new Problem("instances_not_shared", alive.size() + " processes share this store, and " + unshared
                    + " of them without Redis, so their rate limits and response cache are counted and kept per"
                    + " process. Set the same redis.url on every instance."));
        }
        Map<String, Integer> versions = new TreeMap<>();
        alive.forEach(r -> versions.merge(r.version(), 1, Integer::sum));
        if (versions.size() > 1) {
            StringBuilder counts = new StringBuilder();
            versions.forEach((v, n) -> counts.append(counts.isEmpty() ? "" : ", ").append(v).append(" on ").append(n));
            found.add(new Problem("instances_versions_differ", "Instances sharing this store run different versions ("
                    + counts + "). Expected only during a rolling upgrade - finish it."));
        }
        return found;
    }

    /** A row refreshed this recently is a running process: three heartbeat intervals. */
    public long aliveFor() {
        return interval.toMillis() * 3;
    }

    private void loop() {
        while (running) {
            try {
                Thread.sleep(interval);
                beat();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) { // visibility, never a reason to stop serving
                LOG.warn("Could not write this instance's heartbeat: {}", e.toString());
            }
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
