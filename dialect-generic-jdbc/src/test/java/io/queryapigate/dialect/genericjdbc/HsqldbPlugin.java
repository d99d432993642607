package io.queryapigate.dialect.genericjdbc;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * HSQLDB as the service meets a driver from {@code plugins/}: its jar (copied to {@code target/test-drivers} by the
 * build, never on the test class path) behind a class loader of its own, set as the thread's context class loader
 * while the factory creates the dialect. The fixture goes through the same loader, so that it reaches the same
 * in-process databases.
 */
final class HsqldbPlugin {

    static final String DRIVER = "org.hsqldb.jdbc.JDBCDriver";
    static final Path JAR = Path.of("target", "test-drivers", "hsqldb.jar").toAbsolutePath();
    static final ClassLoader LOADER = loader();

    private HsqldbPlugin() {}

    private static ClassLoader loader() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the build copies it (maven-dependency-plugin)");
        }
        try {
            return new URLClassLoader("hsqldb-plugin", new URL[] {JAR.toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A context for an HSQLDB URL, user SA without a password. */
    static DialectContext context(String url, int poolSize, Path home) {
        return new DialectContext("hsqldb", url, Optional.of("SA"), Optional.of(""), Duration.ofSeconds(30), 10_000,
                poolSize, home);
    }

    /** Creates the dialect through the factory, with the plugin's loader as the thread's context class loader. */
    static Dialect create(DialectContext context, Map<String, String> properties) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(LOADER);
        try {
            return new GenericJdbcDialectFactory().create(context, properties);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    static Dialect create(String url, int poolSize, Path home) {
        return create(context(url, poolSize, home), Map.of(GenericJdbcDialectConfig.DRIVER_CLASS, DRIVER));
    }

    /** A connection of the test's own, through the plugin's driver. */
    static Connection connect(String url) throws SQLException {
        Driver driver;
        try {
            driver = (Driver) Class.forName(DRIVER, true, LOADER).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        Properties properties = new Properties();
        properties.setProperty("user", "SA");
        properties.setProperty("password", "");
        return driver.connect(url, properties);
    }

    /** Runs {@code statements} in order, autocommitted. */
    static void run(String url, List<String> statements) throws SQLException {
        try (Connection connection = connect(url);
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }
}
