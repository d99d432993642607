package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The targets of issue 14 (per-call cost), first among the generated tables: figure, target, this run (median and
 * min-max of the rounds), met. A figure the run has no data for says why instead of showing a number.
 */
final class Targets {
    private Targets() {}

    static void table(StringBuilder sb, Report r) {
        sb.append("### Targets (issue 14, per-call cost)\n\n");
        List<List<String>> rows = new ArrayList<>();

        List<JsonNode> cust = r.select("gateway", "main", "customer", "uniform", 32);
        Report.Stat cpu = r.stat(cust, CostReport::cpuMicrosPerCall);
        rows.add(row("Gateway CPU per call, customer (32 callers)", "<= 150 µs",
                cpu.ok() ? Report.rate(cpu) + " µs" : missing(r, "gateway"), Report.verdict(cpu, v -> v <= 150)));

        for (String q : Workload.QUERY_NAMES) {
            Report.Stat x = r.perCoreRatio(q);
            String why = r.skipReason("python");
            rows.add(row("Java/Python throughput per core: " + q, ">= 10x", x.ok() ? Report.ratio(x) + "x"
                    : why != null ? "not measured: " + why : missing(r, "gateway", "python"),
                    Report.verdict(x, v -> v >= 10)));
        }

        Report.Stat added = r.addedMs("customer");
        rows.add(row("What the gateway adds at p50, customer (one caller)", "<= 0.25 ms",
                added.ok() ? Report.msr(added) : missing(r, "direct", "gateway"),
                Report.verdict(added, v -> v <= 0.25)));

        for (String[] q : new String[][] {{"customer", "0.4"}, {"stock_level", "0.9"}}) {
            double min = Double.parseDouble(q[1]);
            Report.Stat x = r.paired(r.select("gateway", "main", q[0], "uniform", 32),
                    r.select("direct", "jdbc", q[0], null, 32),
                    (g, d) -> g.path("rps").asDouble() / d.path("rps").asDouble());
            rows.add(row("Gateway/direct at 32 callers: " + q[0], ">= " + q[1],
                    x.ok() ? Report.ratio(x) : missing(r, "direct", "gateway"), Report.verdict(x, v -> v >= min)));
        }

        Report.Stat rss = Report.Stat.of(new ArrayList<>(rssMaxPerRound(r).values()));
        rows.add(row("Gateway RSS under block-2 load (highest of each round)", "<= 256 MiB",
                rss.ok() ? Report.rate(rss) + " MiB" : missing(r, "gateway"), Report.verdict(rss, v -> v <= 256)));

        JsonNode cpuProfile = CostReport.profile(r, "cpu");
        Report.Stat writer = cpuProfile == null ? Report.Stat.of(List.of())
                : Report.Stat.of(List.of(cpuProfile.path("buckets").path(Stacks.EVENT_WRITER).asDouble(0)));
        rows.add(row("Event-log writer's share of the gateway's CPU (profile)", "<= 5%", cpuProfile == null
                ? "not measured: no CPU profile in this run (it needs the gateway block and --profile-seconds > 0)"
                : Report.pct(writer) + " (" + cpuProfile.path("engine").asText().replaceFirst(" \\(.*", "") + ", "
                        + String.format(Locale.ROOT, "%,d", cpuProfile.path("total").asLong()) + " samples)",
                Report.verdict(writer, v -> v <= 0.05)));

        Report.Stat critical = new NetworkReport(r).criticalPathTrips("customer");
        rows.add(row("MariaDB round trips per read: critical path / all", "1 / 2", roundTrips(r, critical),
                Report.verdict(critical, v -> v < 1.5)));
        PostgresReport pg = new PostgresReport(r);
        Report.Stat pgTrips = pg.gatewayRoundTrips();
        rows.add(row("PostgreSQL round trips per read (wire count, all six queries)", "1",
                pgTrips.ok() ? PostgresReport.range(pgTrips) + " (postgres block)" : pg.missing(),
                pgTrips.ok() ? PostgresReport.verdict(pgTrips) : "-"));

        Report.Stat alloc = r.stat(cust, c -> c.has("allocated_bytes_per_call")
                ? c.path("allocated_bytes_per_call").asDouble() / 1024 : Double.NaN);
        rows.add(row("Heap allocated per call, customer (32 callers)", "none set (reported)",
                alloc.ok() ? Report.rate(alloc) + " KiB" : cust.isEmpty() ? missing(r, "gateway")
                        : "not measured: this run's cells have no jvm.allocated.bytes readings", "-"));

        List<JsonNode> series = CostReport.lines(r, "warmup_series");
        Report.Stat fromStart = Report.Stat.of(series.stream().map(n -> n.path("t90_from_process_start_s")
                .asDouble(Double.NaN)).toList());
        Report.Stat fromFirst = Report.Stat.of(series.stream().map(n -> n.path("t90_from_first_request_s")
                .asDouble(Double.NaN)).toList());
        rows.add(row("Time to 90% of warm throughput on one core, from the process start (startup included)",
                "<= 10 s", t90(series, fromStart), Report.verdict(fromStart, v -> v <= 10)));
        rows.add(row("Time to 90% of warm throughput on one core, from the first request", "<= 10 s",
                t90(series, fromFirst), Report.verdict(fromFirst, v -> v <= 10)));

        Report.table(sb, List.of("Figure", "Target", "This run (median, min-max of the rounds)", "Met"), rows);
        sb.append("Gateway figures are block 2's (`main`, virtual threads, the JVM options of `scripts/run.sh`:")
                .append(" see \"Per-call cost\" and \"Memory\" below); the warm-up times are the warmup block's, a")
                .append(" fresh gateway per round.\n\n");
    }

    private static List<String> row(String figure, String target, String value, String met) {
        return List.of(figure, target, value, met);
    }

    /** Why a figure is missing: the blocks it needs that this run did not include, or that they gave no data. */
    static String missing(Report r, String... blocks) {
        List<String> run = new ArrayList<>();
        r.env().path("options").path("blocks").forEach(b -> run.add(b.asText()));
        List<String> absent = new ArrayList<>();
        for (String b : blocks) {
            if (!run.contains(b)) {
                absent.add(b);
            }
        }
        if (absent.isEmpty()) {
            return "not measured: no data from the " + String.join(" and ", blocks) + " block(s) in this run";
        }
        return "not measured: the " + String.join(" and ", absent) + " block" + (absent.size() > 1 ? "s were" : " was")
                + " not run";
    }

    private static String t90(List<JsonNode> series, Report.Stat s) {
        if (series.isEmpty()) {
            return "not measured: no warmup block in this run";
        }
        String v = s.ok() ? Report.rate(s) + " s" : "-";
        long never = series.size() - s.n();
        return never == 0 ? v : v + " (" + never + " of " + series.size() + " rounds never reached 90%)";
    }

    /** Per round, the highest RSS block 2's gateway reached in any of its cells (sampled, else end of cell). */
    static Map<Integer, Double> rssMaxPerRound(Report r) {
        Map<Integer, Double> m = new TreeMap<>();
        for (JsonNode c : CostReport.lines(r, "cell")) {
            if (c.path("block").asText().equals("gateway") && c.path("config").asText().equals("main")) {
                double v = c.path("gateway_rss_max_mib").asDouble(c.path("gateway_rss_mib").asDouble(Double.NaN));
                if (!Double.isNaN(v)) {
                    m.merge(c.path("round").asInt(), v, Math::max);
                }
            }
        }
        return m;
    }

    private static String roundTrips(Report r, Report.Stat critical) {
        List<Double> v = new ArrayList<>();
        for (JsonNode c : CostReport.lines(r, "count")) {
            if (c.has("wire_commands_per_call") && !c.path("config").asText().equals("jdbc")
                    && !c.path("config").asText().startsWith("py-")) {
                v.add(c.path("wire_commands_per_call").asDouble());
            }
        }
        String path = critical.ok()
                ? "critical path: " + Report.num(critical.median()) + " (" + Report.num(critical.min()) + "-"
                        + Report.num(critical.max()) + "), what the delayed link adds to customer through the gateway"
                        + " over what it adds to the JDBC client's one round trip (network block)"
                : "critical path: not measured (it needs the network, direct and gateway blocks)";
        if (v.isEmpty()) {
            return path + "; all: not measured (no counts block in this run)";
        }
        Report.Stat s = Report.Stat.of(v);
        String all = s.min() == s.max() ? Report.num(s.min()) : Report.num(s.min()) + "-" + Report.num(s.max());
        return path + "; all: " + all + " per call on the wire (every query, counts block)";
    }
}
