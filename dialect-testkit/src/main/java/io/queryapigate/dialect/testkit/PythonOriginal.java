package io.queryapigate.dialect.testkit;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The Python original ({@code queryapigate} on PyPI), which the benchmarks measure and the differential tests
 * compare against: its virtualenv, installed with pip once and cached under {@code ~/.cache/queryapigate-bench/},
 * and the gunicorn command that serves it as its Docker image does. Other pinned Python packages the tests drive
 * (the MCP interop test's {@code mcp} client) get a cached venv of their own the same way.
 */
public final class PythonOriginal {
    /** The release every comparison is made against. */
    public static final String VERSION = "0.43.0";
    /**
     * What pip installs: the server extra (gunicorn), the MySQL driver (the benchmarks' database), DuckDB (the
     * differential suite's data), the PostgreSQL driver (the importer's test of a PostgreSQL store) and sqlglot
     * (its {@code flow} route).
     */
    public static final String SPEC = "queryapigate[server,mysql,duckdb,postgres,flow]==" + VERSION;
    /** The modules of {@link #SPEC}'s extras, checked in an existing venv. */
    private static final String MODULES = "gunicorn, mysql.connector, duckdb, psycopg2, sqlglot";

    private PythonOriginal() {}

    /** {@code ~/.cache/queryapigate-bench/pyvenv-<version>}: shared by the benchmarks and the tests. */
    public static Path defaultVenv() {
        return Path.of(System.getProperty("user.home"), ".cache", "queryapigate-bench", "pyvenv-" + VERSION);
    }

    /**
     * Creates the venv and installs {@link #SPEC} unless that version is there already; null when ready, else what
     * went wrong. Idempotent, and safe when a test and a benchmark run it at once (a file lock beside the venv).
     */
    public static String ensure(Path venv) {
        Path gunicorn = venv.resolve("bin/gunicorn");
        return ensure(venv, SPEC, () -> Files.isExecutable(gunicorn) && installed(venv));
    }

    /**
     * A venv of its own under {@code ~/.cache/queryapigate-bench/} ({@code name}, e.g. {@code mcp-client-2.3.0}) with
     * {@code spec} pip-installed (a pinned package the tests drive, such as a client library), created and locked as
     * the original's; ready once {@code probe} (Python code run by its interpreter) exits 0. Null when ready, else
     * what went wrong.
     */
    public static String ensure(String name, String spec, String probe) {
        Path venv = cachedVenv(name);
        return ensure(venv, spec, () -> Files.isExecutable(venv.resolve("bin/python"))
                && Processes.run(60, venv.resolve("bin/python").toString(), "-c", probe).exit() == 0);
    }

    /** {@code ~/.cache/queryapigate-bench/<name>}. */
    public static Path cachedVenv(String name) {
        return defaultVenv().resolveSibling(name);
    }

    private static String ensure(Path venv, String spec, BooleanSupplier ready) {
        try {
            Files.createDirectories(venv.getParent());
        } catch (IOException e) {
            return "could not create " + venv.getParent() + ": " + e;
        }
        Path lockFile = venv.resolveSibling(venv.getFileName() + ".lock");
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock ignored = ch.lock()) {
            return ensureLocked(venv, spec, ready);
        } catch (IOException e) {
            return "could not lock " + lockFile + ": " + e;
        }
    }

    private static String ensureLocked(Path venv, String spec, BooleanSupplier ready) {
        if (ready.getAsBoolean()) {
            return null;
        }
        System.err.println("installing into " + venv + ": python3 -m venv " + venv + " && pip install '" + spec + "'");
        if (!Files.isExecutable(venv.resolve("bin/pip"))) {
            Processes.Output mk = Processes.run(300, "python3", "-m", "venv", venv.toString());
            if (mk.exit() != 0) {
                return "`python3 -m venv " + venv + "` failed (exit " + mk.exit() + "): " + abbreviate(mk.out());
            }
        }
        Processes.Output pip = Processes.run(1200, venv.resolve("bin/pip").toString(), "install", "-q",
                "--disable-pip-version-check", spec);
        if (pip.exit() != 0) {
            return "`pip install '" + spec + "'` failed (exit " + pip.exit() + "): " + abbreviate(pip.out());
        }
        if (!ready.getAsBoolean()) {
            return "pip installed '" + spec + "' into " + venv + " but it is still not ready";
        }
        return null;
    }

    /** That version, and the modules of every extra (an older venv of the benchmarks' lacks some). */
    private static boolean installed(Path venv) {
        Processes.Output o = Processes.run(60, venv.resolve("bin/python").toString(), "-c",
                "import importlib.metadata as m\nimport " + MODULES + "\nprint(m.version('queryapigate'))");
        return o.exit() == 0 && o.out().trim().endsWith(VERSION);
    }

    /** Python, gunicorn, Flask, the MySQL driver and the original's own version, as installed. */
    public static String versions(Path venv) {
        Processes.Output o = Processes.run(60, venv.resolve("bin/python").toString(), "-c",
                "import sys, importlib.metadata as m\n"
                        + "names = ['queryapigate', 'gunicorn', 'Flask', 'mysql-connector-python']\n"
                        + "print('Python ' + sys.version.split()[0] + ', ' + ', '.join(n + ' ' + m.version(n)"
                        + " for n in names))");
        return o.out().trim();
    }

    /**
     * The original served as its image runs it (Dockerfile CMD + gunicorn_conf.py: one gthread worker, a 120 s
     * timeout, the access log on stdout), in {@code home} ({@code QUERYAPIGATE_HOME}) with {@code adminKey}
     * ({@code QUERYAPIGATE_API_KEY}) and {@code env} on top (other {@code QUERYAPIGATE_*} variables of ours are
     * removed), its output in {@code log}; dies with the starting thread. {@code prefix} goes before gunicorn
     * (e.g. {@code taskset -c 1}). Start it with {@link ProcessBuilder#start()}.
     */
    public static ProcessBuilder gunicorn(Path venv, List<String> prefix, int port, Path home, String adminKey,
            Map<String, String> env, Path log) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(venv.resolve("bin/gunicorn").toString(), "-c", "python:queryapigate.gunicorn_conf",
                "--bind", "127.0.0.1:" + port, "--workers", "1", "--worker-class", "gthread", "--timeout", "120",
                "--graceful-timeout", "30", "queryapigate.app:create_app()"));
        ProcessBuilder pb = new ProcessBuilder(Processes.dieWithUs(cmd)).directory(home.getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("QUERYAPIGATE_") || k.startsWith("SQL2API_"));
        e.put("QUERYAPIGATE_HOME", home.toString());
        e.put("QUERYAPIGATE_API_KEY", adminKey);
        e.putAll(env);
        return pb;
    }

    private static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }
}
