package com.example.qag.derby;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * The {@code derby} dialect: embedded Apache Derby databases, one directory per connection.
 *
 * <pre>
 * connections:
 *   inventory:
 *     dialect: derby
 *     url: data/inventory          # a directory, relative to the service's home
 *     properties:
 *       derby.init_script: inventory.sql
 * </pre>
 *
 * <p>Derby's engine log goes to {@code derby.log} in the service's home unless {@code derby.stream.error.file} or
 * {@code derby.system.home} is set. Derby's embedded driver is found with {@link ServiceLoader} in this plugin's own class loader, and the instance
 * is kept: {@code DriverManager} would look for drivers in the caller's class loader and the service's, not in the
 * plugin's.
 */
public final class DerbyDialectFactory implements DialectFactory {

    /** Derby's (JVM-wide) setting for where its engine log goes. */
    static final String ERROR_LOG = "derby.stream.error.file";

    @Override
    public String name() {
        return "derby";
    }

    @Override
    public String spiVersion() {
        return DialectSpi.VERSION;
    }

    @Override
    public Dialect create(DialectContext context, Map<String, String> properties) {
        DerbyDialectConfig config = DerbyDialectConfig.bind(context.url(), context.homeDirectory(), properties);
        if (System.getProperty(ERROR_LOG) == null && System.getProperty("derby.system.home") == null) {
            // Derby's engine log; Derby would otherwise write derby.log into the process's working directory
            System.setProperty(ERROR_LOG, context.homeDirectory().resolve("derby.log").toString());
        }
        Driver driver = embeddedDriver();
        if (config.create() && !Files.exists(config.database())) {
            createDatabase(driver, config);
        }
        return new DerbyDialect(driver, config.database(), context.poolSize());
    }

    /** Derby's embedded driver from this plugin's jars. */
    static Driver embeddedDriver() {
        return ServiceLoader.load(Driver.class, DerbyDialectFactory.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(driver -> {
                    try {
                        return driver.acceptsURL("jdbc:derby:x") && !driver.acceptsURL("jdbc:derby://host/x");
                    } catch (SQLException e) {
                        return false;
                    }
                })
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("Derby's embedded driver (derby.jar) is not in the plugin"));
    }

    /** Creates the database and runs the init script in it; on failure nothing is left behind. */
    private static void createDatabase(Driver driver, DerbyDialectConfig config) {
        String url = "jdbc:derby:" + config.database();
        try (Connection connection = driver.connect(url + ";create=true", new Properties())) {
            if (config.initScript().isPresent()) {
                connection.setAutoCommit(false);
                List<String> statements = statements(Files.readString(config.initScript().get()));
                try (Statement statement = connection.createStatement()) {
                    for (String sql : statements) {
                        try {
                            statement.execute(sql);
                        } catch (SQLException e) {
                            connection.rollback();
                            throw new IllegalArgumentException(DerbyDialectConfig.INIT_SCRIPT + ": "
                                    + config.initScript().get() + " failed at '" + sql + "': " + e.getMessage(), e);
                        }
                    }
                }
                connection.commit();
            }
        } catch (SQLException | IOException | RuntimeException e) {
            removeDatabase(driver, config.database());
            if (e instanceof IllegalArgumentException refused) {
                throw refused;
            }
            throw new IllegalArgumentException((config.initScript().isPresent() ? DerbyDialectConfig.INIT_SCRIPT
                    : DerbyDialectConfig.CREATE) + ": could not create " + config.database() + ": " + e.getMessage(), e);
        }
    }

    /** A script's statements: each ends with a {@code ;} at the end of a line; {@code --} lines are comments. */
    static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\\R")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1).strip());
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }

    private static void removeDatabase(Driver driver, Path database) {
        try {
            driver.connect("jdbc:derby:" + database + ";shutdown=true", new Properties());
        } catch (SQLException e) {
            // 08006: shut down
        }
        if (!Files.exists(database)) {
            return;
        }
        try (Stream<Path> files = Files.walk(database)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
