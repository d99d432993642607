package io.queryapigate.connections;

import io.dropwizard.lifecycle.Managed;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.PrivilegeCheck;
import io.queryapigate.errors.ApiException;
import io.queryapigate.secrets.SecretUnavailableException;
import io.queryapigate.store.ConnectionDao;
import io.queryapigate.store.ConnectionRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this instance's pools in step with the connections stored through the API. A virtual thread reads the
 * store's {@code connections} counter once per interval (the metadata cache's TTL), never per call; when it moved,
 * it reads the rows and reconciles: opens new connections, replaces changed ones, removes deleted ones (calls running
 * on a replaced or removed one finish there first). A connection whose secrets expire ({@code refreshAt}) has them
 * resolved again: a changed value replaces its pool, a failure takes it out of service ({@code secret_unavailable})
 * until a later attempt succeeds. Changes made through this instance are reconciled at once.
 */
public final class LiveConnections implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(LiveConnections.class);

    private final ConnectionDao dao;
    private final ConnectionRegistry registry;
    private final ConnectionSettings settings;
    private final Duration interval;
    private final Clock clock;
    /** What each stored connection was opened from; guarded by this. */
    private final Map<String, State> states = new HashMap<>();
    private volatile long seen = Long.MIN_VALUE;
    private volatile boolean stopped;
    private Thread watcher;

    private record State(String fingerprint, Instant refreshAt, String secretDigest, boolean open) {}

    LiveConnections(ConnectionDao dao, ConnectionRegistry registry, ConnectionSettings settings, Duration interval,
            Clock clock) {
        this.dao = dao;
        this.registry = registry;
        this.settings = settings;
        this.interval = interval;
        this.clock = clock;
    }

    @Override
    public void start() {
        sync();
        watcher = Thread.ofVirtual().name("qag-live-connections").start(this::watch);
    }

    @Override
    public void stop() {
        stopped = true;
        if (watcher != null) {
            watcher.interrupt();
        }
    }

    private void watch() {
        while (!stopped) {
            try {
                Thread.sleep(interval);
                tick();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) { // the store is away for a moment: the next tick tries again
                LOG.warn("Could not check the stored connections: {}", e.toString());
            }
        }
    }

    /** Reconciles when the counter moved or a connection's secrets are due. */
    void tick() {
        if (dao.version() != seen || due()) {
            sync();
        }
    }

    private synchronized boolean due() {
        Instant now = clock.instant();
        return states.values().stream().anyMatch(s -> !now.isBefore(s.refreshAt()));
    }

    /** Reads the stored connections and makes the live set match them. */
    public synchronized void sync() {
        long version = dao.version();
        List<ConnectionRow> rows = dao.live();
        Set<String> names = new HashSet<>();
        Instant now = clock.instant();
        for (ConnectionRow row : rows) {
            names.add(row.name());
            registry.own(row.name(), row.workspace());
            if (registry.isConfigured(row.name()) || registry.isAdded(row.name())) {
                LOG.warn("The stored connection '{}' is not opened: the configuration declares one of that name",
                        row.name());
                continue;
            }
            String fingerprint = ConnectionSettings.fingerprint(row);
            State state = states.get(row.name());
            boolean same = state != null && state.fingerprint().equals(fingerprint);
            if (same && now.isBefore(state.refreshAt())) {
                continue;
            }
            if (same && state.open()) {
                refresh(row, state);
            } else {
                open(row, fingerprint);
            }
        }
        for (String name : Set.copyOf(states.keySet())) {
            if (!names.contains(name)) {
                states.remove(name);
                registry.drop(name);
                LOG.info("Connection '{}' removed", name);
            }
        }
        seen = version;
    }

    /** Registers a connection this instance just opened and stored (so it is not opened twice). */
    synchronized void adopt(ConnectionRow row, ConnectionSettings.Opened opened) {
        registry.own(row.name(), row.workspace());
        registry.put(row.name(), opened.connection());
        warnAboutPrivileges(opened.connection());
        states.put(row.name(), new State(ConnectionSettings.fingerprint(row), opened.refreshAt(),
                opened.secretDigest(), true));
    }

    private void open(ConnectionRow row, String fingerprint) {
        try {
            ConnectionSettings.Opened opened = settings.open(row, 0);
            registry.put(row.name(), opened.connection());
            states.put(row.name(), new State(fingerprint, opened.refreshAt(), opened.secretDigest(), true));
            LOG.info("Connection '{}' opened", row.name());
            warnAboutPrivileges(opened.connection());
        } catch (SecretUnavailableException e) {
            unavailable(row, fingerprint, e);
        } catch (RuntimeException e) { // a dialect uninstalled since it was saved, a factory refusing it now
            LOG.warn("Connection '{}' could not be opened: {}", row.name(), e.getMessage());
            registry.markUnavailable(row.name(), new ApiException(503, "unavailable", "The connection '"
                    + row.name() + "' could not be opened: " + e.getMessage()));
            states.put(row.name(), new State(fingerprint, clock.instant().plus(interval), null, false));
        }
    }

    /** As at startup for the YAML's: what the database user may do beyond reading, logged in the background. */
    private void warnAboutPrivileges(ConnectionRegistry.Connection c) {
        Thread.ofVirtual().name("qag-privilege-check-" + c.name()).start(() -> {
            for (String line : PrivilegeCheck.warnings(c.dialect(), PrivilegeCheck.TIMEOUT)) {
                if (!stopped) {
                    LOG.warn("Connection '{}' ({}): {}", c.name(), c.dialectName(), line);
                }
            }
        });
    }

    private void refresh(ConnectionRow row, State state) {
        try {
            ConnectionSettings.Resolved r = settings.resolve(row, 0);
            if (r.secretDigest().equals(state.secretDigest())) {
                states.put(row.name(), new State(state.fingerprint(), r.refreshAt(), state.secretDigest(), true));
                return;
            }
            LOG.info("Connection '{}': its secret changed, replacing its pool", row.name());
            open(row, state.fingerprint());
        } catch (SecretUnavailableException e) {
            unavailable(row, state.fingerprint(), e);
        }
    }

    private void unavailable(ConnectionRow row, String fingerprint, SecretUnavailableException e) {
        LOG.warn("Connection '{}' is unavailable: {}", row.name(), e.getMessage());
        registry.markUnavailable(row.name(), e);
        states.put(row.name(), new State(fingerprint, clock.instant().plus(interval), null, false));
    }
}
