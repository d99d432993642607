package io.queryapigate.compat;

import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.testing.TestingPython;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The Python original ({@link TestingPython}) in a fresh home, with its own DuckDB file built from the demo script by
 * the venv's own {@code duckdb} module (the two gateways' DuckDB versions need not read each other's files).
 */
final class PythonGateway implements AutoCloseable {
    private final Path dir;
    private final Path duckdb;
    private final TestingPython python;

    private PythonGateway(Path dir, Path duckdb, TestingPython python) {
        this.dir = dir;
        this.duckdb = duckdb;
        this.python = python;
    }

    static PythonGateway start(Path venv, String adminKey, Path script) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("qag-compat-py-");
        Path duckdb = dir.resolve("demo.duckdb");
        Processes.Output built = Processes.run(120, venv.resolve("bin/python").toString(), "-c",
                "import duckdb, sys\n"
                        + "c = duckdb.connect(sys.argv[1])\n"
                        + "c.execute(open(sys.argv[2]).read())\n"
                        + "c.close()\n", duckdb.toString(), script.toString());
        if (built.exit() != 0) {
            throw new IllegalStateException("could not build " + duckdb + " from " + script + ": " + built.out());
        }
        return new PythonGateway(dir, duckdb, TestingPython.start(venv, dir.resolve("home"), adminKey));
    }

    String baseUrl() {
        return python.url();
    }

    /** Its DuckDB file, for the corpus' connection setup ({@code ${duckdb_file}}). */
    Path duckdbFile() {
        return duckdb;
    }

    /** The last lines of its log. */
    String log() {
        return python.log();
    }

    /** Stops it and removes its directory (home, DuckDB file, log). */
    @Override
    public void close() {
        python.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + dir + ": " + e);
        }
    }
}
