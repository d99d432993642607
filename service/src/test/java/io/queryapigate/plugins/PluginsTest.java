package io.queryapigate.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.DialectRegistry;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectFactory;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugins built here from source, as a third party would ship them: two dialect plugins each bundling a different
 * version of one library (same class name), and a library plugin. Each plugin sees its own copy, the SPI and SLF4J
 * from the service, the JDK, and nothing else of the service's or the other plugins' classes.
 */
class PluginsTest {
    @TempDir
    static Path work;

    static Path folder;

    @BeforeAll
    static void buildPlugins() throws Exception {
        folder = Files.createDirectories(work.resolve("plugins"));
        Path lib1 = jar(work.resolve("lib-1"), Map.of("com/example/lib/Version.java", library("1")), List.of());
        Path lib2 = jar(work.resolve("lib-2"), Map.of("com/example/lib/Version.java", library("2")), List.of());
        for (String[] p : new String[][] {{"alpha", "1"}, {"beta", "2"}}) {
            Path plugin = Files.createDirectories(folder.resolve(p[0]));
            Path lib = p[1].equals("1") ? lib1 : lib2;
            Path dialect = jar(work.resolve(p[0] + "-dialect"), Map.of(
                    "com/example/" + p[0] + "/Factory.java", factory(p[0]),
                    "META-INF/services/io.queryapigate.dialect.spi.DialectFactory", "com.example." + p[0]
                            + ".Factory\n"), List.of(lib));
            Files.copy(dialect, plugin.resolve(p[0] + "-dialect.jar"));
            Files.copy(lib, plugin.resolve("lib-" + p[1] + ".jar"));
        }
        Path driver = jar(work.resolve("driver"), Map.of("com/example/driver/Thing.java",
                "package com.example.driver; public final class Thing {}"), List.of());
        Files.copy(driver, folder.resolve("thing-driver.jar"));
        Files.createDirectories(folder.resolve("empty"));
    }

    @Test
    void eachDialectPluginRunsOnItsOwnVersionOfTheLibrary() {
        Plugins plugins = Plugins.load(folder, getClass().getClassLoader());
        assertThat(plugins.all().keySet()).containsExactly("alpha", "beta", "thing-driver");
        DialectRegistry registry = DialectRegistry.discover(getClass().getClassLoader(), plugins);
        assertThat(registry.factories()).containsKeys("alpha", "beta", "duckdb");

        assertThat(run(registry, "alpha", null)).containsEntry("library", "1");
        assertThat(run(registry, "beta", null)).containsEntry("library", "2");
    }

    @Test
    void aPluginSeesTheSpiAndSlf4jFromTheServiceAndNothingElseOfIt() throws Exception {
        Plugins plugins = Plugins.load(folder, getClass().getClassLoader());
        ClassLoader alpha = plugins.loader("alpha");
        assertThat(alpha.loadClass(DialectFactory.class.getName())).isSameAs(DialectFactory.class);
        assertThat(alpha.loadClass(org.slf4j.Logger.class.getName())).isSameAs(org.slf4j.Logger.class);
        assertThat(alpha.loadClass("java.sql.Driver")).isSameAs(java.sql.Driver.class);

        Map<String, String> seen = run(DialectRegistry.discover(getClass().getClassLoader(), plugins), "alpha", null);
        assertThat(seen).containsEntry("sees_service", "false").containsEntry("sees_jackson", "false")
                .containsEntry("sees_other_plugin", "false").containsEntry("sees_own_library", "true");
    }

    @Test
    void aConnectionIsCreatedUnderItsPluginsClassLoader() {
        Plugins plugins = Plugins.load(folder, getClass().getClassLoader());
        DialectRegistry registry = DialectRegistry.discover(getClass().getClassLoader(), plugins);
        assertThat(run(registry, "alpha", null)).containsEntry("created_under", "plugin:alpha");
        // a built-in dialect is created under the service's class path followed by the library plugins
        ClassLoader forBuiltIn = registry.creationLoader("duckdb", null);
        assertThat(load(forBuiltIn, "com.example.driver.Thing")).isTrue();
        assertThat(load(forBuiltIn, Plugins.class.getName())).isTrue();
        assertThat(load(forBuiltIn, "com.example.lib.Version")).as("a dialect plugin is not a library").isFalse();
        // a connection may name the plugin whose classes it wants
        assertThat(run(registry, "alpha", "beta")).containsEntry("created_under", "plugin:beta");
        assertThatThrownBy(() -> run(registry, "alpha", "gamma"))
                .isInstanceOf(ConnectionRegistry.InvalidConnection.class)
                .hasMessageContaining("plugin").hasMessageContaining("no plugin named 'gamma'")
                .hasMessageContaining("(loaded: alpha, beta, thing-driver)");
    }

    @Test
    void noFolderMeansNoPluginsAndTheBuiltInsStillLoad() {
        Plugins plugins = Plugins.load(work.resolve("absent"), getClass().getClassLoader());
        assertThat(plugins.all()).isEmpty();
        DialectRegistry registry = DialectRegistry.discover(getClass().getClassLoader(), plugins);
        assertThat(registry.factories()).containsKey("duckdb").doesNotContainKey("alpha");
        assertThat(registry.creationLoader("duckdb", null)).isSameAs(getClass().getClassLoader());
    }

    @Test
    void aPluginThatNamesABuiltInDialectStopsStartup() throws Exception {
        Path clash = Files.createDirectories(work.resolve("clash"));
        Path jar = jar(work.resolve("clash-src"), Map.of("com/example/clash/Factory.java",
                factory("clash").replace("return \"clash\";", "return \"duckdb\";"),
                "META-INF/services/io.queryapigate.dialect.spi.DialectFactory", "com.example.clash.Factory\n"),
                List.of(work.resolve("lib-1").resolve("out.jar")));
        Files.copy(jar, clash.resolve("clash.jar"));
        Plugins plugins = Plugins.load(clash, getClass().getClassLoader());
        assertThatThrownBy(() -> DialectRegistry.discover(getClass().getClassLoader(), plugins))
                .hasMessageContaining("Two dialect factories are named 'duckdb'").hasMessageContaining("clash.jar");
    }

    private static boolean load(ClassLoader loader, String name) {
        try {
            Class.forName(name, false, loader);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Opens a connection on the dialect through the connection registry and returns its one row by column. */
    private static Map<String, String> run(DialectRegistry registry, String dialect, String plugin) {
        ConnectionConfig config = new ConnectionConfig();
        config.setDialect(dialect);
        config.setUrl("anything");
        config.setPlugin(plugin);
        ConnectionRegistry connections = ConnectionRegistry.create(registry, Map.of("c", config),
                Duration.ofSeconds(5), 100, work);
        try {
            Dialect d = connections.require("c").dialect();
            RecordingSink sink = new RecordingSink();
            d.execute(QueryRequest.read("SELECT", List.of(), Duration.ofSeconds(5), 10), sink);
            Map<String, String> row = new java.util.LinkedHashMap<>();
            for (int i = 0; i < sink.columnNames().size(); i++) {
                row.put(sink.columnNames().get(i), String.valueOf(sink.rows().get(0).get(i)));
            }
            return row;
        } finally {
            connections.stop();
        }
    }

    private static String library(String version) {
        return "package com.example.lib; public final class Version { public static String value() { return \""
                + version + "\"; } }";
    }

    private static String factory(String name) {
        return """
                package com.example.%1$s;
                import io.queryapigate.dialect.spi.*;
                import java.time.Duration;
                import java.util.*;
                public final class Factory implements DialectFactory {
                    public String name() { return "%1$s"; }
                    public String spiVersion() { return DialectSpi.VERSION; }
                    public Dialect create(DialectContext context, Map<String, String> properties) {
                        String createdUnder = Thread.currentThread().getContextClassLoader().getName();
                        return new Dialect() {
                            public Set<Capability> capabilities() { return Set.of(); }
                            public SessionStrategy sessionStrategy() { return null; }
                            public QueryStats execute(QueryRequest request, RowSink sink) {
                                String[] names = {"library", "created_under", "sees_service", "sees_jackson",
                                        "sees_other_plugin", "sees_own_library"};
                                List<ColumnInfo> columns = new ArrayList<>();
                                for (String n : names) {
                                    columns.add(new ColumnInfo(n, "VARCHAR", java.sql.JDBCType.VARCHAR));
                                }
                                sink.columns(columns);
                                sink.row(new Object[] {com.example.lib.Version.value(), createdUnder,
                                        sees("io.queryapigate.plugins.Plugins"),
                                        sees("com.fasterxml.jackson.databind.ObjectMapper"),
                                        sees("com.example.driver.Thing"), sees("com.example.lib.Version")});
                                return QueryStats.read(1, false);
                            }
                            public void checkHealth(Duration timeout) {}
                            public void close() {}
                        };
                    }
                    static String sees(String type) {
                        try {
                            Class.forName(type, false, Factory.class.getClassLoader());
                            return "true";
                        } catch (ClassNotFoundException e) {
                            return "false";
                        }
                    }
                }
                """.formatted(name);
    }

    /** Compiles the {@code .java} entries against the SPI and {@code classpath}, and jars them with the rest. */
    private static Path jar(Path dir, Map<String, String> files, List<Path> classpath) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> sources = new ArrayList<>();
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path target = (f.getKey().endsWith(".java") ? src : classes).resolve(f.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, f.getValue());
            if (f.getKey().endsWith(".java")) {
                sources.add(target.toString());
            }
        }
        List<String> cp = new ArrayList<>();
        cp.add(Path.of(DialectFactory.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString());
        classpath.forEach(p -> cp.add(p.toString()));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp",
                String.join(java.io.File.pathSeparator, cp), "--release", "21", "-nowarn"));
        args.addAll(sources);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, System.err, args.toArray(String[]::new))).as("javac " + args).isZero();
        Path jar = dir.resolve("out.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out);
                Stream<Path> walk = Files.walk(classes)) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
                Files.copy(p, j);
                j.closeEntry();
            }
        }
        return jar;
    }
}
