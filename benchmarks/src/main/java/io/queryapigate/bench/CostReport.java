package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The report's per-call cost sections (issue 14): CPU and allocation per call, the gateway's memory under block 2's
 * load, the warm-up after each gateway start and the warmup block, and the profiles.
 */
final class CostReport {
    private CostReport() {}

    static List<JsonNode> lines(Report r, String type) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode n : r.lines()) {
            if (n.path("type").asText().equals(type)) {
                out.add(n);
            }
        }
        return out;
    }

    static double cpuMicrosPerCall(JsonNode c) {
        double req = c.path("requests").asDouble();
        JsonNode g = c.path("cpu_s").path("gateway");
        return req > 0 && g.isNumber() ? g.asDouble() * 1e6 / req : Double.NaN;
    }

    static double allocKiBPerCall(JsonNode c) {
        return c.has("allocated_bytes_per_call") ? c.path("allocated_bytes_per_call").asDouble() / 1024 : Double.NaN;
    }

    /** The last profile of this kind ("cpu", "alloc"), or null. */
    static JsonNode profile(Report r, String kind) {
        JsonNode p = null;
        for (JsonNode n : lines(r, "profile")) {
            if (n.path("kind").asText().equals(kind)) {
                p = n;
            }
        }
        return p;
    }

    /** Every section, in order. */
    static void sections(StringBuilder sb, Report r) {
        perCall(sb, r);
        memory(sb, r);
        warmups(sb, r);
        warmupBlock(sb, r);
        profiles(sb, r);
    }

    private static String stat(Report r, List<JsonNode> cs, ToDoubleFunction<JsonNode> f) {
        return Report.rate(r.stat(cs, f));
    }

    static void perCall(StringBuilder sb, Report r) {
        sb.append("### Per-call cost: the gateway's CPU and heap allocation per call (block 2, 32 callers)\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String q : Workload.QUERY_NAMES) {
            List<JsonNode> cs = r.select("gateway", "main", q, "uniform", 32);
            if (cs.isEmpty()) {
                continue;
            }
            rows.add(List.of(q, stat(r, cs, c -> c.path("rps").asDouble()),
                    stat(r, cs, CostReport::cpuMicrosPerCall), stat(r, cs, CostReport::allocKiBPerCall),
                    stat(r, r.select("gateway", "main", q, "uniform", 1), CostReport::cpuMicrosPerCall)));
        }
        if (rows.isEmpty()) {
            sb.append("Not measured in this run (no gateway block).\n\n");
            return;
        }
        Report.table(sb, List.of("Query", "calls/s", "gateway CPU µs/call", "heap allocated KiB/call",
                "gateway CPU µs/call, one caller"), rows);
        sb.append("CPU: the gateway process's utime + stime over the cell, divided by the calls answered (its")
                .append(" background threads, the event-log writer among them, included). Allocation: the difference")
                .append(" of the gateway's `jvm.allocated.bytes` gauge (heap bytes allocated by every thread since the")
                .append(" start) read on the admin port just before and just after the cell, divided by the calls; one")
                .append(" metrics scrape (some KiB) is inside that difference.\n\n");
    }

    static void memory(StringBuilder sb, Report r) {
        sb.append("### Memory: the gateway under block 2's load\n\n");
        JsonNode env = r.env();
        if (env.has("gateway_jvm_options")) {
            List<String> opts = new ArrayList<>();
            env.path("gateway_jvm_options").forEach(o -> opts.add("`" + o.asText() + "`"));
            sb.append("QueryAPIGate's JVM options (every start, as `scripts/run.sh` gives them, from")
                    .append(" `config/jvm.options`").append(env.path("options").path("gateway_jvm_opts").asText()
                            .isBlank() ? "" : ", then `--gateway-jvm-opts`").append("): ")
                    .append(String.join(" ", opts)).append(".\n\n");
        }
        List<List<String>> rows = new ArrayList<>();
        for (String q : Workload.QUERY_NAMES) {
            List<JsonNode> cs = r.select("gateway", "main", q, "uniform", 32);
            if (cs.isEmpty() || !cs.get(0).has("gateway_rss_max_mib")) {
                continue;
            }
            rows.add(List.of(q, stat(r, cs, c -> c.path("gateway_rss_max_mib").asDouble()),
                    stat(r, cs, c -> c.path("gateway_rss_mib").asDouble()),
                    stat(r, cs, c -> jvm(c, "heap_used_mib")), stat(r, cs, c -> jvm(c, "heap_committed_mib")),
                    stat(r, cs, c -> jvm(c, "non_heap_committed_mib")),
                    stat(r, cs, c -> jvm(c, "metaspace_used_mib")), stat(r, cs, c -> jvm(c, "code_cache_used_mib")),
                    stat(r, cs, c -> c.path("gateway_rss_mib").asDouble() - jvm(c, "heap_committed_mib")
                            - jvm(c, "non_heap_committed_mib")),
                    stat(r, cs, c -> c.path("jvm").path("threads").asDouble(Double.NaN))));
        }
        if (rows.isEmpty()) {
            sb.append("Not measured in this run (no gateway block, or a run before the memory readings).\n\n");
            return;
        }
        Map<Integer, Double> perRound = Targets.rssMaxPerRound(r);
        Report.table(sb, List.of("Query", "RSS, highest in the cell (MiB)", "RSS at the end", "heap used",
                "heap committed", "non-heap committed", "metaspace used", "code cache used",
                "RSS - heap - non-heap committed", "threads"), rows);
        sb.append("Highest RSS of block 2's gateway over all its cells, per round: ")
                .append(Report.rate(Report.Stat.of(new ArrayList<>(perRound.values())))).append(" MiB. RSS is")
                .append(" `VmRSS`, sampled every 100 ms during each cell; the JVM's figures (MiB) are Dropwizard's")
                .append(" `jvm.memory.*` gauges (`/metrics/json` on the admin port) at the end of the cell.")
                .append(" \"RSS - heap - non-heap committed\" is what the JVM's pools don't account for: thread")
                .append(" stacks, the collector's and the JIT's own memory, malloc'ed native memory (SQLite among it) and the")
                .append(" mapped libraries.\n\n");
    }

    private static double jvm(JsonNode c, String field) {
        return c.path("jvm").path(field).asDouble(Double.NaN);
    }

    static void warmups(StringBuilder sb, Report r) {
        sb.append("### Warm-up after each gateway start\n\n");
        List<JsonNode> ws = lines(r, "warmup");
        if (ws.isEmpty()) {
            sb.append("No QueryAPIGate was started in this run.\n\n");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode w : ws) {
            List<String> rates = new ArrayList<>();
            w.path("windows_rps").forEach(x -> rates.add(Report.num(x.asDouble())));
            rows.add(List.of(w.path("config").asText(), w.has("startup_s") ? ms1(w.path("startup_s").asDouble())
                    : "-", ms1(w.path("seconds").asDouble()), !w.has("stabilised") ? "- (fixed warm-up)"
                    : w.path("stabilised").asBoolean() ? "yes" : "**no** (stopped at " + w.path("max_s").asText()
                            + " s)", rates.isEmpty() ? "-" : String.join(", ", rates)));
        }
        Report.table(sb, List.of("Gateway", "start to /health (s)", "warm-up (s)", "stable", "calls/s per window"),
                rows);
        JsonNode op = r.env().path("options");
        if (op.has("stable_tolerance")) {
            sb.append(String.format(Locale.ROOT, "Each start is warmed with the mixed workload (its queries in turn,"
                    + " %d callers) in back-to-back windows of %d s, for at least %s s, until the last %d windows are"
                    + " within %.0f%% of each other (highest / lowest), or for at most %s s.%n%n", Runner.CALLERS,
                    op.path("stable_window_s").asInt(), op.path("start_warmup_s").asText(),
                    op.path("stable_windows").asInt(), op.path("stable_tolerance").asDouble() * 100,
                    op.path("start_warmup_max_s").asText()));
        }
    }

    private static String ms1(double s) {
        return String.format(Locale.ROOT, "%.1f", s);
    }

    static void warmupBlock(StringBuilder sb, Report r) {
        sb.append("### Warmup block: a fresh gateway on one core, customer at 32 callers from the first request\n\n");
        List<JsonNode> series = lines(r, "warmup_series");
        if (series.isEmpty()) {
            sb.append("Not run.\n\n");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode n : series) {
            rows.add(List.of(n.path("round").asText(), ms1(n.path("startup_s").asDouble()),
                    ms1(n.path("publish_s").asDouble()), n.has("t90_from_first_request_s")
                            ? ms1(n.path("t90_from_first_request_s").asDouble()) : "never",
                    n.has("t90_from_process_start_s") ? ms1(n.path("t90_from_process_start_s").asDouble()) : "never",
                    Report.num(n.path("warm_rps").asDouble()), Report.num(n.path("rps").asDouble()),
                    Report.num(n.path("gateway_rss_mib").asDouble())));
        }
        Report.table(sb, List.of("Round", "start to /health (s)", "harness set-up (s)",
                "first request to 90% (s)", "process start to 90% (s)", "warm calls/s", "calls/s over the block",
                "RSS at the end (MiB)"), rows);
        // the first round's series, second by second
        JsonNode first = series.get(0);
        List<String> points = new ArrayList<>();
        for (JsonNode w : first.path("windows")) {
            points.add(String.format(Locale.ROOT, "%.1f s: %s", w.path("end_s").asDouble(),
                    Report.num(w.path("rps").asDouble())));
        }
        sb.append("Round ").append(first.path("round").asText()).append(", calls/s in each second after the first")
                .append(" request (window end): ").append(String.join("; ", points)).append(".\n\n");
        sb.append("Started as `scripts/run.sh` starts it (the JVM options above), pinned to the gateway's CPU, and")
                .append(" loaded by wrk as soon as the harness has published the query and its key through the admin")
                .append(" API (\"harness set-up\", left out of the process-start figure: a deployed gateway has them")
                .append(" in its store). Warm = the median of the last quarter of the 1-s windows (at least 3); the time")
                .append(" to 90% is the end of the first window at 90% of that. Process start to 90% = start to")
                .append(" /health + first request to 90%. Requests are counted as wrk sends them, per wall-clock")
                .append(" second.\n\n");
    }

    static void profiles(StringBuilder sb, Report r) {
        sb.append("### Where the gateway's CPU and allocations go (async-profiler, customer, 32 callers)\n\n");
        JsonNode cpu = profile(r, "cpu"), alloc = profile(r, "alloc");
        if (cpu == null && alloc == null) {
            sb.append("No profile in this run (profiles are taken after the last round when the gateway block")
                    .append(" runs, unless --profile-seconds 0).\n\n");
            return;
        }
        Set<String> buckets = new LinkedHashSet<>();
        for (JsonNode p : new JsonNode[] {cpu, alloc}) {
            if (p != null) {
                p.path("buckets").fieldNames().forEachRemaining(buckets::add);
            }
        }
        List<List<String>> rows = new ArrayList<>();
        for (String b : buckets) {
            rows.add(List.of(b, share(cpu, b), share(alloc, b)));
        }
        Report.table(sb, List.of("Component", "CPU samples", "bytes allocated"), rows);
        for (JsonNode p : new JsonNode[] {cpu, alloc}) {
            if (p == null) {
                continue;
            }
            sb.append("**").append(p.path("kind").asText().equals("cpu") ? "CPU" : "Allocations").append("**: ")
                    .append(p.path("engine").asText()).append(", ").append(p.path("seconds").asText())
                    .append(" s under load (").append(Report.num(p.path("rps").asDouble())).append(" calls/s while")
                    .append(" profiled").append(unprofiled(r)).append("), ")
                    .append(String.format(Locale.ROOT, "%,d", p.path("total").asLong()))
                    .append(" ").append(p.path("unit").asText());
            if (p.path("kind").asText().equals("cpu")) {
                sb.append(String.format(Locale.ROOT, ", %.1f%% of them in the kernel",
                        p.path("kernel_leaf_share").asDouble() * 100));
            }
            sb.append("; `").append(p.path("html").asText()).append("` (flame graph) and `")
                    .append(p.path("collapsed").asText()).append("` in the results folder. Top frames (self, with the")
                    .append(" native and kernel code under them): ");
            List<String> top = new ArrayList<>();
            int i = 0;
            for (JsonNode t : p.path("top_self_frames")) {
                if (i++ >= 10) {
                    break;
                }
                top.add(String.format(Locale.ROOT, "`%s` %.1f%%", t.path("frame").asText(),
                        t.path("share").asDouble() * 100));
            }
            sb.append(String.join(", ", top)).append(".\n\n");
            if (p.path("agent_messages").size() > 0) {
                List<String> msgs = new ArrayList<>();
                p.path("agent_messages").forEach(m -> msgs.add(m.asText()));
                sb.append("async-profiler said: ").append(String.join(" / ", msgs)).append("\n\n");
            }
        }
        sb.append("Taken on block 2's gateway after the last round (so the agent can't touch a measured cell), by")
                .append(" loading async-profiler 4.2 into it through the JDK's dynamic attach. A sample of the")
                .append(" `qag-event-writer` thread counts as the event writer's; one of a thread without Java frames")
                .append(" as the JVM's (GC, JIT, other); any other goes to the leaf-most Java frame of a known package")
                .append(" (the JDK, native and kernel frames under it count with it: Jetty's socket writes are")
                .append(" Jetty's), else \"JDK and other\".\n\n");
    }

    /** Block 2's last customer cell at 32 callers, for the profiler's overhead. */
    private static String unprofiled(Report r) {
        List<JsonNode> cs = r.select("gateway", "main", "customer", "uniform", 32);
        return cs.isEmpty() ? "" : ", " + Report.num(cs.get(cs.size() - 1).path("rps").asDouble())
                + " in block 2's last customer cell";
    }

    private static String share(JsonNode p, String bucket) {
        if (p == null) {
            return "-";
        }
        JsonNode v = p.path("buckets").path(bucket);
        return v.isNumber() ? String.format(Locale.ROOT, "%.1f%%", v.asDouble() * 100) : "0";
    }
}
