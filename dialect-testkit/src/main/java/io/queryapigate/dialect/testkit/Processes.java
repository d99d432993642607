package io.queryapigate.dialect.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of a test or a benchmark: run one to completion, tie a server's life to ours, stop it by pid, read
 * its log's tail.
 */
public final class Processes {
    private static final boolean SETPRIV = run(5, "setpriv", "--help").out().contains("--pdeathsig");

    private Processes() {}

    /** What a finished command printed (stdout and stderr together) and its exit status (negative: did not run). */
    public record Output(int exit, String out) {}

    /** Runs a command to completion (stdout and stderr together), with a time limit. */
    public static Output run(long timeoutSeconds, String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] bytes;
            try (var in = p.getInputStream()) {
                bytes = in.readAllBytes();
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Output(-1, new String(bytes, StandardCharsets.UTF_8) + " (timed out)");
            }
            return new Output(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Output(-2, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Output(-3, e.toString());
        }
    }

    /**
     * The command, so that the server it starts does not outlive the JVM that starts it: with util-linux's setpriv,
     * the kernel sends it SIGTERM when the starting thread dies, even by SIGKILL (PR_SET_PDEATHSIG). Start servers
     * from a thread that lives as long as they should (the main thread).
     */
    public static List<String> dieWithUs(List<String> cmd) {
        if (!SETPRIV) {
            return cmd;
        }
        List<String> out = new ArrayList<>(List.of("setpriv", "--pdeathsig", "TERM", "--"));
        out.addAll(cmd);
        return out;
    }

    /** Stops a process we started: SIGTERM, then SIGKILL after the grace period; by pid only, its children too. */
    public static void stop(Process p, long graceSeconds) {
        if (p == null || !p.isAlive()) {
            return;
        }
        List<ProcessHandle> kids = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle k : kids) {
            if (k.isAlive()) {
                k.destroyForcibly();
            }
        }
    }

    /** The last lines of a process's log file, for a failure message. */
    public static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** A loopback port nothing listens on right now. */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
