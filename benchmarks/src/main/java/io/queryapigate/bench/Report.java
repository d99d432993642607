package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/** Markdown tables from results.jsonl: medians of the rounds with their min-max ranges. */
final class Report {
    static final String BEGIN = "<!-- BEGIN GENERATED TABLES (queryapigate-benchmarks report) -->";
    static final String END = "<!-- END GENERATED TABLES -->";

    private final List<JsonNode> lines = new ArrayList<>();
    private JsonNode env;
    private final List<JsonNode> cells = new ArrayList<>();
    private final List<JsonNode> counts = new ArrayList<>();
    private final List<JsonNode> blockCounts = new ArrayList<>();   // count lines of the postgres block
    private final List<JsonNode> blocks = new ArrayList<>();
    private final List<JsonNode> skipped = new ArrayList<>();
    private final List<JsonNode> errors = new ArrayList<>();
    private final List<JsonNode> notes = new ArrayList<>();
    private final List<JsonNode> servers = new ArrayList<>();
    private JsonNode end;
    private final String source;

    Report(Path jsonl) throws IOException {
        this.source = jsonl.toString();
        for (String l : Files.readAllLines(jsonl)) {
            if (l.isBlank()) {
                continue;
            }
            JsonNode n = Http.JSON.readTree(l);
            lines.add(n);
            switch (n.path("type").asText()) {
                case "env" -> env = n;
                case "cell" -> cells.add(n);
                case "count" -> (n.path("block").asText("counts").equals("counts") ? counts : blockCounts).add(n);
                case "block" -> blocks.add(n);
                case "skipped" -> skipped.add(n);
                case "error" -> errors.add(n);
                case "note" -> notes.add(n);
                case "server" -> servers.add(n);
                case "end" -> end = n;
                default -> { }
            }
        }
        if (env == null) {
            throw new IllegalStateException(jsonl + ": no env line (not a results.jsonl of this harness?)");
        }
    }

    /** Every line of the results file, in order (for the sections in other classes). */
    List<JsonNode> lines() {
        return lines;
    }

    JsonNode env() {
        return env;
    }

    // ---- statistics ------------------------------------------------------------------------------------------------

    /** Median with min-max over rounds. */
    record Stat(double median, double min, double max, int n) {
        static Stat of(List<Double> values) {
            double[] v = values.stream().filter(d -> d != null && !d.isNaN()).mapToDouble(Double::doubleValue)
                    .sorted().toArray();
            if (v.length == 0) {
                return new Stat(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            double med = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2.0;
            return new Stat(med, v[0], v[v.length - 1], v.length);
        }

        boolean ok() {
            return n > 0;
        }
    }

    List<JsonNode> select(String block, String config, String query, String dist, int callers) {
        return matching(cells, block, config, null, query, dist, callers);
    }

    /** The cells of a block, config, database ("mariadb", "postgres") and query at this many callers. */
    List<JsonNode> cellsOn(String block, String config, String db, String query, int callers) {
        return matching(cells, block, config, db, query, null, callers);
    }

    /** The count lines of a block other than counts (the postgres block's), by config, database and query. */
    List<JsonNode> countsOn(String block, String config, String db, String query) {
        return matching(blockCounts, block, config, db, query, null, -1);
    }

    /**
     * The lines of a block whose config (null: any), database (null: any; a line without one is MariaDB's), query,
     * distribution (null: any; a line without one is uniform) and callers (-1: any) are these.
     */
    private static List<JsonNode> matching(List<JsonNode> lines, String block, String config, String db,
            String query, String dist, int callers) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode c : lines) {
            if (c.path("block").asText().equals(block) && (config == null || c.path("config").asText().equals(config))
                    && (db == null || c.path("db").asText("mariadb").equals(db))
                    && c.path("query").asText().equals(query)
                    && (dist == null || c.path("dist").asText("uniform").equals(dist))
                    && (callers < 0 || c.path("callers").asInt() == callers)) {
                out.add(c);
            }
        }
        return out;
    }

    Stat stat(List<JsonNode> cs, ToDoubleFunction<JsonNode> f) {
        List<Double> v = new ArrayList<>();
        for (JsonNode c : cs) {
            v.add(f.applyAsDouble(c));
        }
        return Stat.of(v);
    }

    private static Map<Integer, JsonNode> byRound(List<JsonNode> cs) {
        Map<Integer, JsonNode> m = new TreeMap<>();
        for (JsonNode c : cs) {
            m.put(c.path("round").asInt(), c);
        }
        return m;
    }

    /** f(a, b) per round present in both (rounds interleave, so a round's cells were measured close together). */
    Stat paired(List<JsonNode> a, List<JsonNode> b, java.util.function.BiFunction<JsonNode, JsonNode, Double> f) {
        Map<Integer, JsonNode> ra = byRound(a), rb = byRound(b);
        List<Double> v = new ArrayList<>();
        ra.forEach((r, x) -> {
            JsonNode y = rb.get(r);
            if (y != null) {
                v.add(f.apply(x, y));
            }
        });
        return Stat.of(v);
    }

    static double cores(JsonNode c, String who) {
        JsonNode cpu = c.path("cpu_s");
        double wall = cpu.path("wall").asDouble(c.path("seconds").asDouble());
        return wall > 0 && cpu.has(who) ? cpu.path(who).asDouble() / wall : Double.NaN;
    }

    // ---- formatting --------------------------------------------------------------------------------------------------

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    static String rate(Stat s) {
        return !s.ok() ? "-" : s.n() == 1 ? num(s.median()) : num(s.median()) + " (" + num(s.min()) + "-" + num(s.max())
                + ")";
    }

    static String msr(Stat s) {
        return !s.ok() ? "-" : s.n() == 1 ? ms(s.median()) + " ms" : ms(s.median()) + " ms (" + ms(s.min()) + "-"
                + ms(s.max()) + ")";
    }

    static String ratio(Stat s) {
        return !s.ok() ? "-" : s.n() == 1 ? String.format(Locale.ROOT, "%.2f", s.median())
                : String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", s.median(), s.min(), s.max());
    }

    static String pct(Stat s) {
        return !s.ok() ? "-" : String.format(Locale.ROOT, "%.1f%%", s.median() * 100)
                + (s.n() == 1 ? "" : String.format(Locale.ROOT, " (%.1f-%.1f%%)", s.min() * 100, s.max() * 100));
    }

    static void table(StringBuilder sb, List<String> header, List<List<String>> rows) {
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.size(); i++) {
            sb.append(i == 0 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (List<String> r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        sb.append('\n');
    }

    String skipReason(String block) {
        for (JsonNode s : skipped) {
            if (s.path("block").asText().equals(block)) {
                return s.path("reason").asText();
            }
        }
        return null;
    }

    // ---- the report ---------------------------------------------------------------------------------------------------

    /** The tables alone (what docs/PERFORMANCE.md holds between its markers). */
    String tables() {
        StringBuilder sb = new StringBuilder();
        List<String> qs = Workload.QUERY_NAMES;
        sb.append("Produced by `").append(env.path("command").asText()).append("` (after `setup --warehouses ")
                .append(env.path("warehouses").asText()).append("`), ")
                .append(env.path("clock_start").asText()).append(" to ")
                .append(end == null ? "(unfinished)" : end.path("t").asText()).append(", from `")
                .append(Path.of(source).toString().replaceFirst("^.*?benchmarks/", "benchmarks/")).append("`.\n\n");
        Targets.table(sb, this);
        machine(sb);
        goals(sb, qs);
        direct(sb, qs);
        gateway(sb, qs);
        single(sb, qs);
        ratios(sb, qs);
        roundTrips(sb, qs);
        threads(sb);
        skew(sb);
        new NetworkReport(this).tables(sb);
        cpu(sb);
        python(sb, qs);
        new PostgresReport(this).tables(sb);
        CostReport.sections(sb, this);
        loads(sb);
        problems(sb);
        return sb.toString();
    }

    private void machine(StringBuilder sb) {
        sb.append("### The machine and the run\n\n");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("CPU", env.path("cpu_model").asText() + ", " + env.path("nproc").asText()));
        rows.add(List.of("Memory", env.path("memory").asText()));
        rows.add(List.of("Kernel", env.path("kernel").asText()));
        rows.add(List.of("JDK (gateway and harness)", env.path("jdk").asText()));
        if (env.has("gateway_jvm_options")) {
            rows.add(List.of("Gateway JVM options", "`" + String.join(" ", Http.JSON.convertValue(
                    env.path("gateway_jvm_options"), String[].class)) + "`"));
        }
        rows.add(List.of("MariaDB", env.path("mariadb").asText() + ", buffer pool "
                + env.path("mariadb_buffer_pool_mib").asText() + " MiB"));
        rows.add(List.of("Connector/J", env.path("connector_j").asText()));
        String pg = new PostgresReport(this).machine();
        if (pg != null) {
            rows.add(List.of("PostgreSQL (the postgres and network blocks)", pg));
        }
        rows.add(List.of("Load generator", env.path("wrk").asText()));
        if (env.has("python")) {
            rows.add(List.of("The Python original", env.path("python").asText()));
        }
        rows.add(List.of("Commit", "`" + env.path("git_commit").asText() + "` (+"
                + env.path("git_uncommitted_paths").asText() + " uncommitted paths in the work tree)"));
        rows.add(List.of("Gateway jar", "sha256 `" + env.path("gateway_jar_sha256").asText().substring(0, 16)
                + "...`, built " + env.path("gateway_jar_mtime").asText()));
        StringBuilder place = new StringBuilder();
        env.path("placement").fields().forEachRemaining(e -> place.append(place.isEmpty() ? "" : "; ")
                .append(e.getKey()).append(": CPU ").append(e.getValue().asText()));
        rows.add(List.of("Placement (taskset)", place.toString()));
        JsonNode t = env.path("tables");
        rows.add(List.of("Data", env.path("warehouses").asText() + " warehouses, " + String.format(Locale.ROOT, "%,d",
                env.path("customers").asLong()) + " customers, " + String.format(Locale.ROOT, "%,d",
                t.path("orders.order_line").path("rows").asLong()) + " order lines, "
                + String.format(Locale.ROOT, "%.0f MiB", t.path("total_bytes").asDouble() / 1048576) + " in InnoDB"));
        JsonNode op = env.path("options");
        rows.add(List.of("Method", op.path("rounds").asText() + " interleaved rounds; " + op.path("duration_s").asText()
                + " s per throughput cell and " + op.path("single_duration_s").asText() + " s per single-caller cell, each after "
                + op.path("warmup_s").asText() + " s of warm-up; " + (op.has("stable_tolerance") ? "at least "
                + op.path("start_warmup_s").asText() + " s of warm-up after each gateway start, then until stable"
                + " (at most " + op.path("start_warmup_max_s").asText() + " s)" : op.path("start_warmup_s").asText()
                + " s of warm-up after each gateway start") + "; " + op.path("callers").asText()
                + " callers, closed loop; QueryAPIGate pool size " + op.path("pool_size").asText()));
        rows.add(List.of("Load average at the start", loadavg(env.path("loadavg"))
                + (end == null ? "" : "; at the end " + loadavg(end.path("loadavg")))));
        rows.add(List.of("Duration", end == null ? "unfinished" : String.format(Locale.ROOT, "%.1f min",
                end.path("seconds").asDouble() / 60)));
        table(sb, List.of("", ""), rows);
    }

    private static String loadavg(JsonNode a) {
        if (!a.isArray()) {
            return "?";
        }
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f", a.get(0).asDouble(), a.get(1).asDouble(),
                a.get(2).asDouble());
    }

    private void goals(StringBuilder sb, List<String> qs) {
        sb.append("### Goals (reported, not asserted)\n\n");
        List<List<String>> rows = new ArrayList<>();
        Stat cust = paired(select("gateway", "main", "customer", "uniform", 32), select("direct", "jdbc", "customer",
                null, 32), (g, d) -> g.path("rps").asDouble() / d.path("rps").asDouble());
        rows.add(List.of("gateway/direct >= 0.5 for customer at 32 callers", ratio(cust), verdict(cust, v -> v >= 0.5)));
        for (String q : qs) {
            Stat added = addedMs(q);
            rows.add(List.of("what the gateway adds to one call <= 0.15 ms at p50: " + q, msr(added),
                    verdict(added, v -> v <= 0.15)));
        }
        Stat rt = Stat.of(counts.stream().filter(c -> c.has("wire_commands_per_call")
                && !c.path("config").asText().equals("jdbc")).map(c -> c.path("wire_commands_per_call").asDouble())
                .toList());
        rows.add(List.of("2 round trips per MariaDB read (wire count, all six queries)", rt.ok()
                ? String.format(Locale.ROOT, "%.2f-%.2f", rt.min(), rt.max()) : "-",
                verdict(rt, v -> Math.abs(v - 2.0) < 0.05, true)));
        rows.add(new PostgresReport(this).goal());
        for (String q : qs) {
            Stat x = perCoreRatio(q);
            rows.add(List.of(">= 10x the Python original's throughput per core: " + q, x.ok() ? ratio(x) + "x" : pyWhy(),
                    verdict(x, v -> v >= 10)));
        }
        table(sb, List.of("Goal", "Measured (median, min-max of the rounds)", "Met"), rows);
    }

    private String pyWhy() {
        String r = skipReason("python");
        return r == null ? "-" : "not measured: " + r;
    }

    interface Check {
        boolean test(double v);
    }

    static String verdict(Stat s, Check c) {
        return verdict(s, c, false);
    }

    /** yes when the median passes (with all: when every value passes); "range straddles" when only part does. */
    static String verdict(Stat s, Check c, boolean all) {
        if (!s.ok()) {
            return "-";
        }
        boolean med = c.test(s.median()), lo = c.test(s.min()), hi = c.test(s.max());
        if (all) {
            return lo && hi ? "yes" : "no";
        }
        if (med && lo && hi) {
            return "yes";
        }
        if (!med && !lo && !hi) {
            return "no";
        }
        return med ? "yes (the range crosses the line)" : "no (the range crosses the line)";
    }

    Stat addedMs(String q) {
        return paired(select("gateway", "main", q, "uniform", 1), select("direct", "jdbc", q, null, 1),
                (g, d) -> g.path("p50_ms").asDouble() - d.path("p50_ms").asDouble());
    }

    private void direct(StringBuilder sb, List<String> qs) {
        sb.append("### 1. MariaDB directly (JDBC, autocommit, the same SQL and parameters)\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String q : qs) {
            List<JsonNode> one = select("direct", "jdbc", q, null, 1), many = select("direct", "jdbc", q, null, 32);
            rows.add(List.of(q, rate(stat(one, c -> c.path("rps").asDouble())),
                    msr(stat(one, c -> c.path("p50_ms").asDouble())), rate(stat(many, c -> c.path("rps").asDouble())),
                    msr(stat(many, c -> c.path("p50_ms").asDouble())),
                    num(stat(many, c -> cores(c, "db")).median())));
        }
        table(sb, List.of("Query", "1 thread: calls/s", "1 thread: p50", "32 threads: calls/s", "32 threads: p50",
                "MariaDB cores (32)"), rows);
    }

    private void gateway(StringBuilder sb, List<String> qs) {
        sb.append("### 2. Through QueryAPIGate (HTTP, X-API-Key, JSON), 32 callers, closed loop\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String q : qs) {
            List<JsonNode> cs = select("gateway", "main", q, "uniform", 32);
            rows.add(List.of(q, rate(stat(cs, c -> c.path("rps").asDouble())),
                    msr(stat(cs, c -> c.path("p50_ms").asDouble())), msr(stat(cs, c -> c.path("p99_ms").asDouble())),
                    num(stat(cs, c -> cores(c, "gateway")).median()),
                    rate(stat(cs, CostReport::cpuMicrosPerCall)),
                    num(stat(cs, c -> cores(c, "db")).median()),
                    num(stat(cs, c -> c.path("questions_per_call").asDouble()).median())));
        }
        table(sb, List.of("Query", "calls/s", "p50", "p99", "gateway cores", "gateway CPU µs/call", "MariaDB cores",
                "MariaDB statements/call (global Questions)"), rows);
    }

    private void single(StringBuilder sb, List<String> qs) {
        sb.append("### 2b. One caller at a time: what the gateway adds\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String q : qs) {
            List<JsonNode> g = select("gateway", "main", q, "uniform", 1), d = select("direct", "jdbc", q, null, 1);
            rows.add(List.of(q, msr(stat(d, c -> c.path("p50_ms").asDouble())),
                    msr(stat(g, c -> c.path("p50_ms").asDouble())), msr(stat(g, c -> c.path("p99_ms").asDouble())),
                    msr(stat(g, c -> c.path("p999_ms").asDouble())), rate(stat(g, c -> c.path("rps").asDouble())),
                    msr(addedMs(q))));
        }
        table(sb, List.of("Query", "MariaDB directly p50", "QueryAPIGate p50", "p99", "p99.9", "calls/s",
                "the gateway adds (p50, per round)"), rows);
    }

    private void ratios(StringBuilder sb, List<String> qs) {
        sb.append("### 3. Gateway/direct at 32 callers\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String q : qs) {
            List<JsonNode> g = select("gateway", "main", q, "uniform", 32), d = select("direct", "jdbc", q, null, 32);
            rows.add(List.of(q, rate(stat(d, c -> c.path("rps").asDouble())), rate(stat(g, c -> c.path("rps").asDouble())),
                    pct(paired(g, d, (x, y) -> x.path("rps").asDouble() / y.path("rps").asDouble()))));
        }
        table(sb, List.of("Query", "MariaDB directly, 32 threads", "QueryAPIGate, 32 callers",
                "gateway/direct (per round)"), rows);
    }

    private JsonNode count(String config, String query) {
        for (JsonNode c : counts) {
            if (c.path("config").asText().equals(config) && c.path("query").asText().equals(query)) {
                return c;
            }
        }
        return null;
    }

    private static String v(JsonNode c, String field) {
        return c == null || !c.has(field) ? "-" : num(c.path(field).asDouble());
    }

    private void roundTrips(StringBuilder sb, List<String> qs) {
        sb.append("### 4. Round trips, statements and store reads per call\n\n");
        if (counts.isEmpty()) {
            sb.append("Not measured in this run.\n\n");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        String pyConfig = counts.stream().map(c -> c.path("config").asText()).filter(c -> c.startsWith("py-"))
                .findFirst().orElse("py-image-8t");
        for (String q : qs) {
            JsonNode wire = count("ttl0-wire", q), main = count("main", q), jdbc = count("jdbc", q),
                    py = count(pyConfig, q);
            StringBuilder kinds = new StringBuilder();
            if (wire != null && wire.has("wire_commands")) {
                double calls = wire.path("calls").asDouble();
                wire.path("wire_commands").fields().forEachRemaining(e -> kinds.append(kinds.isEmpty() ? "" : ", ")
                        .append(e.getKey()).append(" ").append(num(e.getValue().asDouble() / calls)));
            }
            rows.add(List.of(q, v(wire, "wire_commands_per_call"), kinds.toString(),
                    v(main, "questions_per_call"), v(wire, "questions_per_call"), v(jdbc, "questions_per_call"),
                    v(jdbc, "wire_commands_per_call"), v(py, "questions_per_call"), v(wire, "store_reads_per_call"),
                    v(main, "store_reads_per_call")));
        }
        table(sb, List.of("Query", "QueryAPIGate: round trips/call (wire)", "what they are, per call",
                "statements/call (cache 5s)", "statements/call (cache 0s)", "MariaDB directly: statements/call",
                "directly: round trips/call (wire)", "Python 0.43.0: statements/call", "store reads/call, metadataCache.ttl 0s",
                "store reads/call, 5s"), rows);
        long others = counts.stream().mapToLong(c -> c.path("other_connections").asLong(0)).max().orElse(0);
        sb.append("Counted over ").append(counts.get(0).path("calls").asText())
                .append(" sequential calls per query after 20 unmeasured ones. Statements are MariaDB's global")
                .append(" `Questions` delta (minus the counter's own `SHOW GLOBAL STATUS`) divided by the calls: the")
                .append(" server is shared, so anything else running at the time is counted too (at most ")
                .append(others).append(" other non-idle connection(s) were seen at the end of a count). The wire")
                .append(" count is exact: a loopback proxy in front of MariaDB parses the client's packets and counts")
                .append(" commands (a packet with sequence id 0), each of which waits for an answer. Store reads are")
                .append(" the gateway's own `store.reads` counter on its admin port.\n\n");
    }

    private void threads(StringBuilder sb) {
        sb.append("### 5. Server threads: platform thread pools vs virtual threads (32 callers)\n\n");
        List<List<String>> rows = new ArrayList<>();
        TreeMap<Integer, String> pools = new TreeMap<>();
        for (JsonNode c : cells) {
            if (c.path("block").asText().equals("threads")) {
                String cfg = c.path("config").asText();
                pools.put(Integer.parseInt(cfg.substring(cfg.indexOf('-') + 1)), cfg);
            }
        }
        if (pools.isEmpty()) {
            sb.append("Not measured in this run.\n\n");
            return;
        }
        for (var e : pools.entrySet()) {
            List<JsonNode> cu = select("threads", e.getValue(), "customer", "uniform", 32),
                    st = select("threads", e.getValue(), "stock_level", "uniform", 32);
            rows.add(List.of(e.getKey() + " (platform; maxThreads " + (e.getKey() + 3) + ")",
                    rate(stat(cu, c -> c.path("rps").asDouble())), rate(stat(st, c -> c.path("rps").asDouble())),
                    num(stat(cu, c -> c.path("max_active_requests").asDouble()).max()) + " / "
                            + num(stat(st, c -> c.path("max_active_requests").asDouble()).max())));
        }
        rows.add(List.of("virtual threads (block 2's gateway)",
                rate(stat(select("gateway", "main", "customer", "uniform", 32), c -> c.path("rps").asDouble())),
                rate(stat(select("gateway", "main", "stock_level", "uniform", 32), c -> c.path("rps").asDouble())),
                "-"));
        table(sb, List.of("Request threads", "customer calls/s", "stock_level calls/s",
                "most requests in flight seen (customer / stock_level)"), rows);
        sb.append("Platform rows: `server.enableVirtualThreads: false`, one acceptor and one selector thread, and")
                .append(" `maxThreads` = `minThreads` = N + 3 (Jetty counts the acceptor, the selector and one reserved")
                .append(" thread against the pool and refuses to start unless another thread is left; Dropwizard")
                .append(" refuses `maxThreads` below 4). The last column samples Dropwizard's `active-requests` counter")
                .append(" 10 times a second: it can exceed N by one, because Jetty's selector thread may run a request")
                .append(" itself (execute-produce-consume) while another pooled thread takes over selecting.\n\n");
    }

    private void skew(StringBuilder sb) {
        sb.append("### 6. Skew: Zipf vs uniform customers, with and without `cache_ttl: 30` (order_status)\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String dist : List.of("uniform", "zipf")) {
            List<JsonNode> plain = select("skew", "main", "order_status", dist, 32);
            if (!plain.isEmpty()) {
                rows.add(skewRow(dist, "order_status", plain, false));
            }
            List<JsonNode> cached = select("skew", "main", Workload.cached(dist), dist, 32);
            if (!cached.isEmpty()) {
                rows.add(skewRow(dist, "order_status, `cache_ttl: 30` (cache empty at the start)", cached, true));
            }
        }
        if (rows.isEmpty()) {
            sb.append("Not measured in this run.\n\n");
            return;
        }
        table(sb, List.of("Customers", "Query", "calls/s", "p50", "cache hits", "MariaDB statements/call"), rows);
        String reason = skipReason("skew-cached");
        if (reason != null) {
            sb.append("**With `cache_ttl: 30`: ").append(reason).append(".** The rows with the cache are missing")
                    .append(" for that reason; the harness checks for an `X-Cache: HIT` on a repeated call and runs")
                    .append(" them as soon as a build has it.\n\n");
        }
    }

    private List<String> skewRow(String dist, String query, List<JsonNode> cs, boolean cached) {
        Stat hits = stat(cs, c -> c.path("cache_hits").asDouble() / Math.max(1, c.path("requests").asDouble()));
        return List.of(dist, query, rate(stat(cs, c -> c.path("rps").asDouble())),
                msr(stat(cs, c -> c.path("p50_ms").asDouble())), cached ? pct(hits) : "-",
                num(stat(cs, c -> c.path("questions_per_call").asDouble()).median()));
    }

    private void cpu(StringBuilder sb) {
        sb.append("### 8. CPU seconds per block, and the gateway's memory\n\n");
        Map<String, double[]> agg = new LinkedHashMap<>();   // cells, wall, gateway, db, load, rss max, pg
        for (JsonNode c : cells) {
            String key = c.path("block").asText() + (c.path("block").asText().equals("python") ? " ("
                    + c.path("config").asText() + ")" : "");
            double[] a = agg.computeIfAbsent(key, k -> new double[7]);
            JsonNode cpu = c.path("cpu_s");
            a[0]++;
            a[1] += cpu.path("wall").asDouble();
            a[2] += cpu.path("gateway").asDouble(0);
            a[3] += cpu.path("db").asDouble();
            a[4] += cpu.path("load").asDouble();
            a[5] = Math.max(a[5], c.path("gateway_rss_mib").asDouble(0));
            a[6] += cpu.path("pg").asDouble(0);
        }
        List<List<String>> rows = new ArrayList<>();
        agg.forEach((k, a) -> rows.add(List.of(k, Integer.toString((int) a[0]), num(a[1]), a[2] == 0 ? "-" : num(a[2]) + " ("
                + num(a[2] / a[1]) + " cores)", num(a[3]) + " (" + num(a[3] / a[1]) + ")", num(a[4]) + " ("
                + num(a[4] / a[1]) + ")", a[6] == 0 ? "-" : num(a[6]) + " (" + num(a[6] / a[1]) + ")",
                a[5] == 0 ? "-" : num(a[5]))));
        table(sb, List.of("Block", "measured cells", "measured s", "gateway CPU s", "MariaDB CPU s",
                "load generator CPU s", "PostgreSQL CPU s", "gateway RSS, max MiB"), rows);
        sb.append("Over the measured periods only (warm-ups excluded), all rounds together, from `/proc/<pid>/stat`")
                .append(" (utime + stime). The load generator is wrk (its shell's `cutime`), or the harness's own JVM")
                .append(" for the JDBC client's cells. PostgreSQL's is the sum over the benchmark database's backends.")
                .append(" RSS is `VmRSS` of the gateway's process tree at the end of each cell.\n\n");
    }

    private void python(StringBuilder sb, List<String> qs) {
        sb.append("### 9. The Python original (0.43.0) side by side, 32 callers\n\n");
        String reason = skipReason("python");
        if (reason != null) {
            sb.append("**Not measured: ").append(reason).append("**\n\n");
            return;
        }
        List<List<String>> rows = new ArrayList<>();
        for (String q : qs) {
            List<JsonNode> j = select("gateway", "main", q, "uniform", 32);
            List<String> row = new ArrayList<>();
            row.add(q);
            row.add(rate(stat(j, c -> c.path("rps").asDouble())) + " @ " + num(stat(j, c -> cores(c, "gateway")).median()));
            for (String cfg : List.of("py-image-8t", "py-cache-2t", "py-cache-1t")) {
                List<JsonNode> p = select("python", cfg, q, "uniform", 32);
                row.add(p.isEmpty() ? "-" : rate(stat(p, c -> c.path("rps").asDouble())) + " @ "
                        + num(stat(p, c -> cores(c, "gateway")).median()));
            }
            row.add(ratio(perCoreRatio(q)) + "x");
            row.add(ratio(rawRatio(q)) + "x");
            rows.add(row);
        }
        table(sb, List.of("Query", "QueryAPIGate calls/s @ cores", "Python: image (8 threads)",
                "Python: metadata cache, 2 threads", "Python: metadata cache, 1 thread",
                "Java/Python per core (best Python)", "Java/Python calls/s (best Python)"), rows);
        sb.append("Per core = calls/s divided by the gateway's CPU cores used in the same cell (both are pinned to")
                .append(" one CPU, so neither can use more than 1). \"Best Python\" is, per round, whichever Python")
                .append(" configuration served that query fastest per core. The Python original runs as its image")
                .append(" does: `gunicorn -c python:queryapigate.gunicorn_conf --workers 1 --worker-class gthread`,")
                .append(" `QUERYAPIGATE_THREADS` threads, the access log on; its store is SQLite in a fresh home;")
                .append(" connection, key and queries were created through its `/api/v1`.\n\n");
    }

    Stat perCoreRatio(String q) {
        return pyRatio(q, true);
    }

    private Stat rawRatio(String q) {
        return pyRatio(q, false);
    }

    private Stat pyRatio(String q, boolean perCore) {
        Map<Integer, JsonNode> java = byRound(select("gateway", "main", q, "uniform", 32));
        List<Double> v = new ArrayList<>();
        java.forEach((r, j) -> {
            double jv = perCore ? j.path("rps").asDouble() / Math.max(0.05, cores(j, "gateway"))
                    : j.path("rps").asDouble();
            double best = Double.NaN;
            for (String cfg : List.of("py-image-8t", "py-cache-2t", "py-cache-1t")) {
                JsonNode p = byRound(select("python", cfg, q, "uniform", 32)).get(r);
                if (p != null) {
                    double pv = perCore ? p.path("rps").asDouble() / Math.max(0.05, cores(p, "gateway"))
                            : p.path("rps").asDouble();
                    best = Double.isNaN(best) ? pv : Math.max(best, pv);
                }
            }
            if (!Double.isNaN(best) && best > 0) {
                v.add(jv / best);
            }
        });
        return Stat.of(v);
    }

    private void loads(StringBuilder sb) {
        sb.append("### Load average at the start of each block\n\n");
        Map<String, List<String>> byBlock = new LinkedHashMap<>();
        for (JsonNode b : blocks) {
            byBlock.computeIfAbsent(b.path("block").asText(), k -> new ArrayList<>())
                    .add(String.format(Locale.ROOT, "%.1f", b.path("loadavg").get(0).asDouble()));
        }
        List<List<String>> rows = new ArrayList<>();
        byBlock.forEach((k, l) -> rows.add(List.of(k, String.join(", ", l))));
        table(sb, List.of("Block", "1-minute load average at its start, round by round"), rows);
        sb.append("The machine has 2 CPUs and was shared with other engineers' builds and test suites during the run.")
                .append(" The load average counts this harness too (it is a 1-minute average, so a block's starting value")
                .append(" still holds the block before it: after the direct block's 32 threads it is high by itself); a")
                .append(" value well above 2 where the harness ran one gateway and wrk means other work wanted the CPUs.\n\n");
    }

    private void problems(StringBuilder sb) {
        if (errors.isEmpty() && skipped.isEmpty()) {
            sb.append("No failures: every measured request answered 2xx.\n");
            return;
        }
        sb.append("### Failures and skipped blocks\n\n");
        for (JsonNode s : skipped) {
            sb.append("- skipped `").append(s.path("block").asText()).append("`: ").append(s.path("reason").asText())
                    .append('\n');
        }
        for (JsonNode e : errors) {
            sb.append("- error in `").append(e.path("block").asText()).append("` round ").append(e.path("round").asText())
                    .append(", ").append(e.path("config").asText()).append(e.has("query") ? " " + e.path("query")
                            .asText() : "").append(": ").append(e.path("message").asText().replace('\n', ' '))
                    .append('\n');
        }
        sb.append('\n');
    }

    // ---- for the tables kept in classes of their own (PostgresReport, NetworkReport) ---------------------------------

    List<JsonNode> notes() {
        return notes;
    }

    /** The stand-alone report for a results directory. */
    String document() {
        return "# QueryAPIGate benchmark report\n\n" + HOW_TO_READ + "\n" + tables();
    }

    static final String HOW_TO_READ = """
            How to read this: each cell is the median of the interleaved rounds (every block ran once per round, \
            round after round), with the min-max range of the rounds in brackets. A difference counts as real only \
            when two ranges don't overlap. Ratios and "the gateway adds" are computed per round (both sides measured \
            in the same round) and then summarised the same way. Throughput is closed-loop (each caller sends its \
            next request as soon as the last one is answered); latency is what the load generator saw, including \
            its own overhead.
            """;

    /** Replaces what is between the markers in docs/PERFORMANCE.md (the prose around them is kept). */
    static void updateDocs(Path docs, String tables) throws IOException {
        String text = Files.exists(docs) ? Files.readString(docs) : "";
        int a = text.indexOf(BEGIN), b = text.indexOf(END);
        String block = BEGIN + "\n\n" + tables.strip() + "\n\n" + END;
        String updated;
        if (a >= 0 && b > a) {
            updated = text.substring(0, a) + block + text.substring(b + END.length());
        } else {
            updated = text + (text.isEmpty() || text.endsWith("\n") ? "" : "\n") + "\n## Latest results\n\n" + block
                    + "\n";
        }
        Files.writeString(docs, updated);
    }

    static Path latest(Path resultsDir) throws IOException {
        try (var s = Files.list(resultsDir)) {
            return s.filter(p -> Files.exists(p.resolve("results.jsonl"))).max(java.util.Comparator.comparing(
                    p -> p.getFileName().toString())).map(p -> p.resolve("results.jsonl"))
                    .orElseThrow(() -> new IllegalStateException("no results under " + resultsDir));
        }
    }
}
