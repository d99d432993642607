package io.queryapigate.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM options every QueryAPIGate start gets, the way scripts/run.sh starts it: {@code
 * --enable-native-access=ALL-UNNAMED}, then the lines of config/jvm.options (one option a line; blank lines and
 * {@code #} comments skipped), then {@code --gateway-jvm-opts} split at whitespace (as run.sh splits
 * {@code QAG_JAVA_OPTS}), so a later option overrides an earlier one. Like run.sh, a run keeps a JDK AOT cache
 * (JEP 483/514/515): its first start records one ({@code -XX:AOTCacheOutput}, written when that JVM exits), every
 * later start uses it ({@code -XX:AOTCache}).
 */
final class GatewayJvm {
    static final String OPTIONS_FILE = "config/jvm.options";
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private static List<String> options;
    private static String extra = "";
    private static Path aotCache;

    private GatewayJvm() {}

    /** Reads the options file under the repository root once for the run; extra may be null or blank. */
    static synchronized List<String> configure(Path repo, String extra) throws IOException {
        Path file = repo.resolve(OPTIONS_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: scripts/run.sh starts the gateway with the options"
                    + " listed there, and so does the benchmark (--repo is the repository root)");
        }
        options = assemble(Files.readAllLines(file), extra);
        GatewayJvm.extra = extra == null ? "" : extra.strip();
        return options;
    }

    /** The options of this run (configure first; without it, the repository is the working directory). */
    static synchronized List<String> options() {
        if (options == null) {
            try {
                configure(Path.of("."), null);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return options;
    }

    /** Keeps this run's AOT cache at this path (null: none, as with --no-aot-cache or an AOT option of one's own). */
    static synchronized void aotCache(Path cache) {
        aotCache = extra.contains("-XX:AOTCache") ? null : cache;
    }

    /** This run's AOT cache, or null. */
    static synchronized Path aotCache() {
        return aotCache;
    }

    /** The options of one start: {@link #options()}, then the AOT cache's (recorded if missing, else used). */
    static synchronized List<String> startOptions() {
        List<String> out = new ArrayList<>(options());
        if (aotCache != null) {
            out.add((Files.isRegularFile(aotCache) ? "-XX:AOTCache=" : "-XX:AOTCacheOutput=") + aotCache);
        }
        return List.copyOf(out);
    }

    /** What --gateway-jvm-opts added ("" for nothing). */
    static synchronized String extra() {
        return extra;
    }

    static List<String> assemble(List<String> fileLines, String extra) {
        List<String> out = new ArrayList<>();
        out.add(NATIVE_ACCESS);
        out.addAll(parse(fileLines));
        out.addAll(split(extra));
        return List.copyOf(out);
    }

    /** As run.sh reads the file: each line trimmed (bash's read), empty lines and lines starting with # skipped. */
    static List<String> parse(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            String t = l.strip();
            if (!t.isEmpty() && !t.startsWith("#")) {
                out.add(t);
            }
        }
        return out;
    }

    static List<String> split(String extra) {
        if (extra == null || extra.isBlank()) {
            return List.of();
        }
        return Arrays.stream(extra.strip().split("\\s+")).toList();
    }
}
