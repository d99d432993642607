package io.queryapigate.dialect;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.sql.SqlDialectFamily;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured connections (and those added while running: the example APIs' database) and their live dialects;
 * closes them all at shutdown.
 */
public final class ConnectionRegistry implements Managed {
    /** A connection's name: 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionRegistry.class);

    /**
     * A connection ready to run calls, with what the SQL guard needs to know about it: the SQL family its statements
     * are parsed as (function lists, parser options, paging), the lexical rules its text is read with (quotes,
     * comments, markers: the dialect's {@link Dialect#lexicalRules()}), the catalog/schema unqualified table names
     * resolve to, and the functions restricted keys may call beyond the engine's pure built-ins.
     */
    public record Connection(String name, String dialectName, Dialect dialect, Duration timeout,
            SqlDialectFamily family, LexicalRules lexicalRules, TableNamespace namespace,
            Set<String> allowedFunctions) {}

    /** Replaced whole when a connection is added or removed: calls read it without a lock. */
    private volatile Map<String, Connection> connections;
    private final DialectRegistry registry;
    private final Duration serverTimeout;
    private final long maxRows;
    private final Path home;

    private ConnectionRegistry(Map<String, Connection> connections, DialectRegistry registry, Duration serverTimeout,
            long maxRows, Path home) {
        this.connections = Collections.unmodifiableMap(new LinkedHashMap<>(connections));
        this.registry = registry;
        this.serverTimeout = serverTimeout;
        this.maxRows = maxRows;
        this.home = home;
    }

    /**
     * Creates a dialect per configured connection. A bad dialect name or property stops startup with a message
     * naming the YAML key.
     */
    public static ConnectionRegistry create(DialectRegistry registry, Map<String, ConnectionConfig> configs,
            Duration serverTimeout, long maxRows, Path home) {
        Map<String, Connection> out = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, ConnectionConfig> e : configs.entrySet()) {
                out.put(e.getKey(), connect(registry, e.getKey(), e.getValue(), serverTimeout, maxRows, home));
            }
        } catch (RuntimeException e) {
            out.values().forEach(c -> c.dialect().close());
            throw e;
        }
        return new ConnectionRegistry(out, registry, serverTimeout, maxRows, home);
    }

    private static Connection connect(DialectRegistry registry, String name, ConnectionConfig c,
            Duration serverTimeout, long maxRows, Path home) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalStateException("connections." + name + ": a connection name is 1-100 letters,"
                    + " digits, '.', '_' or '-', starting with a letter or digit");
        }
        DialectFactory factory = registry.require(c.getDialect(), name);
        Duration timeout = c.getQueryTimeout() == null ? serverTimeout
                : Duration.ofMillis(Math.min(serverTimeout.toMillis(), c.getQueryTimeout().toMilliseconds()));
        DialectContext context = new DialectContext(name, c.getUrl(), Optional.ofNullable(c.getUser()),
                Optional.ofNullable(c.getPassword()), timeout, maxRows, c.getPoolSize(), home);
        Dialect dialect;
        try {
            dialect = factory.create(context, Map.copyOf(c.getProperties()));
        } catch (IllegalArgumentException ex) {
            throw new IllegalStateException("connections." + name + ".properties: " + ex.getMessage(), ex);
        }
        TableNamespace namespace = dialect.defaultNamespace();
        SqlDialectFamily family = SqlDialectFamily.of(dialect.sqlFamily());
        LexicalRules rules = dialect.lexicalRules();
        if (rules == null || rules == family.lexicalRules()) {
            LOG.info("Connection '{}' uses dialect '{}'", name, c.getDialect());
        } else {
            LOG.info("Connection '{}' uses dialect '{}' (SQL family {}, its own lexical rules '{}')", name,
                    c.getDialect(), family.name().toLowerCase(java.util.Locale.ROOT), rules.name());
        }
        return new Connection(name, c.getDialect(), dialect, timeout, family,
                rules == null ? family.lexicalRules() : rules,
                namespace == null ? TableNamespace.UNKNOWN : namespace, Set.copyOf(c.getAllowedFunctions()));
    }

    /**
     * Adds a connection while the server runs (the example APIs' own database), as the YAML would declare it;
     * closed at shutdown like the others. Refused when the name is taken.
     */
    public synchronized Connection add(String name, ConnectionConfig config) {
        if (connections.containsKey(name)) {
            throw new IllegalStateException("connection '" + name + "' exists already");
        }
        Connection c = connect(registry, name, config, serverTimeout, maxRows, home);
        Map<String, Connection> next = new LinkedHashMap<>(connections);
        next.put(name, c);
        connections = Collections.unmodifiableMap(next);
        return c;
    }

    /** Removes and closes a connection {@link #add added} while the server runs; nothing when it is not there. */
    public synchronized void remove(String name) {
        Connection c = connections.get(name);
        if (c != null) {
            Map<String, Connection> next = new LinkedHashMap<>(connections);
            next.remove(name);
            connections = Collections.unmodifiableMap(next);
            c.dialect().close();
        }
    }

    /**
     * Registers the connections with the application: closed at shutdown, a health check and the dialect's pool
     * gauges each, and the privilege check that warns about over-privileged database users (stopped first).
     */
    public ConnectionRegistry manage(Environment environment) {
        environment.lifecycle().manage(this);
        environment.lifecycle().manage(new PrivilegeCheck(this, PrivilegeCheck.TIMEOUT));
        for (Connection c : connections.values()) {
            environment.healthChecks().register("connection." + c.name(),
                    new DialectHealthCheck(c.dialect(), Duration.ofSeconds(5)));
            for (String metric : c.dialect().metrics().keySet()) {
                environment.metrics().gauge("connections." + c.name() + "." + metric,
                        () -> () -> c.dialect().metrics().getOrDefault(metric, 0));
            }
        }
        return this;
    }

    public Optional<Connection> get(String name) {
        return Optional.ofNullable(connections.get(name));
    }

    public Map<String, Connection> all() {
        return connections;
    }

    @Override
    public void stop() {
        for (Connection c : connections.values()) {
            try {
                c.dialect().close();
            } catch (RuntimeException e) {
                LOG.warn("Closing connection '{}' failed", c.name(), e);
            }
        }
    }
}
