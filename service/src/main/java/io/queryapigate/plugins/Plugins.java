package io.queryapigate.plugins;

import io.queryapigate.dialect.spi.DialectFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins folder: each subfolder (its jars) or jar directly inside is one plugin, loaded in its own {@link
 * PluginClassLoader}. A plugin holding a {@link DialectFactory} adds dialects; one holding none is a library, such
 * as a JDBC driver for the {@code jdbc} dialect. Loaded once at startup, in name order; the loaders stay open for the
 * life of the process.
 */
public final class Plugins {
    private static final Logger LOG = LoggerFactory.getLogger(Plugins.class);

    private final Map<String, Plugin> byName;
    private final ClassLoader libraries;

    /** One plugin: its name (the folder, or the jar without {@code .jar}), where it is, and what it registers. */
    public record Plugin(String name, Path location, ClassLoader loader, List<DialectFactory> dialects) {}

    private Plugins(Map<String, Plugin> byName, ClassLoader service) {
        this.byName = Collections.unmodifiableMap(byName);
        List<ClassLoader> libs = byName.values().stream().filter(p -> p.dialects().isEmpty())
                .map(Plugin::loader).toList();
        this.libraries = libs.isEmpty() ? service : new LibraryClassLoader(service, libs);
    }

    /** No plugins: every dialect comes from the service's class path. */
    public static Plugins none(ClassLoader service) {
        return new Plugins(Map.of(), service);
    }

    /**
     * Loads every plugin in {@code directory}; a folder that does not exist holds none.
     *
     * @throws IllegalStateException naming the plugin whose jars cannot be read or whose factories cannot load
     */
    public static Plugins load(Path directory, ClassLoader service) {
        if (!Files.isDirectory(directory)) {
            LOG.debug("No plugins folder at {}", directory);
            return none(service);
        }
        Map<String, Plugin> byName = new TreeMap<>();
        for (Path entry : entries(directory)) {
            String file = entry.getFileName().toString();
            boolean jar = Files.isRegularFile(entry) && file.toLowerCase(Locale.ROOT).endsWith(".jar");
            if (!jar && !Files.isDirectory(entry)) {
                continue;
            }
            String name = jar ? file.substring(0, file.length() - 4) : file;
            List<URL> jars = jar ? List.of(url(entry)) : jarsIn(entry);
            if (jars.isEmpty()) {
                LOG.warn("Plugin folder {} holds no jar; ignored", entry);
                continue;
            }
            if (byName.containsKey(name)) {
                throw new IllegalStateException("plugins: both a folder and a jar are named '" + name + "' in "
                        + directory + "; remove one");
            }
            PluginClassLoader loader = new PluginClassLoader(name, jars, service);
            List<DialectFactory> dialects = new ArrayList<>();
            try {
                for (DialectFactory factory : ServiceLoader.load(DialectFactory.class, loader)) {
                    dialects.add(factory);
                }
            } catch (ServiceConfigurationError | LinkageError e) {
                throw new IllegalStateException("plugins: the plugin '" + name + "' (" + entry
                        + ") could not be loaded: " + e.getMessage(), e);
            }
            byName.put(name, new Plugin(name, entry, loader, List.copyOf(dialects)));
            LOG.info("Loaded plugin '{}' from {} ({} jar(s), {})", name, entry, jars.size(), dialects.isEmpty()
                    ? "a library" : "dialects " + dialects.stream().map(DialectFactory::name).toList());
        }
        return new Plugins(byName, service);
    }

    public Map<String, Plugin> all() {
        return byName;
    }

    /**
     * The class loader a built-in dialect gets as its thread's context class loader while it creates a connection:
     * the service's class path, then every library plugin in name order.
     */
    public ClassLoader libraries() {
        return libraries;
    }

    /**
     * The class loader of the plugin a connection names with {@code plugin:}.
     *
     * @throws IllegalArgumentException when no plugin has that name, naming the ones there are
     */
    public ClassLoader loader(String plugin) {
        Plugin p = byName.get(plugin);
        if (p == null) {
            throw new IllegalArgumentException("no plugin named '" + plugin + "' is loaded (loaded: "
                    + (byName.isEmpty() ? "none" : String.join(", ", byName.keySet())) + ")");
        }
        return p.loader();
    }

    private static List<Path> entries(Path directory) {
        try (Stream<Path> s = Files.list(directory)) {
            return s.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("plugins: cannot read " + directory, e);
        }
    }

    private static List<URL> jarsIn(Path folder) {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> Files.isRegularFile(p)
                    && p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
                    .sorted().map(Plugins::url).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("plugins: cannot read " + folder, e);
        }
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException("plugins: " + jar, e);
        }
    }

    /** The service's class path, then each library plugin's jars in turn. */
    private static final class LibraryClassLoader extends ClassLoader {
        static {
            ClassLoader.registerAsParallelCapable();
        }

        private final List<ClassLoader> libraries;

        LibraryClassLoader(ClassLoader service, List<ClassLoader> libraries) {
            super("plugin-libraries", service);
            this.libraries = libraries;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            for (ClassLoader library : libraries) {
                try {
                    return library.loadClass(name);
                } catch (ClassNotFoundException next) {
                    // the next library may have it
                }
            }
            throw new ClassNotFoundException(name);
        }

        @Override
        protected URL findResource(String name) {
            for (ClassLoader library : libraries) {
                URL url = library.getResource(name);
                if (url != null) {
                    return url;
                }
            }
            return null;
        }

        @Override
        protected java.util.Enumeration<URL> findResources(String name) throws IOException {
            List<URL> found = new ArrayList<>();
            for (ClassLoader library : libraries) {
                found.addAll(Collections.list(library.getResources(name)));
            }
            return Collections.enumeration(found);
        }
    }
}
