package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.ParameterBinder;
import io.queryapigate.dialect.jdbc.ResultSetReader;
import io.queryapigate.dialect.jdbc.TimeLimit;
import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.AffectedRowsExceeded;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.SessionStrategy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One database reached through a JDBC driver the operator supplies, one fresh connection per call.
 *
 * <p>{@link FreshConnections} opens connections through the {@link Driver} instance the factory loaded from {@code
 * plugins/} ({@link DriverDataSource}), keeps up to {@code DialectContext.poolSize} of them open ahead, and every
 * call takes one (waiting at most the call's time limit, else {@link DialectError#UNAVAILABLE}), runs what {@link
 * GenericJdbcSessionStrategy} plans, and hands it back to be closed: the engine is unknown, so the only session
 * reset that holds for every engine is a new session. Closing it and opening its replacement happen in the
 * background, on as many threads as the pool has connections.
 *
 * <p>Reads: {@code Connection.setReadOnly(true)} and a transaction rolled back at the end. Whether the engine refuses
 * a write in such a session is the driver's business (many ignore the hint), so the dialect does not declare {@link
 * Capability#SERVER_ENFORCED_READ_ONLY}: the guard, in its strictest (generic) family, is the lock that always
 * holds. The statement is sent as it is: no {@code LIMIT}, no rewriting; the row limit stops the reading ({@code
 * setMaxRows(maxRows + 1)} as a hint to the driver), and the service pages by skipping rows as they are read. The
 * time limit is {@code Statement.setQueryTimeout} (whole seconds, rounded up) and, at the limit itself, {@code
 * Statement.cancel()} from {@link TimeLimit}; the sink's cancel callback cancels the same way.
 *
 * <p>The dialect does not describe statements ({@code PreparedStatement.getMetaData} runs the statement on some
 * drivers) nor the catalogue. {@link #serverVersion} is the driver's {@code DatabaseMetaData} product name and
 * version. Thread-safe.
 */
public final class GenericJdbcDialect implements Dialect {

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.SERVER_SIDE_TIMEOUT,
            Capability.CANCELLATION, Capability.BIND_PARAMETERS, Capability.AFFECTED_ROWS_CEILING));

    private final DialectContext context;
    private final GenericJdbcDialectConfig config;
    private final String driverName;
    private final FreshConnections pool;
    private final GenericJdbcSessionStrategy sessionStrategy = new GenericJdbcSessionStrategy();
    private final GenericJdbcErrorMapper errors = new GenericJdbcErrorMapper();
    private final ResultSetReader reader = new ResultSetReader();
    private final ParameterBinder binder = new ParameterBinder();
    private final Set<TimeLimit> running = ConcurrentHashMap.newKeySet();
    private final Object lifecycle = new Object();
    private volatile boolean closed; // written under lifecycle

    /**
     * Creates the pool. Connections are opened in the background; an unreachable database does not fail creation.
     *
     * @param context the connection's context; {@code url} is the driver's JDBC URL
     * @param config the bound properties
     * @param driver the driver, loaded from the plugins' class loader
     * @throws IllegalArgumentException when the url is not one the driver accepts; the message names the key
     */
    public GenericJdbcDialect(DialectContext context, GenericJdbcDialectConfig config, Driver driver) {
        this.context = requireNonNull(context, "context is null");
        this.config = requireNonNull(config, "config is null");
        requireNonNull(driver, "driver is null");
        this.driverName = driver.getClass().getName();
        String url = context.url().strip();
        // the url may carry a password: it is never repeated in a message
        if (!url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("url: the jdbc dialect expects a JDBC URL (jdbc:<subprotocol>:...) as"
                    + " the driver " + driverName + " documents it");
        }
        if (!acceptsUrl(driver, url)) {
            throw new IllegalArgumentException("url: the driver " + driverName + " (" + GenericJdbcDialectConfig.DRIVER_CLASS
                    + ") does not accept the connection's url; check its subprotocol");
        }
        Properties properties = new Properties();
        context.user().ifPresent(user -> properties.setProperty("user", user));
        context.password().ifPresent(password -> properties.setProperty("password", password));

        this.pool = new FreshConnections("queryapigate-jdbc-" + context.connectionName(),
                new DriverDataSource(driver, url, properties)::getConnection, context.poolSize());
    }

    private static boolean acceptsUrl(Driver driver, String url) {
        try {
            return driver.acceptsURL(url);
        } catch (SQLException e) {
            // a driver that cannot tell is given the benefit of the doubt; connect() answers later
            return true;
        }
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public SessionStrategy sessionStrategy() {
        return sessionStrategy;
    }

    /** {@code generic}: the guard's strictest family, since the engine behind the driver is unknown. */
    @Override
    public String sqlFamily() {
        return "generic";
    }

    /**
     * The bound configuration.
     *
     * @return the configuration
     */
    public GenericJdbcDialectConfig config() {
        return config;
    }

    @Override
    public Map<String, Number> metrics() {
        return Map.of("pool.active", pool.active(), "pool.idle", pool.idle(), "pool.total", pool.openCount(),
                "pool.waiting", pool.waiting());
    }

    @Override
    public QueryStats execute(QueryRequest request, RowSink sink) {
        requireNonNull(request, "request is null");
        requireNonNull(sink, "sink is null");
        ensureOpen();
        long deadline = System.nanoTime() + saturatedNanos(request.timeout());
        SessionPlan plan = sessionStrategy.plan(request);
        Connection connection = borrow(deadline, request.timeout());
        try {
            return run(connection, plan, request, sink, deadline);
        } finally {
            pool.release(connection);
        }
    }

    private QueryStats run(Connection connection, SessionPlan plan, QueryRequest request, RowSink sink, long deadline) {
        boolean autoCommit = Boolean.parseBoolean(plan.settings().get(GenericJdbcSessionStrategy.AUTO_COMMIT));
        String end = plan.settings().get(GenericJdbcSessionStrategy.END);
        try {
            applyReadOnly(connection, Boolean.parseBoolean(plan.settings().get(GenericJdbcSessionStrategy.READ_ONLY)));
            connection.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            throw errors.translate(e);
        }
        TimeLimit limit = null;
        try (PreparedStatement statement = connection.prepareStatement(plan.statement(), ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY)) {
            Duration left = left(deadline);
            hints(statement, request, left);
            binder.bindAll(statement, request.parameters());
            limit = TimeLimit.start(left, new BackgroundCancel(statement, driverName));
            running.add(limit);
            sink.onCancellable(limit::cancel);
            throwIfStopped(limit, request);
            QueryStats stats;
            if (statement.execute()) {
                try (ResultSet result = statement.getResultSet()) {
                    stats = reader.read(result, sink, request.maxRows(), limit::stopped);
                }
            } else {
                sink.columns(List.of());
                stats = new QueryStats(0, request.mode() == AccessMode.WRITE ? updateCount(statement) : -1, false);
            }
            throwIfStopped(limit, request);
            finish(connection, end, request, stats);
            return stats;
        } catch (SQLException e) {
            rollbackQuietly(connection, autoCommit);
            throw limit != null && limit.stopped() ? stoppedException(limit, request, e) : errors.translate(e);
        } catch (RuntimeException e) {
            rollbackQuietly(connection, autoCommit);
            throw e;
        } finally {
            if (limit != null) {
                limit.close();
                running.remove(limit);
            }
        }
    }

    /** A driver that refuses the hint still runs the read: the guard is the lock that holds (as in the original). */
    private static void applyReadOnly(Connection connection, boolean readOnly) {
        try {
            connection.setReadOnly(readOnly);
        } catch (SQLException refused) {
            // nothing to undo: the connection is this call's alone; a broken one fails at the statement
        }
    }

    /** Hints the driver may ignore: fetch size, the row cap, the time limit in whole seconds. */
    private void hints(Statement statement, QueryRequest request, Duration left) throws SQLException {
        try {
            statement.setFetchSize((int) Math.min(config.fetchSize(), request.maxRows() + 1));
        } catch (SQLFeatureNotSupportedException ignored) {
            // a hint
        }
        try {
            statement.setMaxRows((int) Math.min(Integer.MAX_VALUE, request.maxRows() + 1));
        } catch (SQLFeatureNotSupportedException ignored) {
            // the reader stops at maxRows anyway
        }
        try {
            long seconds = (left.toMillis() + 999) / 1000;
            statement.setQueryTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds)));
        } catch (SQLFeatureNotSupportedException ignored) {
            // the client-side cancel still applies
        }
    }

    private void finish(Connection connection, String end, QueryRequest request, QueryStats stats) throws SQLException {
        switch (end) {
            case "rollback" -> connection.rollback();
            case "commit" -> {
                // a RETURNING clause answers with rows: they are what it changed
                long affected = stats.updateCount() >= 0 ? stats.updateCount() : stats.rows() + (stats.truncated() ? 1 : 0);
                if (stats.updateCount() == QueryStats.UNKNOWN_UPDATE_COUNT) {
                    connection.rollback();
                    throw new DialectException(DialectError.INTERNAL, "the driver " + driverName + " did not say how"
                            + " many rows the statement changed; rolled back, since the ceiling of "
                            + request.maxAffectedRows() + " rows cannot be checked");
                }
                if (affected > request.maxAffectedRows()) {
                    connection.rollback();
                    throw new AffectedRowsExceeded(affected, request.maxAffectedRows());
                }
                connection.commit();
            }
            default -> {
                // autocommit: the driver committed
            }
        }
    }

    private static long updateCount(Statement statement) throws SQLException {
        long count;
        try {
            count = statement.getLargeUpdateCount();
        } catch (UnsupportedOperationException | SQLFeatureNotSupportedException notJdbc42) {
            count = statement.getUpdateCount();
        }
        return count >= 0 ? count : QueryStats.UNKNOWN_UPDATE_COUNT;
    }

    private static void rollbackQuietly(Connection connection, boolean autoCommit) {
        if (autoCommit) {
            return;
        }
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is closed after the call whatever happens
        }
    }

    /** The driver's {@code DatabaseMetaData} product name and version, such as {@code HSQL Database Engine 2.7.4}. */
    @Override
    public Optional<String> serverVersion(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        ensureOpen();
        Connection connection = borrow(System.nanoTime() + saturatedNanos(timeout), timeout);
        try {
            DatabaseMetaData metaData = connection.getMetaData();
            String product = metaData.getDatabaseProductName();
            String version = metaData.getDatabaseProductVersion();
            if (product == null || product.isBlank()) {
                return Optional.empty();
            }
            return Optional.of(version == null || version.isBlank() ? product.strip()
                    : product.strip() + " " + version.strip());
        } catch (SQLException e) {
            throw errors.translate(e);
        } finally {
            pool.release(connection);
        }
    }

    @Override
    public void checkHealth(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        ensureOpen();
        // a connection opened now: a spare's isValid may not notice that the database went away since
        Connection connection = borrow(System.nanoTime() + saturatedNanos(timeout), timeout, true);
        try {
            int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000));
            if (!connection.isValid(seconds)) {
                throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                        + "': the driver " + driverName + " reports the database connection invalid");
            }
        } catch (SQLException e) {
            throw errors.translate(e, DialectError.UNAVAILABLE);
        } finally {
            pool.release(connection);
        }
    }

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (TimeLimit limit : running) {
            limit.cancel();
        }
        pool.close();
    }

    private Connection borrow(long deadline, Duration timeout) {
        return borrow(deadline, timeout, false);
    }

    private Connection borrow(long deadline, Duration timeout, boolean openedNow) {
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        try {
            return openedNow ? pool.takeNew(millis) : pool.take(millis);
        } catch (SQLException e) {
            if (closed) {
                throw closedException();
            }
            SQLException cause = e.getNextException();
            throw new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "': no database connection within " + timeout.toMillis() + " ms (pool size " + context.poolSize()
                    + ")" + (cause == null ? "" : ": " + errors.translate(cause).getMessage()), null, e);
        }
    }

    private void throwIfStopped(TimeLimit limit, QueryRequest request) {
        if (limit.stopped()) {
            throw stoppedException(limit, request, null);
        }
    }

    private DialectException stoppedException(TimeLimit limit, QueryRequest request, SQLException cause) {
        if (closed) {
            return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName()
                    + "' was closed while the statement ran", null, cause);
        }
        if (limit.timedOut()) {
            return new DialectException(DialectError.TIMEOUT, "the statement exceeded its time limit of "
                    + request.timeout().toMillis() + " ms and was cancelled", null, cause);
        }
        return new DialectException(DialectError.CANCELLED, "the statement was cancelled", null, cause);
    }

    private void ensureOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private DialectException closedException() {
        return new DialectException(DialectError.UNAVAILABLE, "connection '" + context.connectionName() + "' is closed");
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }
}
