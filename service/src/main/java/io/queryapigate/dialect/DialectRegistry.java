package io.queryapigate.dialect;

import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.DialectSpi;
import io.queryapigate.plugins.Plugins;
import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dialect factories on the class path and in the plugins folder, discovered once with {@link ServiceLoader}.
 * Each is logged with its jar and SPI version; two factories with one name, or a factory built for another SPI major
 * version, stop startup. Factories are only instantiated here; dialects are created only for connections the YAML
 * declares, each with the class loader it should see as its thread's context class loader while it is created
 * ({@link #creationLoader}).
 */
public final class DialectRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(DialectRegistry.class);

    private final Map<String, DialectFactory> factories;
    private final Plugins plugins;
    /** The plugin loader of each dialect a plugin brought. */
    private final Map<String, ClassLoader> pluginDialects;

    private DialectRegistry(Map<String, DialectFactory> factories, Plugins plugins) {
        this.factories = Collections.unmodifiableMap(factories);
        this.plugins = plugins;
        Map<String, ClassLoader> fromPlugins = new HashMap<>();
        for (Plugins.Plugin plugin : plugins.all().values()) {
            plugin.dialects().forEach(f -> fromPlugins.put(f.name(), plugin.loader()));
        }
        this.pluginDialects = Map.copyOf(fromPlugins);
    }

    /** The dialects on the service's class path alone (commands that read no configuration). */
    public static DialectRegistry discover(ClassLoader loader) {
        return discover(loader, Plugins.none(loader));
    }

    /** The dialects on the service's class path and those the plugins bring. */
    public static DialectRegistry discover(ClassLoader loader, Plugins plugins) {
        List<DialectFactory> found = new ArrayList<>();
        try {
            ServiceLoader.load(DialectFactory.class, loader).forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("A dialect plugin could not be loaded: " + e.getMessage(), e);
        }
        plugins.all().values().forEach(p -> found.addAll(p.dialects()));
        return of(found, plugins);
    }

    /** Registers the given factories with the same checks as discovery (used by tests). */
    public static DialectRegistry of(Iterable<DialectFactory> found) {
        return of(found, Plugins.none(DialectRegistry.class.getClassLoader()));
    }

    private static DialectRegistry of(Iterable<DialectFactory> found, Plugins plugins) {
        Map<String, DialectFactory> byName = new TreeMap<>();
        int spiMajor = DialectSpi.major(DialectSpi.VERSION);
        try {
            for (DialectFactory factory : found) {
                String name = factory.name();
                String where = location(factory.getClass());
                if (name == null || !name.matches("[a-z][a-z0-9_-]*")) {
                    throw new IllegalStateException("Dialect factory " + factory.getClass().getName() + " (" + where
                            + ") has an invalid name: " + name);
                }
                int major;
                try {
                    major = DialectSpi.major(factory.spiVersion());
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("Dialect '" + name + "' (" + where + ") reports an invalid SPI"
                            + " version: " + factory.spiVersion(), e);
                }
                if (major != spiMajor) {
                    throw new IllegalStateException("Dialect '" + name + "' (" + where + ") was built for SPI "
                            + factory.spiVersion() + " but this service provides SPI " + DialectSpi.VERSION);
                }
                DialectFactory previous = byName.putIfAbsent(name, factory);
                if (previous != null) {
                    throw new IllegalStateException("Two dialect factories are named '" + name + "': "
                            + previous.getClass().getName() + " (" + location(previous.getClass()) + ") and "
                            + factory.getClass().getName() + " (" + where + "). Remove one of the jars.");
                }
                LOG.info("Registering dialect '{}' from {} ({}, SPI {})", name, where, factory.getClass().getName(),
                        factory.spiVersion());
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("A dialect plugin could not be loaded: " + e.getMessage(), e);
        }
        return new DialectRegistry(byName, plugins);
    }

    private static String location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        URL url = source == null ? null : source.getLocation();
        return url == null ? "unknown location" : url.toString();
    }

    /**
     * The factory for a connection's dialect.
     *
     * @throws IllegalStateException naming the connection and the dialects that are available
     */
    public DialectFactory require(String dialect, String connection) {
        DialectFactory factory = factories.get(dialect);
        if (factory == null) {
            throw new IllegalStateException("connections." + connection + ".dialect: no dialect named '" + dialect
                    + "' is installed (available: " + String.join(", ", factories.keySet())
                    + "). Put its jar on the class path or fix the name.");
        }
        return factory;
    }

    public Map<String, DialectFactory> factories() {
        return factories;
    }

    /**
     * The context class loader a connection's dialect is created under: the named plugin's when the connection says
     * {@code plugin:}, else the dialect's own plugin's when a plugin brought it, else the service's class path followed
     * by the library plugins (where the {@code jdbc} dialect finds the driver an operator dropped in).
     *
     * @throws IllegalArgumentException when {@code plugin} names no loaded plugin
     */
    public ClassLoader creationLoader(String dialect, String plugin) {
        if (plugin != null) {
            return plugins.loader(plugin);
        }
        ClassLoader own = pluginDialects.get(dialect);
        return own != null ? own : plugins.libraries();
    }

    public Plugins plugins() {
        return plugins;
    }
}
