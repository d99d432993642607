package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetworkReportTest {
    private static final String ENV = "{\"type\":\"env\",\"command\":\"run\",\"clock_start\":\"2026-01-01T00:00:00Z\","
            + "\"loadavg\":[1,1,1],\"gateway_jar_sha256\":\"00000000000000000000\",\"tables\":{},"
            + "\"options\":{\"blocks\":[\"direct\",\"gateway\",\"network\"]},\"network\":{\"delay_us_each_way\":250}}";
    private static final String LINK = "{\"type\":\"note\",\"block\":\"network\",\"delay_us_each_way\":250,"
            + "\"loopback_rtt_ms\":[0.02,0.03,0.05],\"proxy_rtt_ms\":[0.05,0.06,0.1],\"delayed_rtt_ms\":[0.5,0.56,0.7]}";

    private static String cell(String block, String config, String db, int round, int callers, double rps,
            double p50, double trips) {
        return String.format(Locale.ROOT, "{\"type\":\"cell\",\"block\":\"%s\",\"round\":%d,\"config\":\"%s\",%s"
                + "\"query\":\"customer\",\"dist\":\"uniform\",\"callers\":%d,\"rps\":%s,\"p50_ms\":%s,"
                + "\"requests\":1000,\"cpu_s\":{\"db\":1,\"load\":1,\"wall\":5}%s}", block, round, config,
                db == null ? "" : "\"db\":\"" + db + "\",", callers, rps, p50,
                trips < 0 ? "" : ",\"round_trips_per_call\":" + trips);
    }

    private static String tables(Path dir, List<String> lines) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        List<String> all = new ArrayList<>();
        all.add(ENV);
        all.addAll(lines);
        Files.write(jsonl, all);
        return new Report(jsonl).tables();
    }

    @Test
    void whatTheDelayedLinkAddsPerRound(@TempDir Path dir) throws Exception {
        String md = tables(dir, List.of(LINK,
                // on loopback: block 1 and block 2b, one caller
                cell("direct", "jdbc", null, 1, 1, 4000, 0.2, -1), cell("direct", "jdbc", null, 2, 1, 4000, 0.25, -1),
                cell("gateway", "main", null, 1, 1, 1200, 0.8, -1), cell("gateway", "main", null, 2, 1, 1000, 1.0, -1),
                // across the link
                cell("network", "jdbc", "mariadb", 1, 1, 1100, 0.9, 1.0),
                cell("network", "jdbc", "mariadb", 2, 1, 1000, 1.0, 1.0),
                cell("network", "net", "mariadb", 1, 1, 400, 2.5, 2.0),
                cell("network", "net", "mariadb", 2, 1, 350, 2.9, 2.0),
                cell("network", "jdbc", "mariadb", 1, 32, 5000, 6.0, 1.0),
                cell("network", "net", "mariadb", 1, 32, 1500, 20.0, 2.0),
                "{\"type\":\"skipped\",\"block\":\"network-postgres\",\"reason\":\"no PostgreSQL copy\"}"));
        assertThat(md).contains("### 7. A database across a network (TcpProxy, 0.250 ms each way)");
        // the gateway adds 1.6 and 1.9 ms across the link; the link adds 0.7 and 0.75 ms directly, 1.7 and 1.9 ms
        // to the gateway (two round trips)
        assertThat(md).contains("| MariaDB | customer | 1.00 / 2.00 | 0.950 ms (0.900-1.00) | 2.70 ms (2.50-2.90)"
                + " | 1.75 ms (1.60-1.90) | 0.725 ms (0.700-0.750) | 1.80 ms (1.70-1.90) | 5,000 / 1,500 |");
        assertThat(md).contains("should add about 0.500 ms (twice the delay)");
        assertThat(md).contains("0.030 ms straight, 0.060 ms through the proxy, 0.560 ms through the delayed proxy");
        assertThat(md).contains("PostgreSQL rows: not measured: no PostgreSQL copy.");
        assertThat(md).doesNotContain("| PostgreSQL | customer |");
    }

    @Test
    void withoutLoopbackCellsTheLinkColumnsAreEmpty(@TempDir Path dir) throws Exception {
        String md = tables(dir, List.of(
                cell("network", "jdbc", "postgres", 1, 1, 1000, 0.7, 1.0),
                cell("network", "net", "postgres", 1, 1, 400, 2.0, 1.0)));
        // no calibration note: the delay comes from the run's options
        assertThat(md).contains("### 7. A database across a network (TcpProxy, 0.250 ms each way)");
        assertThat(md).contains("| PostgreSQL | customer | 1.00 / 1.00 | 0.700 ms | 2.00 ms | 1.30 ms | - | - | - / - |");
    }

    @Test
    void notRun(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        Files.write(jsonl, List.of(ENV.replace(",\"network\":{\"delay_us_each_way\":250}", "")));
        assertThat(new Report(jsonl).tables()).contains("### 7. A database across a network (an emulated link)\n\n"
                + "Not measured in this run.");
    }
}
