package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.testkit.Processes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs wrk (Debian's) with walk.lua: closed loop, N connections, one URL file, pinned with taskset. */
final class Wrk {
    private final Path script;
    private final String cpus;

    record Result(long requests, double seconds, double rps, double p50ms, double p90ms, double p99ms, double p999ms,
            double meanMs, long errors, long non2xx, long cacheHits, long cacheMisses, double cpuSeconds,
            String raw) {

        /** A cell's load figures: requests, throughput, latency percentiles, errors. */
        void writeTo(ObjectNode c) {
            c.put("requests", requests);
            c.put("seconds", Tpcc.round3(seconds));
            c.put("rps", Tpcc.round3(rps));
            c.put("p50_ms", p50ms);
            c.put("p90_ms", p90ms);
            c.put("p99_ms", p99ms);
            c.put("p999_ms", p999ms);
            c.put("mean_ms", Tpcc.round3(meanMs));
            c.put("errors", errors);
            c.put("non_2xx", non2xx);
        }
    }

    Wrk(Path runDir, String cpus) throws IOException {
        this.cpus = cpus;
        this.script = runDir.resolve("walk.lua");
        try (InputStream in = Wrk.class.getResourceAsStream("walk.lua")) {
            Files.write(script, in.readAllBytes());
        }
    }

    /** Installs wrk from Debian when it is missing; returns its version line or throws. */
    static String ensureInstalled() {
        Processes.Output v = Processes.run(10, "wrk", "--version");
        if (v.exit() < 0 || !v.out().contains("wrk")) {
            System.err.println("wrk not found: apt-get install -y wrk");
            Processes.Output o = Processes.run(600, "sh", "-c", "DEBIAN_FRONTEND=noninteractive apt-get install -y wrk");
            if (o.exit() != 0) {
                throw new IllegalStateException("could not install wrk: " + o.out());
            }
            v = Processes.run(10, "wrk", "--version");
        }
        return v.out().lines().findFirst().orElse("wrk").trim();
    }

    Result run(String baseUrl, Path urlFile, String key, int connections, int seconds, boolean count)
            throws IOException, InterruptedException {
        return run(baseUrl, urlFile, key, connections, seconds, count ? "count" : "plain");
    }

    /**
     * mode: "plain", "count" (statuses and X-Cache hits) or "series" (requests sent per wall-clock second, in the
     * raw result's "series": epoch second to count).
     */
    Result run(String baseUrl, Path urlFile, String key, int connections, int seconds, String mode)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "taskset -c \"$QAGB_CPUS\" wrk \"$@\"; rc=$?; read -r s < /proc/$$/stat; echo \"QAGB_SHSTAT $s\";"
                        + " exit $rc", "sh",
                "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "10s", "-s", script.toString(),
                baseUrl, "--", urlFile.toString(), key, mode));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("QAGB_CPUS", cpus);
        Process p = pb.start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes());
        }
        int rc = p.waitFor();
        String json = null;
        double cpu = -1;
        for (String line : out.split("\n")) {
            if (line.startsWith("QAGB_RESULT ")) {
                json = line.substring(12);
            } else if (line.startsWith("QAGB_SHSTAT ")) {
                cpu = Procs.childCpuSeconds(line.substring(12));
            }
        }
        if (rc != 0 || json == null) {
            throw new IllegalStateException("wrk failed (exit " + rc + "): " + Http.abbreviate(out));
        }
        JsonNode j = Http.JSON.readTree(json);
        long requests = j.path("requests").asLong();
        double secs = j.path("duration_us").asLong() / 1e6;
        long errors = j.path("err_connect").asLong() + j.path("err_read").asLong() + j.path("err_write").asLong()
                + j.path("err_timeout").asLong();
        return new Result(requests, secs, requests / secs, j.path("p50_us").asLong() / 1000.0,
                j.path("p90_us").asLong() / 1000.0, j.path("p99_us").asLong() / 1000.0,
                j.path("p999_us").asLong() / 1000.0, j.path("mean_us").asDouble() / 1000.0, errors,
                j.path("err_status").asLong(), j.path("cache_hits").asLong(), j.path("cache_misses").asLong(), cpu,
                json);
    }
}
