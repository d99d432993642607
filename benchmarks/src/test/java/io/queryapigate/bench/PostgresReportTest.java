package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostgresReportTest {
    private static final String ENV = "{\"type\":\"env\",\"command\":\"run\",\"clock_start\":\"2026-01-01T00:00:00Z\","
            + "\"loadavg\":[1,1,1],\"gateway_jar_sha256\":\"00000000000000000000\",\"tables\":{},"
            + "\"options\":{\"blocks\":[\"postgres\"]},\"postgres\":{\"server\":{\"server_version\":\"16.4\","
            + "\"shared_buffers\":\"128MB\",\"jit\":\"on\",\"pgjdbc\":\"42.7.5\"},\"database\":\"qag_bench\","
            + "\"reader_role\":\"qag_bench_ro\"}}";

    /** A cell of the postgres block: config jdbc (pgjdbc directly) or pg (the gateway). */
    private static String cell(int round, String config, String query, int callers, double rps, double p50,
            double p99, long requests, double gatewayCpu, double pgCpu) {
        return String.format(Locale.ROOT, "{\"type\":\"cell\",\"block\":\"postgres\",\"round\":%d,\"config\":\"%s\","
                + "\"db\":\"postgres\",\"query\":\"%s\",\"saved_query\":\"pg_%s\",\"callers\":%d,\"dist\":\"uniform\","
                + "\"rps\":%s,\"p50_ms\":%s,\"p99_ms\":%s,\"requests\":%d,\"cpu_s\":{%s\"pg\":%s,\"db\":0.1,"
                + "\"load\":1,\"wall\":5}}", round, config, query, query, callers, rps, p50, p99, requests,
                config.equals("pg") ? "\"gateway\":" + gatewayCpu + "," : "", pgCpu);
    }

    private static String count(String config, String query, double perCall) {
        long calls = 1000;
        long trips = Math.round(perCall * calls);
        return String.format(Locale.ROOT, "{\"type\":\"count\",\"block\":\"postgres\",\"config\":\"%s\","
                + "\"db\":\"postgres\",\"query\":\"%s\",\"calls\":%d,\"round_trips_per_call\":%s,"
                + "\"round_trips_by_kind\":{\"Sync\":%d},\"round_trips_by_batch\":{\"Sync: SELECT\":%d},"
                + "\"client_messages\":{\"B\":%d,\"E\":%d,\"S\":%d}}", config, query, calls, perCall, trips, trips,
                calls, calls, trips);
    }

    private static String tables(Path dir, List<String> lines) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        List<String> all = new ArrayList<>();
        all.add(ENV);
        all.addAll(lines);
        Files.write(jsonl, all);
        return new Report(jsonl).tables();
    }

    /** Section 10 alone. */
    private static String section(String md) {
        int a = md.indexOf("### 10. PostgreSQL");
        return md.substring(a, md.indexOf("\n### ", a + 1));
    }

    @Test
    void directAgainstTheGatewayPerQueryMedianAndRangeOfTheRounds(@TempDir Path dir) throws Exception {
        String md = tables(dir, List.of(
                cell(1, "jdbc", "customer", 32, 10000, 3.0, 5, 50000, 0, 4.0),
                cell(1, "pg", "customer", 32, 2000, 15.0, 30, 10000, 5.0, 1.0),
                cell(1, "jdbc", "customer", 1, 4000, 0.2, 0.4, 20000, 0, 1.0),
                cell(1, "pg", "customer", 1, 1100, 0.8, 1.5, 5500, 3.0, 1.0),
                cell(2, "jdbc", "customer", 32, 8000, 3.2, 5, 40000, 0, 4.5),
                cell(2, "pg", "customer", 32, 2400, 13.0, 30, 12000, 5.4, 1.0),
                cell(2, "jdbc", "customer", 1, 3000, 0.3, 0.5, 15000, 0, 1.0),
                cell(2, "pg", "customer", 1, 900, 1.0, 2.0, 4500, 3.0, 1.0),
                count("pg", "customer", 1.0), count("pg-jdbc", "customer", 1.0),
                count("pg", "payments", 1.0), count("pg-jdbc", "payments", 1.0)));
        // 32 callers: gateway/direct 20% in round 1, 30% in round 2; CPU 500 and 450 µs per call
        assertThat(md).contains("| customer | 9,000 (8,000-10,000) | 3.10 ms (3.00-3.20) | 2,200 (2,000-2,400)"
                + " | 14.0 ms (13.0-15.0) | 25.0% (20.0-30.0%) | 475 (450-500) | 0.85 / 0.20 |");
        // one caller: the gateway adds 0.6 and 0.7 ms, its p50 is 4.0 and 3.33 times direct's
        assertThat(md).contains("| customer | 0.250 ms (0.200-0.300) | 0.900 ms (0.800-1.00) | 1.75 ms (1.50-2.00)"
                + " | 3,500 (3,000-4,000) / 1,000 (900-1,100) | 0.650 ms (0.600-0.700) | 3.67 (3.33-4.00) | - |");
        assertThat(md).contains("| customer | 1.00 | Sync 1.00 | 3.00 (B1.00 E1.00 S1.00) | 1.00 | Sync 1.00 |");
        assertThat(md).contains("- What one QueryAPIGate round trip carried: `Sync: SELECT`");
        assertThat(md).contains("| 1 round trip per PostgreSQL read (wire count, all six queries) | 1.00-1.00 | yes |");
        assertThat(md).contains("| PostgreSQL round trips per read (wire count, all six queries) | 1 | 1.00-1.00"
                + " (postgres block) | yes |");
        assertThat(md).contains("| PostgreSQL (the postgres and network blocks) | PostgreSQL 16.4, shared_buffers 128MB,"
                + " jit on; pgjdbc 42.7.5; database `qag_bench` as `qag_bench_ro` |");
        // no row for a query the block did not time
        assertThat(section(md)).contains("| customer | ").doesNotContain("| stock_level | ");
        assertThat(md.indexOf("### 10. PostgreSQL")).isGreaterThan(md.indexOf("### 9. The Python original"));
    }

    @Test
    void aSecondRoundTripFailsTheGoal(@TempDir Path dir) throws Exception {
        String md = tables(dir, List.of(count("pg", "customer", 1.0), count("pg", "order_status", 2.0),
                count("pg-jdbc", "customer", 1.0)));
        assertThat(md).contains("| 1 round trip per PostgreSQL read (wire count, all six queries) | 1.00-2.00 | no |");
        assertThat(md).contains("| order_status | 2.00 | Sync 2.00 | 4.00 (B1.00 E1.00 S2.00) | - | - | - |");
        assertThat(md).contains("#### 10c. Round trips per call, counted on the wire")
                .doesNotContain("#### 10a. 32 callers");
    }

    @Test
    void aSkippedBlockSaysWhy(@TempDir Path dir) throws Exception {
        String md = tables(dir, List.of("{\"type\":\"skipped\",\"block\":\"postgres\",\"reason\":\"no PostgreSQL copy"
                + " of the data\"}"));
        assertThat(md).contains("### 10. PostgreSQL: the same six queries, directly over pgjdbc and through"
                + " QueryAPIGate\n\n**Skipped: no PostgreSQL copy of the data.**");
        assertThat(md).contains("| 1 round trip per PostgreSQL read (wire count, all six queries) | not measured: no"
                + " PostgreSQL copy of the data | - |");
        assertThat(md).doesNotContain("#### 10a.");
    }
}
