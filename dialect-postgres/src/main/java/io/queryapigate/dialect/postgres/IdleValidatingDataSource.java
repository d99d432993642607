package io.queryapigate.dialect.postgres;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.jdbc.ConnectGate;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.Driver;

/**
 * The pool's source of pgjdbc connections, each wrapped so that {@link Connection#isValid} costs a round trip only
 * after the connection was idle for the configured time.
 *
 * <p>Why: HikariCP validates a connection on borrow whenever it was idle longer than its {@code aliveBypassWindowMs},
 * 500 ms, read once per pool from the JVM-wide system property {@code com.zaxxer.hikari.aliveBypassWindowMs} and
 * not configurable per pool. {@code isValid} is a round trip in pgjdbc (an empty query), so a gateway whose calls
 * arrive more than half a second apart would pay two round trips per call. Setting the system property would change
 * every HikariCP pool in the JVM (the metadata store's included). Instead the connection itself answers HikariCP's
 * {@code isValid}: within {@code postgres.pool_idle_validation} of the last sign of life (a call that reached the
 * server, or a real validation) it reports the connection valid without asking the server, unless pgjdbc already
 * knows it is closed; after that it asks pgjdbc. HikariCP's keepalive goes through the same check, so it still
 * probes connections idle that long.
 *
 * <p>A connection that broke within the window is found by the call that uses it (pgjdbc reports class 08) and
 * HikariCP evicts it then. Thread-safe.
 */
final class IdleValidatingDataSource implements DataSource {

    private final Driver driver = new Driver();
    private final String url;
    private final Properties properties;
    private final long idleValidationNanos;
    private final ConnectGate gate;

    /**
     * A source for {@code url}.
     *
     * @param url the {@code jdbc:postgresql:} URL
     * @param properties pgjdbc connection properties (credentials included); copied
     * @param idleValidationNanos how long after the last sign of life {@code isValid} trusts the connection
     * @param gate the dialect's gate: while the database cannot be reached, opening keeps trying through it
     */
    IdleValidatingDataSource(String url, Properties properties, long idleValidationNanos, ConnectGate gate) {
        this.url = requireNonNull(url, "url is null");
        this.properties = new Properties();
        this.properties.putAll(requireNonNull(properties, "properties is null"));
        this.idleValidationNanos = idleValidationNanos;
        this.gate = requireNonNull(gate, "gate is null");
    }

    @Override
    public Connection getConnection() throws SQLException {
        return gate.open(this::connect);
    }

    private Connection connect() throws SQLException {
        // the driver object directly rather than DriverManager, which may not see a plugin's class loader
        Connection connection = driver.connect(url, properties);
        if (connection == null) {
            throw new SQLException("pgjdbc does not accept the URL of this connection", "08001");
        }
        return wrap(connection, idleValidationNanos);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("credentials come from the dialect's configuration");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // pgjdbc logs through java.util.logging
    }

    @Override
    public void setLoginTimeout(int seconds) {
        // pgjdbc's connectTimeout and loginTimeout properties are set from postgres.connect_timeout
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        // never the properties: they hold the password
        return "IdleValidatingDataSource[" + url + "]";
    }

    /**
     * Wraps a connection.
     *
     * @param connection the pgjdbc connection
     * @param idleValidationNanos the trust window
     * @return a connection that also implements {@link AliveTracking}
     */
    static Connection wrap(Connection connection, long idleValidationNanos) {
        return (Connection) Proxy.newProxyInstance(IdleValidatingDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class, AliveTracking.class},
                new IdleValidation(connection, idleValidationNanos));
    }

    /**
     * Records a sign of life of a pooled connection; reach it with {@code connection.unwrap(AliveTracking.class)}
     * through HikariCP's proxy.
     */
    interface AliveTracking {
        /** The connection just exchanged messages with the server. */
        void markAlive();
    }

    private static final class IdleValidation implements InvocationHandler {
        private final Connection delegate;
        private final long windowNanos;
        private volatile long lastAlive = System.nanoTime(); // a connection that just opened is alive

        IdleValidation(Connection delegate, long windowNanos) {
            this.delegate = delegate;
            this.windowNanos = windowNanos;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "isValid":
                    return isValid((Integer) args[0]);
                case "markAlive":
                    lastAlive = System.nanoTime();
                    return null;
                case "unwrap":
                    if (((Class<?>) args[0]).isInstance(proxy)) {
                        return proxy;
                    }
                    break;
                case "isWrapperFor":
                    if (((Class<?>) args[0]).isInstance(proxy)) {
                        return true;
                    }
                    break;
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "IdleValidated[" + delegate + "]";
                default:
                    break;
            }
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private boolean isValid(int timeoutSeconds) throws SQLException {
            if (delegate.isClosed()) {
                return false;
            }
            if (System.nanoTime() - lastAlive < windowNanos) {
                return true;
            }
            boolean valid = delegate.isValid(timeoutSeconds);
            if (valid) {
                lastAlive = System.nanoTime();
            }
            return valid;
        }
    }
}
