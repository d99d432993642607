package io.queryapigate.bench;

import io.queryapigate.dialect.testkit.Processes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** /proc readings and small process helpers (Linux only). */
final class Procs {
    private static final double TICKS = ticksPerSecond();

    private Procs() {}

    private static double ticksPerSecond() {
        Processes.Output o = Processes.run(5, "getconf", "CLK_TCK");
        try {
            return Double.parseDouble(o.out().trim());
        } catch (RuntimeException e) {
            return 100.0;
        }
    }

    /** The fields of /proc/PID/stat after the command name (index 0 = state, field 3 in proc(5)). */
    static String[] statFields(String statLine) {
        int close = statLine.lastIndexOf(')');
        return statLine.substring(close + 2).trim().split(" ");
    }

    /** CPU seconds (user + system) of one process, or -1 when it is gone. */
    static double cpuSeconds(long pid) {
        try {
            String[] f = statFields(Files.readString(Path.of("/proc/" + pid + "/stat")));
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** CPU seconds of the children a shell waited for (cutime + cstime), from a stat line it printed. */
    static double childCpuSeconds(String statLine) {
        String[] f = statFields(statLine);
        return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS;
    }

    /** CPU seconds of a process and all its descendants alive now (gunicorn: master + worker). */
    static double treeCpuSeconds(long pid) {
        double sum = 0;
        for (long p : tree(pid)) {
            double c = cpuSeconds(p);
            if (c > 0) {
                sum += c;
            }
        }
        return sum;
    }

    static List<Long> tree(long root) {
        List<Long> out = new ArrayList<>();
        out.add(root);
        ProcessHandle.of(root).ifPresent(h -> h.descendants().forEach(d -> out.add(d.pid())));
        return out;
    }

    /** Resident set size in MiB (VmRSS), summed over the process tree; -1 when gone. */
    static double rssMiB(long pid) {
        double kb = 0;
        boolean any = false;
        for (long p : tree(pid)) {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/" + p + "/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        kb += Double.parseDouble(line.substring(6).trim().split("\\s+")[0]);
                        any = true;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone
            }
        }
        return any ? Math.round(kb / 1024.0 * 10) / 10.0 : -1;
    }

    static double[] loadavg() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pid of the first process whose comm is exactly this name, or -1. */
    static long findByComm(String comm) {
        try (Stream<Path> s = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (!n.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    if (Files.readString(p.resolve("comm")).trim().equals(comm)) {
                        return Long.parseLong(n);
                    }
                } catch (IOException e) {
                    // raced with an exit
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return -1;
    }

    /** The CPU list a process may run on ("0,1"), as taskset prints it. */
    static String affinity(long pid) {
        Processes.Output o = Processes.run(10, "taskset", "-pc", Long.toString(pid));
        int colon = o.out().lastIndexOf(':');
        return o.exit() == 0 && colon > 0 ? o.out().substring(colon + 1).trim() : "";
    }

    /** Pins every thread of a process (taskset -a). */
    static boolean pin(long pid, String cpus) {
        Processes.Output o = Processes.run(10, "taskset", "-a", "-pc", cpus, Long.toString(pid));
        return o.exit() == 0;
    }

    static long selfPid() {
        return ProcessHandle.current().pid();
    }
}
