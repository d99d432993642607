package io.queryapigate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Python original ({@code queryapigate} 0.43.0 from PyPI) in a cached virtualenv, started under gunicorn as its
 * image runs it (one gthread worker), on a home folder of its own. Where the virtualenv cannot be installed the test
 * is skipped, or fails under {@code CI=true}.
 */
public final class TestingPython implements AutoCloseable {
    public static final String SPEC = "queryapigate==0.43.0";

    private final Process process;
    private final Path log;
    private final String url;

    private TestingPython(Process process, Path log, String url) {
        this.process = process;
        this.log = log;
        this.url = url;
    }

    /** The virtualenv ({@code qag.pyvenv}, else the benchmark's cache), installed when missing. */
    public static Path venv() {
        Path venv = Path.of(System.getProperty("qag.pyvenv",
                System.getProperty("user.home") + "/.cache/queryapigate-bench/pyvenv-0.43.0"));
        String problem = ensure(venv);
        if (problem != null && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("the Python original could not be installed: " + problem);
        }
        Assumptions.assumeTrue(problem == null, () -> "the Python original is not installed: " + problem);
        return venv;
    }

    private static String ensure(Path venv) {
        if (Files.isExecutable(venv.resolve("bin/gunicorn")) && run(60, venv.resolve("bin/python").toString(), "-c",
                "import importlib.metadata as m; assert m.version('queryapigate') == '0.43.0'") == 0) {
            return null;
        }
        if (run(300, "python3", "-m", "venv", venv.toString()) != 0) {
            return "python3 -m venv " + venv + " failed";
        }
        if (run(1200, venv.resolve("bin/pip").toString(), "install", "-q", "--disable-pip-version-check", SPEC) != 0) {
            return "pip install " + SPEC + " failed";
        }
        return Files.isExecutable(venv.resolve("bin/gunicorn")) ? null : "gunicorn is missing after pip install";
    }

    private static int run(int seconds, String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Starts the original on {@code home} (created) with {@code adminKey} as QUERYAPIGATE_API_KEY; waits for it. */
    public static TestingPython start(Path venv, Path home, String adminKey) throws IOException, InterruptedException {
        return start(venv, home, adminKey, Map.of());
    }

    /** As {@link #start(Path, Path, String)}, with more of its settings ({@code QUERYAPIGATE_DATABASE_URL}, ...). */
    public static TestingPython start(Path venv, Path home, String adminKey, Map<String, String> settings)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = home.resolveSibling(home.getFileName() + "-gunicorn.log");
        ProcessBuilder pb = new ProcessBuilder(List.of(venv.resolve("bin/gunicorn").toString(),
                "-c", "python:queryapigate.gunicorn_conf", "--bind", "127.0.0.1:" + port, "--workers", "1",
                "--worker-class", "gthread", "--timeout", "120", "--no-control-socket",
                "queryapigate.app:create_app()")).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("QUERYAPIGATE_"));
        env.put("QUERYAPIGATE_HOME", home.toString());
        env.put("QUERYAPIGATE_API_KEY", adminKey);
        env.putAll(settings);
        TestingPython py = new TestingPython(pb.start(), log, "http://127.0.0.1:" + port);
        try {
            new Http(py.url).awaitHealth(py.process, log);
        } catch (AssertionError | IOException | InterruptedException e) {
            py.close();
            throw e;
        }
        return py;
    }

    public String url() {
        return url;
    }

    public Path log() {
        return log;
    }

    /** Stops it as its image's stop does (SIGTERM: it writes the runs still queued), then waits for it. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The original's log, for failure messages. */
    public String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
