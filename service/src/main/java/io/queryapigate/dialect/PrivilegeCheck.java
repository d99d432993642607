package io.queryapigate.dialect;

import io.dropwizard.lifecycle.Managed;
import io.queryapigate.dialect.spi.Dialect;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every connection's dialect what its database user may do beyond what the gateway needs ({@link
 * Dialect#privilegeWarnings}) and logs each finding at WARN. At startup this runs in the background, one virtual
 * thread per connection, each bounded by the timeout, so a slow or unreachable database neither delays nor fails
 * startup; findings that arrive after shutdown began are dropped. {@code check --connect} uses {@link #warnings}
 * directly.
 */
public final class PrivilegeCheck implements Managed {
    /** How long one connection's check may take. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(PrivilegeCheck.class);

    private final ConnectionRegistry connections;
    private final Duration timeout;
    private volatile boolean stopped;

    public PrivilegeCheck(ConnectionRegistry connections, Duration timeout) {
        this.connections = connections;
        this.timeout = timeout;
    }

    /**
     * A dialect's findings. A dialect that throws (against the SPI's contract) yields one line saying so; null
     * counts as none.
     */
    public static List<String> warnings(Dialect dialect, Duration timeout) {
        try {
            List<String> found = dialect.privilegeWarnings(timeout);
            return found == null ? List.of() : List.copyOf(found);
        } catch (RuntimeException e) {
            return List.of("the privilege check failed: " + e);
        }
    }

    @Override
    public void start() {
        for (ConnectionRegistry.Connection c : connections.all().values()) {
            Thread.ofVirtual().name("qag-privilege-check-" + c.name()).start(() -> {
                List<String> found = warnings(c.dialect(), timeout);
                if (stopped) {
                    return;
                }
                for (String line : found) {
                    LOG.warn("Connection '{}' ({}): {}", c.name(), c.dialectName(), line);
                }
            });
        }
    }

    @Override
    public void stop() {
        stopped = true;
    }
}
