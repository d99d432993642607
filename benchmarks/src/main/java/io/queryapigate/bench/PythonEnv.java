package io.queryapigate.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** The Python original in its own virtualenv, installed from PyPI with pip. */
final class PythonEnv {
    private PythonEnv() {}

    /** Creates the venv and installs the spec unless it is there already; null when ready, else the error. */
    static String ensure(Path venv, String spec) {
        Path gunicorn = venv.resolve("bin/gunicorn");
        if (Files.isExecutable(gunicorn) && installed(venv, spec)) {
            return null;
        }
        try {
            Files.createDirectories(venv.getParent());
        } catch (Exception e) {
            return "could not create " + venv.getParent() + ": " + e;
        }
        System.err.println("installing the Python original: python3 -m venv " + venv + " && pip install '" + spec + "'");
        Procs.Output mk = Procs.run(300, "python3", "-m", "venv", venv.toString());
        if (mk.exit() != 0) {
            return "`python3 -m venv " + venv + "` failed (exit " + mk.exit() + "): " + Http.abbreviate(mk.out());
        }
        Procs.Output pip = Procs.run(1200, venv.resolve("bin/pip").toString(), "install", "-q",
                "--disable-pip-version-check", spec);
        if (pip.exit() != 0) {
            return "`pip install '" + spec + "'` failed (exit " + pip.exit() + "): " + Http.abbreviate(pip.out());
        }
        if (!Files.isExecutable(gunicorn)) {
            return "pip installed '" + spec + "' but " + gunicorn + " is missing";
        }
        return null;
    }

    private static boolean installed(Path venv, String spec) {
        String version = spec.substring(spec.indexOf("==") + 2);
        Procs.Output o = Procs.run(60, venv.resolve("bin/python").toString(), "-c",
                "import importlib.metadata as m; print(m.version('queryapigate'))");
        return o.exit() == 0 && o.out().trim().equals(version);
    }

    /** Python, gunicorn, Flask, the MySQL driver and the original's own version, as installed. */
    static String versions(Path venv) {
        Procs.Output o = Procs.run(60, venv.resolve("bin/python").toString(), "-c",
                "import sys, importlib.metadata as m\n"
                        + "names = ['queryapigate', 'gunicorn', 'Flask', 'mysql-connector-python']\n"
                        + "print('Python ' + sys.version.split()[0] + ', ' + ', '.join(n + ' ' + m.version(n)"
                        + " for n in names))");
        return o.out().trim();
    }
}
