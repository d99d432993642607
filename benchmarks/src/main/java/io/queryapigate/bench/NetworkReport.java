package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The network block in the report (section 7): per database and query, the JDBC client and QueryAPIGate across the
 * delayed link, the round trips counted on it, and what the link adds to each side's p50 over its loopback p50.
 */
final class NetworkReport {
    private final Report r;

    NetworkReport(Report r) {
        this.r = r;
    }

    /** The link's calibration note (one-byte round trips, and the delay), or null. */
    private JsonNode link() {
        JsonNode link = null;
        for (JsonNode n : r.notes()) {
            if (n.path("block").asText().equals("network") && n.has("delayed_rtt_ms")) {
                link = n;
            }
        }
        return link;
    }

    /** The delay each way in ms: the calibration note's, else the run's option, else NaN. */
    private double delayMs(JsonNode link) {
        JsonNode us = link != null ? link.path("delay_us_each_way") : r.env().path("network").path("delay_us_each_way");
        return us.isNumber() ? us.asDouble() / 1000.0 : Double.NaN;
    }

    void tables(StringBuilder sb) {
        JsonNode link = link();
        double delay = delayMs(link);
        sb.append("### 7. A database across a network (")
                .append(Double.isNaN(delay) ? "an emulated link" : "TcpProxy, " + Report.ms(delay) + " ms each way")
                .append(")\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (String db : List.of("mariadb", "postgres")) {
            for (String q : Workload.QUERY_NAMES) {
                List<String> row = row(db, q);
                if (row != null) {
                    rows.add(row);
                }
            }
        }
        String reason = r.skipReason("network");
        if (rows.isEmpty()) {
            sb.append(reason == null ? "Not measured in this run.\n\n" : "**Skipped: " + reason + ".**\n\n");
            return;
        }
        Report.table(sb, List.of("Database", "Query", "round trips/call: directly / QueryAPIGate", "directly p50",
                "QueryAPIGate p50", "the gateway adds (p50, per round)", "the link adds: directly (p50, per round)",
                "the link adds: QueryAPIGate (p50, per round)", "calls/s at 32: directly / QueryAPIGate"), rows);
        sb.append("The link is the testkit's TcpProxy in the harness's JVM with a fixed delay each way: every chunk is")
                .append(" written that long after it arrived, in order, per connection and per direction, so")
                .append(" connections don't wait for each other; a round trip costs at least twice the delay. Both the")
                .append(" JDBC client and the gateway (`net`: one MariaDB and one PostgreSQL connection, both through")
                .append(" the links) go through it, and the same proxy counts the round trips of each cell (MariaDB:")
                .append(" commands; PostgreSQL: Syncs and Queries) divided by its calls. \"The link adds\" is a p50 across")
                .append(" the link minus the same side's single-caller p50 on loopback in the same round (MariaDB:")
                .append(" blocks 1 and 2b; PostgreSQL: the postgres block), so \"-\" where those blocks did not run.");
        if (!Double.isNaN(delay)) {
            sb.append(String.format(Locale.ROOT, " Each round trip on a call's critical path should add about %s ms"
                    + " (twice the delay).", Report.ms(2 * delay)));
        }
        if (link != null) {
            sb.append(String.format(Locale.ROOT, " The link alone (one-byte round trips to an echo server in the"
                    + " harness, p50): %s ms straight, %s ms through the proxy, %s ms through the delayed proxy.",
                    Report.ms(link.path("loopback_rtt_ms").get(1).asDouble()),
                    Report.ms(link.path("proxy_rtt_ms").get(1).asDouble()),
                    Report.ms(link.path("delayed_rtt_ms").get(1).asDouble())));
        }
        sb.append("\n\n");
        String pgReason = r.skipReason("network-postgres");
        if (pgReason != null) {
            sb.append("PostgreSQL rows: not measured: ").append(pgReason).append(".\n\n");
        }
    }

    /** One database's query, or null when the block has no cell of it. */
    private List<String> row(String db, String q) {
        List<JsonNode> d1 = r.cellsOn("network", "jdbc", db, q, 1);
        List<JsonNode> g1 = r.cellsOn("network", "net", db, q, 1);
        if (d1.isEmpty() && g1.isEmpty()) {
            return null;
        }
        List<JsonNode> d32 = r.cellsOn("network", "jdbc", db, q, Runner.CALLERS);
        List<JsonNode> g32 = r.cellsOn("network", "net", db, q, Runner.CALLERS);
        boolean maria = db.equals("mariadb");
        // the same calls on loopback: blocks 1 and 2b for MariaDB, the postgres block for PostgreSQL
        List<JsonNode> dLoop = maria ? r.select("direct", "jdbc", q, null, 1) : r.cellsOn("postgres", "jdbc", db, q, 1);
        List<JsonNode> gLoop = maria ? r.select("gateway", "main", q, "uniform", 1)
                : r.cellsOn("postgres", "pg", db, q, 1);
        return List.of(maria ? "MariaDB" : "PostgreSQL", q, trips(d1) + " / " + trips(g1),
                Report.msr(r.stat(d1, c -> c.path("p50_ms").asDouble())),
                Report.msr(r.stat(g1, c -> c.path("p50_ms").asDouble())),
                Report.msr(r.paired(g1, d1, NetworkReport::p50Minus)),
                Report.msr(r.paired(d1, dLoop, NetworkReport::p50Minus)),
                Report.msr(r.paired(g1, gLoop, NetworkReport::p50Minus)),
                Report.rate(r.stat(d32, c -> c.path("rps").asDouble())) + " / "
                        + Report.rate(r.stat(g32, c -> c.path("rps").asDouble())));
    }

    /**
     * Round trips on the gateway's critical path for a MariaDB query, per round: what the link adds to the gateway's
     * p50 divided by what it adds to the JDBC client's, whose call is exactly one round trip.
     */
    Report.Stat criticalPathTrips(String q) {
        List<JsonNode> d1 = r.cellsOn("network", "jdbc", "mariadb", q, 1);
        List<JsonNode> g1 = r.cellsOn("network", "net", "mariadb", q, 1);
        List<JsonNode> dLoop = r.select("direct", "jdbc", q, null, 1);
        List<JsonNode> gLoop = r.select("gateway", "main", q, "uniform", 1);
        Report.Stat direct = r.paired(d1, dLoop, NetworkReport::p50Minus);
        Report.Stat gateway = r.paired(g1, gLoop, NetworkReport::p50Minus);
        if (!direct.ok() || !gateway.ok() || direct.median() <= 0) {
            return direct.ok() ? gateway : direct;
        }
        return Report.Stat.of(List.of(gateway.min() / direct.median(), gateway.median() / direct.median(),
                gateway.max() / direct.median()));
    }

    private static Double p50Minus(JsonNode a, JsonNode b) {
        return a.path("p50_ms").asDouble() - b.path("p50_ms").asDouble();
    }

    private String trips(List<JsonNode> cs) {
        Report.Stat s = r.stat(cs, c -> c.path("round_trips_per_call").asDouble(Double.NaN));
        return s.ok() ? Report.num(s.median()) : "-";
    }
}
