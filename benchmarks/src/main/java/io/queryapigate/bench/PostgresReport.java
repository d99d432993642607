package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The postgres block in the report: its section (10: pgjdbc directly against QueryAPIGate, per query, at 32 callers
 * and at one, and the round trips counted on the wire), the PostgreSQL line of the machine table, and the round trips
 * per read that the goals and the targets quote.
 */
final class PostgresReport {
    /** Within this of 1 is one round trip per read (the counts are averages over 1,000 calls, 100 in --smoke). */
    static final double ONE_TRIP = 0.005;

    private final Report r;

    PostgresReport(Report r) {
        this.r = r;
    }

    private List<JsonNode> cells(String config, String q, int callers) {
        return r.cellsOn("postgres", config, "postgres", q, callers);
    }

    private JsonNode count(String config, String q) {
        List<JsonNode> c = r.countsOn("postgres", config, "postgres", q);
        return c.isEmpty() ? null : c.get(0);
    }

    /** QueryAPIGate's round trips per call to PostgreSQL, one value per query (the wire count). */
    Report.Stat gatewayRoundTrips() {
        List<Double> v = new ArrayList<>();
        for (String q : Workload.QUERY_NAMES) {
            JsonNode c = count("pg", q);
            if (c != null && c.has("round_trips_per_call")) {
                v.add(c.path("round_trips_per_call").asDouble());
            }
        }
        return Report.Stat.of(v);
    }

    /** Why there is no round-trip figure: the block was skipped, not run, or gave no counts. */
    String missing() {
        String why = r.skipReason("postgres");
        return why != null ? "not measured: " + why : Targets.missing(r, "postgres");
    }

    /** The least and the most of the six queries, e.g. "1.00-1.00". */
    static String range(Report.Stat s) {
        return String.format(Locale.ROOT, "%.2f-%.2f", s.min(), s.max());
    }

    /** The goal's row: one round trip per PostgreSQL read through the gateway, for all six queries. */
    List<String> goal() {
        String goal = "1 round trip per PostgreSQL read (wire count, all six queries)";
        Report.Stat s = gatewayRoundTrips();
        if (!s.ok()) {
            return List.of(goal, missing(), "-");
        }
        return List.of(goal, range(s), verdict(s));
    }

    static String verdict(Report.Stat s) {
        return Report.verdict(s, x -> Math.abs(x - 1.0) < ONE_TRIP, true);
    }

    /** The machine table's PostgreSQL row, or null when the run did not describe one. */
    String machine() {
        JsonNode p = r.env().path("postgres");
        if (p.isMissingNode()) {
            return null;
        }
        if (p.has("problem")) {
            return "not measured: " + p.path("problem").asText();
        }
        JsonNode sv = p.path("server");
        return "PostgreSQL " + sv.path("server_version").asText() + ", shared_buffers "
                + sv.path("shared_buffers").asText() + ", jit " + sv.path("jit").asText() + "; pgjdbc "
                + sv.path("pgjdbc").asText() + "; database `" + p.path("database").asText() + "` as `"
                + p.path("reader_role").asText() + "`";
    }

    void tables(StringBuilder sb) {
        sb.append("### 10. PostgreSQL: the same six queries, directly over pgjdbc and through QueryAPIGate\n\n");
        String reason = r.skipReason("postgres");
        if (reason != null) {
            sb.append("**Skipped: ").append(reason).append(".**\n\n");
            return;
        }
        List<List<String>> many = throughput();
        List<List<String>> one = single();
        List<List<String>> trips = new ArrayList<>();
        String tripNotes = roundTrips(trips);
        if (many.isEmpty() && one.isEmpty() && trips.isEmpty()) {
            sb.append("Not measured in this run.\n\n");
            return;
        }
        if (!many.isEmpty()) {
            sb.append("#### 10a. 32 callers (closed loop)\n\n");
            Report.table(sb, List.of("Query", "PostgreSQL directly, 32 threads: calls/s", "p50",
                    "QueryAPIGate, 32 callers: calls/s", "p50", "gateway/direct calls/s (per round)",
                    "gateway CPU µs/call", "PostgreSQL cores: direct cell / gateway cell"), many);
        }
        if (!one.isEmpty()) {
            sb.append("#### 10b. One caller at a time: what the gateway adds\n\n");
            Report.table(sb, List.of("Query", "PostgreSQL directly p50", "QueryAPIGate p50", "p99",
                    "calls/s: directly / QueryAPIGate", "the gateway adds (p50, per round)",
                    "gateway/direct p50 (per round)", "on MariaDB, the gateway adds (block 2b)"), one);
        }
        if (!many.isEmpty() || !one.isEmpty()) {
            sb.append("Directly is pgjdbc (the postgres dialect's driver) in the harness's JVM, pinned to the")
                    .append(" gateway's CPU as in block 1: autocommit, prepared statements with pgjdbc's defaults, the")
                    .append(" same SQL and parameters, every column of every row read. QueryAPIGate is a gateway of its")
                    .append(" own (`pg`) with one PostgreSQL connection as a SELECT-only role, the six queries saved")
                    .append(" again as `pg_customer`, ...; both read the same TPC-C rows, loaded into PostgreSQL by")
                    .append(" `setup`. Ratios and \"adds\" are computed per round, then summarised. PostgreSQL's CPU is")
                    .append(" the sum over the backends of the benchmark's database (`/proc/<pid>/stat`), divided by")
                    .append(" the cell's wall time.\n\n");
        }
        if (!trips.isEmpty()) {
            sb.append("#### 10c. Round trips per call, counted on the wire\n\n");
            Report.table(sb, List.of("Query", "QueryAPIGate: round trips/call", "by kind, per call",
                    "client messages/call", "PostgreSQL directly: round trips/call", "by kind, per call",
                    "client messages/call"), trips);
            sb.append(tripNotes);
        }
    }

    private List<List<String>> throughput() {
        List<List<String>> rows = new ArrayList<>();
        for (String q : Workload.QUERY_NAMES) {
            List<JsonNode> d = cells("jdbc", q, Runner.CALLERS);
            List<JsonNode> g = cells("pg", q, Runner.CALLERS);
            if (d.isEmpty() && g.isEmpty()) {
                continue;
            }
            rows.add(List.of(q, Report.rate(r.stat(d, c -> c.path("rps").asDouble())),
                    Report.msr(r.stat(d, c -> c.path("p50_ms").asDouble())),
                    Report.rate(r.stat(g, c -> c.path("rps").asDouble())),
                    Report.msr(r.stat(g, c -> c.path("p50_ms").asDouble())),
                    Report.pct(r.paired(g, d, (x, y) -> x.path("rps").asDouble() / y.path("rps").asDouble())),
                    Report.rate(r.stat(g, CostReport::cpuMicrosPerCall)),
                    Report.num(r.stat(d, c -> Report.cores(c, "pg")).median()) + " / "
                            + Report.num(r.stat(g, c -> Report.cores(c, "pg")).median())));
        }
        return rows;
    }

    private List<List<String>> single() {
        List<List<String>> rows = new ArrayList<>();
        for (String q : Workload.QUERY_NAMES) {
            List<JsonNode> d = cells("jdbc", q, 1);
            List<JsonNode> g = cells("pg", q, 1);
            if (d.isEmpty() && g.isEmpty()) {
                continue;
            }
            rows.add(List.of(q, Report.msr(r.stat(d, c -> c.path("p50_ms").asDouble())),
                    Report.msr(r.stat(g, c -> c.path("p50_ms").asDouble())),
                    Report.msr(r.stat(g, c -> c.path("p99_ms").asDouble())),
                    Report.rate(r.stat(d, c -> c.path("rps").asDouble())) + " / "
                            + Report.rate(r.stat(g, c -> c.path("rps").asDouble())),
                    Report.msr(r.paired(g, d, (x, y) -> x.path("p50_ms").asDouble() - y.path("p50_ms").asDouble())),
                    Report.ratio(r.paired(g, d, (x, y) -> x.path("p50_ms").asDouble() / y.path("p50_ms").asDouble())),
                    Report.msr(r.addedMs(q))));
        }
        return rows;
    }

    /** Fills the rows of table 10c; returns the text under it. */
    private String roundTrips(List<List<String>> rows) {
        Set<String> gatewayBatches = new LinkedHashSet<>();
        Set<String> directBatches = new LinkedHashSet<>();
        int calls = 0;
        for (String q : Workload.QUERY_NAMES) {
            JsonNode g = count("pg", q);
            JsonNode d = count("pg-jdbc", q);
            if (g == null && d == null) {
                continue;
            }
            if (g != null) {
                g.path("round_trips_by_batch").fieldNames().forEachRemaining(gatewayBatches::add);
            }
            if (d != null) {
                d.path("round_trips_by_batch").fieldNames().forEachRemaining(directBatches::add);
            }
            calls = Math.max(calls, (g != null ? g : d).path("calls").asInt());
            rows.add(List.of(q, perCall(g), byKind(g, "round_trips_by_kind"), messages(g), perCall(d),
                    byKind(d, "round_trips_by_kind"), messages(d)));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("Counted over ").append(calls).append(" sequential calls per query after 20 unmeasured ones (round")
                .append(" 1): a loopback proxy (the testkit's TcpProxy) parses what the client sends to PostgreSQL and")
                .append(" counts the messages after which the client waits for the server's ReadyForQuery: Sync (the")
                .append(" end of an extended-protocol batch) and simple Query. The gateway's count goes through a second")
                .append(" connection of the same gateway (`bench_pg_wire`) that reaches PostgreSQL through the counter;")
                .append(" directly, pgjdbc goes through a counter of its own. Client messages: P Parse, B Bind,")
                .append(" D Describe, E Execute, C Close, S Sync, Q Query.\n\n");
        for (String b : gatewayBatches) {
            sb.append("- What one QueryAPIGate round trip carried: `").append(b).append("`\n");
        }
        for (String b : directBatches) {
            sb.append("- What one round trip of pgjdbc directly carried: `").append(b).append("`\n");
        }
        return sb.append(gatewayBatches.isEmpty() && directBatches.isEmpty() ? "" : "\n").toString();
    }

    private static String perCall(JsonNode c) {
        return c == null || !c.has("round_trips_per_call") ? "-" : Report.num(c.path("round_trips_per_call")
                .asDouble());
    }

    private static String byKind(JsonNode c, String field) {
        if (c == null) {
            return "-";
        }
        double calls = c.path("calls").asDouble();
        StringBuilder sb = new StringBuilder();
        c.path(field).fields().forEachRemaining(e -> sb.append(sb.isEmpty() ? "" : ", ").append(e.getKey())
                .append(" ").append(Report.num(e.getValue().asDouble() / calls)));
        return sb.isEmpty() ? "-" : sb.toString();
    }

    private static String messages(JsonNode c) {
        if (c == null || !c.has("client_messages")) {
            return "-";
        }
        double calls = c.path("calls").asDouble();
        double total = 0;
        StringBuilder sb = new StringBuilder();
        for (var it = c.path("client_messages").fields(); it.hasNext(); ) {
            var e = it.next();
            total += e.getValue().asDouble();
            sb.append(sb.isEmpty() ? "" : " ").append(e.getKey()).append(Report.num(e.getValue().asDouble() / calls));
        }
        return Report.num(total / calls) + " (" + sb + ")";
    }
}
