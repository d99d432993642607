package io.queryapigate.plugins;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of one plugin. It sees the JDK, the shared packages from the service (the dialect SPI and the
 * SLF4J logging API, so a plugin's log lines reach the service's log) and its own jars, nothing else: a plugin may
 * bundle any version of a driver or library without meeting the service's copy or another plugin's.
 *
 * <p>Parent-first for the JDK (its platform class loader) and the shared packages, then the plugin's jars; a class that
 * is neither the JDK's, shared nor in the plugin's jars is not found, even if the service has it. Resources are
 * the plugin's own and the JDK's, so {@link java.util.ServiceLoader} over this loader finds only the plugin's
 * factories.
 */
final class PluginClassLoader extends URLClassLoader {
    /** Package prefixes every plugin shares with the service, loaded from the service's class loader. */
    static final List<String> SHARED_PACKAGES = List.of("io.queryapigate.dialect.spi.", "org.slf4j.");

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final ClassLoader service;

    PluginClassLoader(String plugin, List<URL> jars, ClassLoader service) {
        super("plugin:" + plugin, jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        this.service = service;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                type = shared(name) ? service.loadClass(name) : ownOrJdk(name);
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    /** The JDK first (a plugin cannot replace its classes), then the plugin's jars. */
    private Class<?> ownOrJdk(String name) throws ClassNotFoundException {
        try {
            return getParent().loadClass(name);
        } catch (ClassNotFoundException notJdk) {
            return findClass(name);
        }
    }

    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : getParent().getResource(name);
    }

    private static boolean shared(String name) {
        for (String prefix : SHARED_PACKAGES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
