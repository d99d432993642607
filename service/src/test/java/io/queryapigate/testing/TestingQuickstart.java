package io.queryapigate.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar started the way the README starts it ({@code java -jar service/target/queryapigate.jar server
 * config/quickstart.yml} from the repository root), in a fresh home on free ports, with the README's key.
 */
public final class TestingQuickstart implements AutoCloseable {
    /** The development administrator key the README prints. */
    public static final String README_KEY = "qag-dev-admin-key-change-me";

    private final Process server;
    private final Path home;
    private final int port;
    private final int adminPort;

    private TestingQuickstart(Process server, Path home, int port, int adminPort) {
        this.server = server;
        this.home = home;
        this.port = port;
        this.adminPort = adminPort;
    }

    /** Starts the jar and waits until it answers {@code /health}. */
    public static TestingQuickstart start() throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("qag-quickstart-");
        Path log = home.resolve("server.log");
        int port = freePort();
        int adminPort = freePort();
        ProcessBuilder pb = command("server", "config/quickstart.yml").redirectOutput(log.toFile());
        pb.environment().put("QUERYAPIGATE_HOME", home.toString());
        pb.environment().put("QUERYAPIGATE_PORT", Integer.toString(port));
        pb.environment().put("QUERYAPIGATE_ADMIN_PORT", Integer.toString(adminPort));
        pb.environment().remove("QUERYAPIGATE_ADMIN_KEY");
        TestingQuickstart started = new TestingQuickstart(pb.start(), home, port, adminPort);
        started.http().awaitHealth(started.server, log);
        return started;
    }

    /**
     * The quickstart for one test class: started before its first test, stopped after its last. Registered as
     * {@code @RegisterExtension static final TestingQuickstart.Running QUICKSTART = new TestingQuickstart.Running();}.
     */
    public static final class Running implements org.junit.jupiter.api.extension.BeforeAllCallback,
            org.junit.jupiter.api.extension.AfterAllCallback {
        private TestingQuickstart started;

        @Override
        public void beforeAll(org.junit.jupiter.api.extension.ExtensionContext context) throws Exception {
            started = TestingQuickstart.start();
        }

        @Override
        public void afterAll(org.junit.jupiter.api.extension.ExtensionContext context) throws Exception {
            if (started != null) {
                started.close();
            }
        }

        /** The running quickstart. */
        public TestingQuickstart get() {
            return started;
        }
    }

    /** {@code http://127.0.0.1:port}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** A client of the application port. */
    public Http http() {
        return new Http(baseUrl());
    }

    /** A client of the admin port. */
    public Http admin() {
        return new Http("http://127.0.0.1:" + adminPort);
    }

    /** The server's home (its store, the demo database, {@code server.log}). */
    public Path home() {
        return home;
    }

    @Override
    public void close() throws InterruptedException {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }

    /**
     * {@code java -jar service/target/queryapigate.jar ARGS} as the README runs it, from the repository root, its
     * output and errors in one stream.
     */
    public static ProcessBuilder command(String... args) {
        List<String> line = new ArrayList<>(List.of(java(),
                "--enable-native-access=ALL-UNNAMED", "-jar", jar().toString()));
        line.addAll(List.of(args));
        return new ProcessBuilder(line).directory(repo().toFile()).redirectErrorStream(true);
    }

    /** The repository root, where the README's commands run. */
    public static Path repo() {
        return Path.of(System.getProperty("qag.repo", "..")).toAbsolutePath().normalize();
    }

    /** The packaged jar. */
    private static Path jar() {
        return Path.of(System.getProperty("qag.jar", "target/queryapigate.jar")).toAbsolutePath();
    }

    /** The running JVM's {@code java}. */
    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
