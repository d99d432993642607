package io.queryapigate.dialect.genericjdbc;

import static java.util.Objects.requireNonNull;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.lang.reflect.InvocationTargetException;
import java.sql.Driver;
import java.util.Map;

/**
 * The {@code jdbc} dialect: any database whose JDBC driver jar the operator puts into {@code plugins/}.
 *
 * <p>{@code url} is the driver's JDBC URL (the Python original's {@code jdbc_url}); {@code jdbc.driver_class} names
 * the driver, which {@link #create} loads through the thread's context class loader (the service sets it to the
 * plugins' loader: the plugin the connection names with {@code plugin:}, else every library plugin) and keeps as a
 * {@link Driver} instance. Properties are described by {@link GenericJdbcDialectConfig}; behaviour and guarantees
 * by {@link GenericJdbcDialect} and {@code docs/dialects/jdbc.md}.
 */
public final class GenericJdbcDialectFactory implements DialectFactory {

    /** The name operators write as {@code dialect: jdbc}. */
    public static final String NAME = "jdbc";

    /** Creates the factory; stateless. */
    public GenericJdbcDialectFactory() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String spiVersion() {
        return DialectSpi.VERSION;
    }

    @Override
    public Dialect create(DialectContext context, Map<String, String> properties) {
        requireNonNull(context, "context is null");
        requireNonNull(properties, "properties is null");
        GenericJdbcDialectConfig config = GenericJdbcDialectConfig.fromProperties(properties);
        return new GenericJdbcDialect(context, config, loadDriver(config.driverClass()));
    }

    /**
     * Loads and instantiates the driver through the thread's context class loader (this class's loader when there
     * is none).
     *
     * @param className the driver's class name
     * @return a new driver instance
     * @throws IllegalArgumentException naming {@code jdbc.driver_class} when the class is missing, not a driver or
     *     cannot be instantiated
     */
    static Driver loadDriver(String className) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = GenericJdbcDialectFactory.class.getClassLoader();
        }
        String key = GenericJdbcDialectConfig.DRIVER_CLASS;
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new IllegalArgumentException(key + ": class " + className + " not found; put the JDBC driver's jar"
                    + " into the service's plugins/ directory (and name that plugin with the connection's 'plugin:'"
                    + " key if more than one carries the class)", e);
        } catch (LinkageError e) {
            throw new IllegalArgumentException(key + ": class " + className + " cannot be loaded: " + e, e);
        }
        if (!Driver.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(key + ": " + className + " is not a java.sql.Driver");
        }
        try {
            return (Driver) type.getDeclaredConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(key + ": " + className + " failed to start: " + e.getCause(), e);
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException(key + ": " + className + " has no public no-argument constructor: "
                    + e, e);
        }
    }
}
