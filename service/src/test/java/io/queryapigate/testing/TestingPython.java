package io.queryapigate.testing;

import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.dialect.testkit.PythonOriginal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The Python original ({@link PythonOriginal}: its cached virtualenv and the gunicorn command of its image) started
 * on a home folder the test chooses, so the test can read the store it leaves. Where the virtualenv cannot be
 * installed the test fails (never skipped: the comparison is the test).
 */
public final class TestingPython implements AutoCloseable {
    private final Process process;
    private final String url;
    private final Path log;

    private TestingPython(Process process, String url, Path log) {
        this.process = process;
        this.url = url;
        this.log = log;
    }

    /** The virtualenv, installed when missing. */
    public static Path venv() {
        Path venv = PythonOriginal.defaultVenv();
        String problem = PythonOriginal.ensure(venv);
        if (problem != null) {
            throw new AssertionError("the Python original could not be installed (it comes from PyPI): " + problem);
        }
        return venv;
    }

    /** Starts the original on {@code home} (created) with {@code adminKey} as QUERYAPIGATE_API_KEY; waits for it. */
    public static TestingPython start(Path venv, Path home, String adminKey) throws IOException, InterruptedException {
        return start(venv, home, adminKey, Map.of());
    }

    /** As {@link #start(Path, Path, String)}, with more of its settings ({@code QUERYAPIGATE_DATABASE_URL}, ...). */
    public static TestingPython start(Path venv, Path home, String adminKey, Map<String, String> settings)
            throws IOException, InterruptedException {
        Files.createDirectories(home);
        int port = Processes.freePort();
        Path log = home.resolveSibling(home.getFileName() + "-gunicorn.log");
        Process process = PythonOriginal.gunicorn(venv, List.of(), port, home, adminKey, settings, log).start();
        TestingPython py = new TestingPython(process, "http://127.0.0.1:" + port, log);
        try {
            new Http(py.url).awaitHealth(process, log);
        } catch (AssertionError | RuntimeException | IOException | InterruptedException e) {
            py.close();
            throw e;
        }
        return py;
    }

    public String url() {
        return url;
    }

    /** The last lines of its log. */
    public String log() {
        return Processes.tail(log, 30);
    }

    /** Stops it as its image's stop does (SIGTERM: it writes the runs still queued), then waits for it. */
    @Override
    public void close() {
        Processes.stop(process, 30);
    }
}
