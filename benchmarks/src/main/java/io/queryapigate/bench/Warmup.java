package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Warms a freshly started QueryAPIGate until its throughput is stable: back-to-back windows of the mixed workload
 * (every query the gateway serves, in turn, 32 callers), for at least the minimum, then until the last
 * {@code stableWindows} windows lie within the tolerance of each other (highest / lowest - 1), or the maximum has
 * passed, in which case the start is recorded as never stabilised.
 */
final class Warmup {
    private Warmup() {}

    /** What one warm-up did. */
    record Result(double seconds, boolean stabilised, List<Double> windowRps, long requests, long non2xx,
            long socketErrors) {
        ObjectNode toJson(ObjectNode n, int minSeconds, CostOptions c) {
            n.put("seconds", Tpcc.round3(seconds));
            n.put("stabilised", stabilised);
            n.put("min_s", minSeconds);
            n.put("max_s", c.startWarmupMax());
            n.put("window_s", c.windowSeconds());
            n.put("stable_windows", c.stableWindows());
            n.put("tolerance", c.tolerance());
            ArrayNode w = n.putArray("windows_rps");
            windowRps.forEach(r -> w.add(Tpcc.round3(r)));
            n.put("requests", requests);
            n.put("non_2xx", non2xx);
            n.put("socket_errors", socketErrors);
            return n;
        }
    }

    /** True when the last {@code windows} rates exist and the highest is within tolerance of the lowest. */
    static boolean stable(List<Double> rates, int windows, double tolerance) {
        if (rates.size() < windows) {
            return false;
        }
        double lo = Double.MAX_VALUE, hi = 0;
        for (double r : rates.subList(rates.size() - windows, rates.size())) {
            lo = Math.min(lo, r);
            hi = Math.max(hi, r);
        }
        return lo > 0 && hi <= lo * (1 + tolerance);
    }

    /** Runs windows until stable (after at least minSeconds) or until another window would pass maxSeconds. */
    static Result untilStable(Wrk wrk, Servers.Server g, Path mixedUrls, int callers, int minSeconds, CostOptions c)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        List<Double> rates = new ArrayList<>();
        long requests = 0, non2xx = 0, errors = 0;
        while (true) {
            Wrk.Result r = wrk.run(g.baseUrl(), mixedUrls, g.readerKey(), callers, c.windowSeconds(), false);
            rates.add(r.rps());
            requests += r.requests();
            non2xx += r.non2xx();
            errors += r.errors();
            double elapsed = (System.nanoTime() - t0) / 1e9;
            if (elapsed >= minSeconds && stable(rates, c.stableWindows(), c.tolerance())) {
                return new Result(elapsed, true, rates, requests, non2xx, errors);
            }
            if (elapsed + c.windowSeconds() > c.startWarmupMax()) {
                return new Result(elapsed, false, rates, requests, non2xx, errors);
            }
        }
    }

    /** The mixed workload: one URL per line, the queries in turn, each with the next draw. */
    static Path writeMixedUrlFile(Path dir, String name, List<Workload.Query> queries, List<Workload.Call> calls,
            int lines) throws IOException {
        Path f = dir.resolve("urls-mixed-" + name + ".txt");
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            for (int i = 0; i < lines; i++) {
                Workload.Query q = queries.get(i % queries.size());
                w.write("/q/" + q.name() + "?" + calls.get(i % calls.size()).query(q));
                w.write('\n');
            }
        }
        return f;
    }
}
