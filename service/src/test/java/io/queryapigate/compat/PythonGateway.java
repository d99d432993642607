package io.queryapigate.compat;

import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.dialect.testkit.PythonOriginal;
import io.queryapigate.testing.Http;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Python original under gunicorn in a fresh home, with its own DuckDB file built from the demo script by the
 * venv's own {@code duckdb} module (the two gateways' DuckDB versions need not read each other's files).
 */
final class PythonGateway implements AutoCloseable {
    private final Path dir;
    private final Path duckdb;
    private final Process process;
    private final int port;

    private PythonGateway(Path dir, Path duckdb, Process process, int port) {
        this.dir = dir;
        this.duckdb = duckdb;
        this.process = process;
        this.port = port;
    }

    static PythonGateway start(Path venv, String adminKey, Path script) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("qag-compat-py-");
        Path home = Files.createDirectories(dir.resolve("home"));
        Path duckdb = dir.resolve("demo.duckdb");
        Processes.Output built = Processes.run(120, venv.resolve("bin/python").toString(), "-c",
                "import duckdb, sys\n"
                        + "c = duckdb.connect(sys.argv[1])\n"
                        + "c.execute(open(sys.argv[2]).read())\n"
                        + "c.close()\n", duckdb.toString(), script.toString());
        if (built.exit() != 0) {
            throw new IllegalStateException("could not build " + duckdb + " from " + script + ": " + built.out());
        }
        int port = Processes.freePort();
        Path log = dir.resolve("gunicorn.log");
        Process process = PythonOriginal.gunicorn(venv, List.of(), port, home, adminKey, Map.of(), log).start();
        PythonGateway gateway = new PythonGateway(dir, duckdb, process, port);
        try {
            new Http(gateway.baseUrl()).awaitHealth(process, log);
        } catch (AssertionError | RuntimeException e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Its DuckDB file, for the corpus' connection setup ({@code ${duckdb_file}}). */
    Path duckdbFile() {
        return duckdb;
    }

    /** The last lines of its log. */
    String log() {
        return Processes.tail(dir.resolve("gunicorn.log"), 30);
    }

    /** Stops it and removes its directory (home, DuckDB file, log). */
    @Override
    public void close() {
        Processes.stop(process, 10);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + dir + ": " + e);
        }
    }
}
