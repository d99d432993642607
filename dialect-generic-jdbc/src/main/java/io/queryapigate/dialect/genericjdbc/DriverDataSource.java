package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The pool's source of physical connections: {@link Driver#connect} on the driver instance the dialect loaded,
 * never {@link java.sql.DriverManager}, which hands out only drivers visible to its caller's class loader (a
 * driver in {@code plugins/} is not).
 */
final class DriverDataSource implements DataSource {

    private final Driver driver;
    private final String url;
    private final Properties properties;
    private volatile int loginTimeoutSeconds;

    /**
     * A source of connections to {@code url}.
     *
     * @param driver the loaded driver
     * @param url the JDBC URL
     * @param properties user, password; kept, never shown
     */
    DriverDataSource(Driver driver, String url, Properties properties) {
        this.driver = requireNonNull(driver, "driver is null");
        this.url = requireNonNull(url, "url is null");
        this.properties = requireNonNull(properties, "properties is null");
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = driver.connect(url, properties);
        if (connection == null) {
            // Driver.connect answers null for a URL that belongs to another driver
            throw new SQLNonTransientConnectionException("driver " + driver.getClass().getName()
                    + " does not accept the connection's url", "08001");
        }
        return connection;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the credentials are the connection's");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // nothing is logged through a writer
    }

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper for " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
