package io.queryapigate.dialect;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.LexicalRules;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.errors.ApiException;
import io.queryapigate.scope.Scope;
import io.queryapigate.sql.SqlDialectFamily;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live connections and their dialects: those the YAML declares (fixed for the process's life), those added while
 * running (the example APIs' database) and those the management API stores ({@link #put}, {@link #drop}, kept in
 * step with the store by {@code connections.LiveConnections}). Calls read one immutable map without a lock. A
 * replaced or removed connection's dialect closes when the last call running on it ends ({@link Connection#enter});
 * everything closes at shutdown.
 */
public final class ConnectionRegistry implements Managed {
    /** A connection's name: 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionRegistry.class);
    private static final AtomicLong GENERATIONS = new AtomicLong();
    /** The DuckDB dialect's property naming the files its SQL may read. */
    private static final String DUCKDB_ALLOWED_PATHS = "duckdb.allowed_paths";

    /**
     * A connection ready to run calls, with what the SQL guard needs to know about it: the SQL family its statements
     * are parsed as (function lists, parser options, paging), the lexical rules its text is read with (quotes,
     * comments, markers: the dialect's {@link Dialect#lexicalRules()}), the catalog/schema unqualified table names
     * resolve to, and the functions restricted keys may call beyond the engine's pure built-ins. {@code generation}
     * is new each time a connection of that name opens, so what was derived from an earlier one is not reused.
     * {@code readsFiles}: the engine itself confines file access to the paths the operator listed, so the guard
     * lets readers call the engine's file-reading functions (a DuckDB connection with {@code duckdb.allowed_paths}).
     */
    public record Connection(String name, String dialectName, Dialect dialect, Duration timeout,
            SqlDialectFamily family, LexicalRules lexicalRules, TableNamespace namespace,
            Set<String> allowedFunctions, boolean readsFiles, long generation) {

        /** A connection outside the registry (tests), reading no files, with a generation of its own. */
        public Connection(String name, String dialectName, Dialect dialect, Duration timeout,
                SqlDialectFamily family, LexicalRules lexicalRules, TableNamespace namespace,
                Set<String> allowedFunctions) {
            this(name, dialectName, dialect, timeout, family, lexicalRules, namespace, allowedFunctions, false,
                    GENERATIONS.incrementAndGet());
        }

        /**
         * Marks a call as running on this connection until {@link #exit}, so a replacement lets it finish first;
         * false when the connection was replaced or removed meanwhile (look it up again).
         */
        public boolean enter() {
            return !(dialect instanceof DrainingDialect d) || d.enter();
        }

        /**
         * How many of its calls may run at once (its {@code poolSize}, more for a dialect with a second pool); 0 for
         * a connection outside the registry (tests).
         */
        public int concurrentCalls() {
            return dialect instanceof DrainingDialect d ? d.concurrentCalls() : 0;
        }

        /** Ends what a successful {@link #enter} began. */
        public void exit() {
            if (dialect instanceof DrainingDialect d) {
                d.exit();
            }
        }

        /** Closes a connection {@link #open opened} but never {@link #put registered}. */
        public void discard() {
            dialect.close();
        }
    }

    /**
     * A connection's settings refused: {@code field} is the YAML key under the connection ({@code dialect}, {@code
     * properties}, {@code name}, ...), the message {@code connections.NAME.FIELD: problem}.
     */
    public static final class InvalidConnection extends IllegalStateException {
        private static final long serialVersionUID = 1L;
        private final String field;
        private final String problem;

        InvalidConnection(String name, String field, String problem, Throwable cause) {
            super("connections." + name + (field.equals("name") ? "" : "." + field) + ": " + problem, cause);
            this.field = field;
            this.problem = problem;
        }

        public String field() {
            return field;
        }

        public String problem() {
            return problem;
        }
    }

    /** Replaced whole when a connection is added, replaced or removed: calls read it without a lock. */
    private volatile Map<String, Connection> connections;
    private final ThreadLocal<Map<String, Connection>> staged = new ThreadLocal<>();
    private final AtomicInteger staging = new AtomicInteger();
    private final Map<String, ConnectionConfig> configured;
    private final Set<String> added = ConcurrentHashMap.newKeySet();
    private final Map<String, RuntimeException> unavailable = new ConcurrentHashMap<>();
    /** The workspace of each stored connection not in the default one (the YAML's and the examples' are there). */
    private final Map<String, String> workspaces = new ConcurrentHashMap<>();
    private final Map<String, List<String>> gauges = new ConcurrentHashMap<>();
    private final DialectRegistry registry;
    private final Duration serverTimeout;
    private final long maxRows;
    private final Path home;
    private volatile HealthCheckRegistry healthChecks;
    private volatile MetricRegistry metrics;

    private ConnectionRegistry(Map<String, Connection> connections, Map<String, ConnectionConfig> configured,
            DialectRegistry registry, Duration serverTimeout, long maxRows, Path home) {
        this.connections = Collections.unmodifiableMap(new LinkedHashMap<>(connections));
        this.configured = Map.copyOf(configured);
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
        return new ConnectionRegistry(out, configs, registry, serverTimeout, maxRows, home);
    }

    /**
     * The one set of rules a connection's settings pass, from YAML or from the API: its name, an installed dialect,
     * the pool size, and the properties its dialect's factory accepts (the factory creates the dialect).
     */
    private static Connection connect(DialectRegistry registry, String name, ConnectionConfig c,
            Duration serverTimeout, long maxRows, Path home) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidConnection(name, "name", "a connection name is 1-100 letters, digits, '.', '_' or '-',"
                    + " starting with a letter or digit", null);
        }
        if (c.getPoolSize() < 1 || c.getPoolSize() > 1024) {
            throw new InvalidConnection(name, "poolSize", "must be between 1 and 1024", null);
        }
        DialectFactory factory;
        try {
            factory = registry.require(c.getDialect(), name);
        } catch (IllegalStateException e) {
            throw new InvalidConnection(name, "dialect", e.getMessage().substring(e.getMessage().indexOf(": ") + 2),
                    null);
        }
        Duration timeout = c.getQueryTimeout() == null ? serverTimeout
                : Duration.ofMillis(Math.min(serverTimeout.toMillis(), c.getQueryTimeout().toMilliseconds()));
        if (timeout.isZero() || timeout.isNegative()) {
            throw new InvalidConnection(name, "queryTimeout", "must be positive", null);
        }
        DialectContext context = new DialectContext(name, c.getUrl(), Optional.ofNullable(c.getUser()),
                Optional.ofNullable(c.getPassword()), timeout, maxRows, c.getPoolSize(), home);
        ClassLoader creating;
        try {
            creating = registry.creationLoader(c.getDialect(), c.getPlugin());
        } catch (IllegalArgumentException e) {
            throw new InvalidConnection(name, "plugin", e.getMessage(), null);
        }
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        Dialect dialect;
        try {
            thread.setContextClassLoader(creating);
            dialect = factory.create(context, Map.copyOf(c.getProperties()));
        } catch (IllegalArgumentException ex) {
            throw new InvalidConnection(name, "properties", ex.getMessage(), ex);
        } finally {
            thread.setContextClassLoader(before);
        }
        TableNamespace namespace = dialect.defaultNamespace();
        SqlDialectFamily family = SqlDialectFamily.of(dialect.sqlFamily());
        LexicalRules rules = dialect.lexicalRules();
        if (rules == null || rules == family.lexicalRules()) {
            LOG.info("Connection '{}' uses dialect '{}'", name, c.getDialect());
        } else {
            LOG.info("Connection '{}' uses dialect '{}' (SQL family {}, its own lexical rules '{}')", name,
                    c.getDialect(), family.name().toLowerCase(Locale.ROOT), rules.name());
        }
        return new Connection(name, c.getDialect(), new DrainingDialect(name, dialect, concurrentCalls(c)), timeout,
                family,
                rules == null ? family.lexicalRules() : rules,
                namespace == null ? TableNamespace.UNKNOWN : namespace, Set.copyOf(c.getAllowedFunctions()),
                readsFiles(c), GENERATIONS.incrementAndGet());
    }

    /**
     * How many calls of a connection may run at once (the load shedding's sessions, {@code limits.maxWaitingCalls}):
     * its {@code poolSize}, plus a MySQL connection's pool of writers ({@code mysql.write_pool_size}, else as many),
     * or a ClickHouse connection's {@code clickhouse.max_concurrent} when that is larger.
     */
    static int concurrentCalls(ConnectionConfig c) {
        int pool = c.getPoolSize();
        try {
            if ("mysql".equals(c.getDialect())) {
                String writers = c.getProperties().get("mysql.write_pool_size");
                return pool + (writers == null ? pool : Integer.parseInt(writers.strip()));
            }
            String clickhouse = "clickhouse".equals(c.getDialect()) ? c.getProperties().get("clickhouse.max_concurrent")
                    : null;
            return clickhouse == null ? pool : Math.max(pool, Integer.parseInt(clickhouse.strip()));
        } catch (NumberFormatException e) {
            return pool; // the dialect refused it already
        }
    }

    /**
     * Whether the engine confines file reads itself: the DuckDB dialect opens a connection with {@value
     * #DUCKDB_ALLOWED_PATHS} as DuckDB's allowed directories, external access otherwise off and its configuration
     * locked (docs/dialects/duckdb.md). No other dialect lets the guard pass file functions.
     */
    private static boolean readsFiles(ConnectionConfig c) {
        String paths = c.getProperties().get(DUCKDB_ALLOWED_PATHS);
        return "duckdb".equals(c.getDialect()) && paths != null && !paths.replace(",", "").isBlank();
    }

    /**
     * Checks {@code config} by the rules YAML connections pass and opens it, without registering it: {@link #put}
     * it, or {@link Connection#discard} it.
     *
     * @throws InvalidConnection naming the field
     */
    public Connection open(String name, ConnectionConfig config) {
        return connect(registry, name, config, serverTimeout, maxRows, home);
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
        added.add(name);
        install(name, c);
        return c;
    }

    /** Removes a connection {@link #add added} while the server runs; nothing when it is not there. */
    public synchronized void remove(String name) {
        added.remove(name);
        uninstall(name);
    }

    /**
     * Registers a stored connection, or replaces it: calls already running on the one it replaces finish there,
     * then that one closes. Refused for a name the YAML declares or one {@link #add added}.
     */
    public synchronized void put(String name, Connection c) {
        if (configured.containsKey(name) || added.contains(name)) {
            c.discard();
            throw new IllegalStateException("connection '" + name + "' is not managed through the API");
        }
        unavailable.remove(name);
        install(name, c);
    }

    /** Removes a stored connection (its running calls finish first); nothing when it is not there. */
    public synchronized void drop(String name) {
        if (configured.containsKey(name) || added.contains(name)) {
            return;
        }
        unavailable.remove(name);
        workspaces.remove(name);
        uninstall(name);
    }

    /**
     * Takes a stored connection out of service because it cannot open (its secret cannot be resolved): calls on it
     * fail with {@code failure} until it is {@link #put} again.
     */
    public synchronized void markUnavailable(String name, RuntimeException failure) {
        if (configured.containsKey(name) || added.contains(name)) {
            return;
        }
        uninstall(name);
        unavailable.put(name, failure);
    }

    /** The stored connections taken out of service because they cannot open, with why. */
    public Map<String, RuntimeException> outOfService() {
        return Map.copyOf(unavailable);
    }

    /** Why a connection that is not live cannot be used, when it is one the API stores. */
    public Optional<RuntimeException> unavailable(String name) {
        return Optional.ofNullable(unavailable.get(name));
    }

    /** True for a connection the YAML declares (read-only through the API). */
    public boolean isConfigured(String name) {
        return configured.containsKey(name);
    }

    /** True for a connection {@link #add added} while running (the example APIs'). */
    public boolean isAdded(String name) {
        return added.contains(name);
    }

    /** The YAML's connections, as declared. */
    public Map<String, ConnectionConfig> configured() {
        return configured;
    }

    private void install(String name, Connection c) {
        Map<String, Connection> next = new LinkedHashMap<>(connections);
        Connection previous = next.put(name, c);
        connections = Collections.unmodifiableMap(next);
        register(c);
        if (previous != null) {
            retire(previous);
        }
    }

    private void uninstall(String name) {
        Connection c = connections.get(name);
        if (c != null) {
            Map<String, Connection> next = new LinkedHashMap<>(connections);
            next.remove(name);
            connections = Collections.unmodifiableMap(next);
            unregister(name);
            retire(c);
        }
    }

    private static void retire(Connection c) {
        if (c.dialect() instanceof DrainingDialect d) {
            d.retire();
        } else {
            c.dialect().close();
        }
    }

    /**
     * Registers the connections with the application: closed at shutdown, a health check and the dialect's pool
     * gauges each (and for each connection that opens later, removed when it goes), and the privilege check that
     * warns about over-privileged database users (stopped first).
     */
    public ConnectionRegistry manage(Environment environment) {
        environment.lifecycle().manage(this);
        environment.lifecycle().manage(new PrivilegeCheck(this, PrivilegeCheck.TIMEOUT));
        synchronized (this) {
            healthChecks = environment.healthChecks();
            metrics = environment.metrics();
            connections.values().forEach(this::register);
        }
        return this;
    }

    private void register(Connection c) {
        if (healthChecks == null) {
            return;
        }
        unregister(c.name());
        healthChecks.register("connection." + c.name(), new DialectHealthCheck(c.dialect(), Duration.ofSeconds(5)));
        List<String> names = new ArrayList<>();
        for (String metric : c.dialect().metrics().keySet()) {
            String gauge = "connections." + c.name() + "." + metric;
            metrics.gauge(gauge, () -> () -> c.dialect().metrics().getOrDefault(metric, 0));
            names.add(gauge);
        }
        gauges.put(c.name(), names);
    }

    private void unregister(String name) {
        if (healthChecks == null) {
            return;
        }
        healthChecks.unregister("connection." + name);
        List<String> names = gauges.remove(name);
        if (names != null) {
            names.forEach(metrics::remove);
        }
    }

    /**
     * The live connection of that name for a call: 404 {@code connection_not_found}, or why a stored one cannot be
     * used now (its secret: {@code secrets.SecretUnavailableException}).
     */
    public Connection require(String name) {
        Connection c = connections.get(name);
        if (c != null) {
            return c;
        }
        RuntimeException failure = unavailable.get(name);
        if (failure != null) {
            throw failure;
        }
        throw ApiException.notFound("connection_not_found", "No connection named '" + name + "'.");
    }

    /** Records which workspace a stored connection belongs to (before it is {@link #put}). */
    public void own(String name, String workspace) {
        if (configured.containsKey(name) || added.contains(name) || Scope.DEFAULT.equals(workspace)) {
            workspaces.remove(name);
        } else {
            workspaces.put(name, workspace);
        }
    }

    /** The workspace a connection belongs to: the YAML's and the examples' are the default one's. */
    public String workspaceOf(String name) {
        return workspaces.getOrDefault(name, Scope.DEFAULT);
    }

    /**
     * {@link #require} for a caller acting in {@code workspace}: another workspace's connection is 404 {@code
     * connection_not_found}, as a missing one.
     */
    public Connection require(String name, String workspace) {
        if (!workspace.equals(workspaceOf(name))) {
            throw ApiException.notFound("connection_not_found", "No connection named '" + name + "'.");
        }
        return require(name);
    }

    /** {@link #get}, for the workspace this thread acts in ({@link Scope}): another workspace's is empty. */
    public Optional<Connection> visible(String name) {
        return Scope.owns(workspaceOf(name)) ? get(name) : Optional.empty();
    }

    public Optional<Connection> get(String name) {
        if (staging.get() > 0) {
            Map<String, Connection> mine = staged.get();
            Connection c = mine == null ? null : mine.get(name);
            if (c != null) {
                return Optional.of(c);
            }
        }
        return Optional.ofNullable(connections.get(name));
    }

    /**
     * Runs {@code work} with connections not in service yet visible to this thread alone, over those of the same
     * name: a configuration apply checks its queries on the connections it declares before it stores them.
     */
    public <T> T withStaged(Map<String, Connection> mine, Supplier<T> work) {
        if (mine.isEmpty()) {
            return work.get();
        }
        Map<String, Connection> outer = staged.get();
        staged.set(mine);
        staging.incrementAndGet();
        try {
            return work.get();
        } finally {
            staging.decrementAndGet();
            if (outer == null) {
                staged.remove();
            } else {
                staged.set(outer);
            }
        }
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
