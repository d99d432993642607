package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The warmup block: a fresh QueryAPIGate, started as scripts/run.sh starts it (the same JVM options, pinned to the
 * gateway's CPU), loaded with one query (customer, 32 callers) from its first request on, its throughput counted
 * second by second; how long it takes from the process start and from the first request to reach 90% of its warm
 * throughput (the median of the last quarter of the windows).
 */
final class WarmupBlock {
    static final double FRACTION = 0.9;

    interface Starter {
        Servers.JavaGateway start() throws Exception;
    }

    private final Results results;
    private final Wrk wrk;

    WarmupBlock(Results results, Wrk wrk) {
        this.results = results;
        this.wrk = wrk;
    }

    /** One window of the series: [start, end) in seconds after the first request, and the rate in it. */
    record Window(double start, double end, long requests) {
        double rps() {
            return requests / (end - start);
        }

        boolean full() {
            return end - start >= 0.999;
        }
    }

    /** What the series says. warmRps from the last full windows; t90 NaN when never reached. */
    record Analysis(double warmRps, int warmWindows, double t90, int t90Window) {}

    /**
     * The windows of a per-second count (epoch second to requests sent in it) for a run that began at firstEpochS
     * and lasted seconds: the first and the last window are cut to the run, and windows shorter than 0.25 s are
     * dropped (too short for a rate).
     */
    static List<Window> windows(Map<Long, Long> perSecond, double firstEpochS, double seconds) {
        List<Window> out = new ArrayList<>();
        double endEpochS = firstEpochS + seconds;
        for (Map.Entry<Long, Long> e : new TreeMap<>(perSecond).entrySet()) {
            double a = Math.max(e.getKey(), firstEpochS), b = Math.min(e.getKey() + 1, endEpochS);
            // a cut last second holds what wrk sent up to its end, which the harness knows only roughly: left out
            if (b - a >= 0.25 && (b >= e.getKey() + 1 || out.isEmpty())) {
                out.add(new Window(a - firstEpochS, b - firstEpochS, e.getValue()));
            }
        }
        return out;
    }

    /**
     * Warm = the median rate of the full windows in the last quarter (at least 3); t90 = the end of the first window
     * at 90% of it.
     */
    static Analysis analyse(List<Window> ws) {
        List<Window> full = ws.stream().filter(Window::full).toList();
        if (full.size() < 3) {
            return new Analysis(Double.NaN, 0, Double.NaN, -1);
        }
        int n = Math.max(3, full.size() / 4);
        List<Double> last = new ArrayList<>();
        for (Window w : full.subList(full.size() - n, full.size())) {
            last.add(w.rps());
        }
        double warm = Report.Stat.of(last).median();
        for (int i = 0; i < ws.size(); i++) {
            if (ws.get(i).rps() >= FRACTION * warm) {
                return new Analysis(warm, n, ws.get(i).end(), i);
            }
        }
        return new Analysis(warm, n, Double.NaN, -1);
    }

    /** Starts a gateway, loads it for the block's seconds, records the series; the gateway is stopped after. */
    void run(int round, Starter starter, Path customerUrls, int callers, int seconds) throws Exception {
        long n0 = System.nanoTime();
        try (Servers.JavaGateway g = starter.start()) {
            double ctor = (System.nanoTime() - n0) / 1e9;
            double startup = ((Number) g.describe().get("startup_seconds")).doubleValue();
            double cpu0 = g.cpuSeconds();
            double firstEpochS = System.currentTimeMillis() / 1000.0;
            Wrk.Result r = wrk.run(g.baseUrl(), customerUrls, g.readerKey(), callers, seconds, "series");
            double cpu = g.cpuSeconds() - cpu0;
            Map<Long, Long> perSecond = new TreeMap<>();
            JsonNode series = Http.JSON.readTree(r.raw()).path("series");
            series.fields().forEachRemaining(e -> perSecond.put(Long.parseLong(e.getKey()), e.getValue().asLong()));
            List<Window> ws = windows(perSecond, firstEpochS, r.seconds());
            Analysis a = analyse(ws);

            ObjectNode n = Results.line("warmup_series");
            n.put("block", "warmup");
            n.put("round", round);
            n.put("config", g.label());
            n.put("query", "customer");
            n.put("callers", callers);
            n.put("pid", g.pid());
            n.putPOJO("details", g.describe());
            n.put("startup_s", startup);
            n.put("publish_s", Tpcc.round3(Math.max(0, ctor - startup)));
            n.put("seconds", Tpcc.round3(r.seconds()));
            n.put("requests", r.requests());
            n.put("rps", Tpcc.round3(r.rps()));
            n.put("errors", r.errors());
            n.put("non_2xx", r.non2xx());
            n.put("gateway_cpu_s", Tpcc.round3(cpu));
            n.put("gateway_rss_mib", g.rssMiB());
            ArrayNode arr = n.putArray("windows");
            for (Window w : ws) {
                ObjectNode o = arr.addObject();
                o.put("end_s", Tpcc.round3(w.end()));
                o.put("s", Tpcc.round3(w.end() - w.start()));
                o.put("rps", Tpcc.round3(w.rps()));
            }
            n.put("warm_rps", Tpcc.round3(a.warmRps()));
            n.put("warm_windows", a.warmWindows());
            n.put("fraction", FRACTION);
            if (!Double.isNaN(a.t90())) {
                n.put("t90_from_first_request_s", Tpcc.round3(a.t90()));
                // the harness's own set-up calls (publishing the query and the key) between start and load are
                // left out: a deployed gateway has them in its store already
                n.put("t90_from_process_start_s", Tpcc.round3(startup + a.t90()));
            }
            results.write(n);
            System.err.printf("   warmup   %-22s start %.2f s, publish %.2f s, 90%% of %.0f/s after %s s of load%n",
                    g.label(), startup, ctor - startup, a.warmRps(),
                    Double.isNaN(a.t90()) ? "(never)" : String.format("%.1f", a.t90()));
            if (r.errors() > 0 || r.non2xx() > 0) {
                results.error("warmup", round, g.label(), "customer", new IllegalStateException(r.errors()
                        + " socket errors, " + r.non2xx() + " non-2xx answers"));
            }
        }
    }
}
