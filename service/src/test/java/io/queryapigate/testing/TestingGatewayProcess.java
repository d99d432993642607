package io.queryapigate.testing;

import io.queryapigate.dialect.testkit.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The packaged jar running as a child process on a {@link TestingConfig} YAML (its own home, SQLite store unless the
 * YAML says otherwise), on free ports: for the tests that kill it ({@link #kill}: SIGKILL) or stop it
 * ({@link #terminate}: SIGTERM, as a service manager does). Its output goes to {@code server.log} in its home.
 */
public final class TestingGatewayProcess implements AutoCloseable {
    private final Path config;
    private final Path log;
    private final int port;
    private final int adminPort;
    private Process process;

    private TestingGatewayProcess(Path config, int port, int adminPort) {
        this.config = config;
        this.log = config.resolveSibling("server.log");
        this.port = port;
        this.adminPort = adminPort;
    }

    /**
     * Writes {@code config} (a {@link TestingConfig} YAML) with two free ports instead of its {@code port: 0}s and
     * logging at INFO into {@code server.log}, and starts the jar on it.
     */
    public static TestingGatewayProcess start(Path config) throws IOException, InterruptedException {
        int port = Processes.freePort();
        int adminPort = Processes.freePort();
        String yaml = Files.readString(config).replaceFirst("port: 0\n", "port: " + port + "\n")
                .replaceFirst("port: 0\n", "port: " + adminPort + "\n")
                .replace("logging:\n  level: WARN\n  appenders:\n    - type: console\n      threshold: WARN\n",
                        "logging:\n  level: INFO\n  appenders:\n    - type: console\n      threshold: INFO\n");
        Files.writeString(config, yaml);
        TestingGatewayProcess started = new TestingGatewayProcess(config, port, adminPort);
        started.startAgain();
        return started;
    }

    /** Starts the jar again on the same YAML and home (after {@link #kill} or {@link #terminate}). */
    public void startAgain() throws IOException, InterruptedException {
        ProcessBuilder pb = TestingQuickstart.command("server", config.toString());
        pb.command(Processes.dieWithUs(pb.command()));
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
        http().awaitHealth(process, log);
    }

    /** A client of the application port. */
    public Http http() {
        return new Http("http://127.0.0.1:" + port);
    }

    /** A client of the admin port. */
    public Http admin() {
        return new Http("http://127.0.0.1:" + adminPort);
    }

    /** The server's home (its SQLite store, {@code queryapigate.db}, and {@code server.log}). */
    public Path home() {
        return config.getParent();
    }

    /** The YAML it runs on. */
    public Path config() {
        return config;
    }

    /** The server's output so far. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL, as a crash or the OOM killer; returns once it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the gateway did not die from SIGKILL");
        }
    }

    /** SIGTERM: the server's graceful stop begins; {@link #waitForExit} waits for its end. */
    public void terminate() {
        process.destroy();
    }

    /** Waits for the process to end and returns its exit status; fails after {@code seconds}. */
    public int waitForExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the gateway did not stop within " + seconds + " s:\n" + Processes.tail(log, 30));
        }
        return process.exitValue();
    }

    /** Whether the process is still running. */
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        Processes.stop(process, 30);
    }
}
