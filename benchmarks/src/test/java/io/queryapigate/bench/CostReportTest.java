package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostReportTest {
    private static final String ENV = "{\"type\":\"env\",\"command\":\"run\",\"clock_start\":\"2026-01-01T00:00:00Z\","
            + "\"loadavg\":[1,1,1],\"gateway_jar_sha256\":\"00000000000000000000\",\"tables\":{},\"options\":{},"
            + "\"gateway_jvm_options\":[\"--enable-native-access=ALL-UNNAMED\",\"-Xmx192m\"]}";

    private static String gatewayCell(int round, double cpu, long alloc, double rssMax) {
        return "{\"type\":\"cell\",\"block\":\"gateway\",\"round\":" + round + ",\"config\":\"main\",\"query\":\"customer\","
                + "\"dist\":\"uniform\",\"callers\":32,\"rps\":2000,\"p50_ms\":2.0,\"requests\":10000,"
                + "\"cpu_s\":{\"gateway\":" + cpu + ",\"db\":1,\"load\":1,\"wall\":5},\"gateway_rss_mib\":200,"
                + "\"gateway_rss_max_mib\":" + rssMax + ",\"allocated_bytes_per_call\":" + alloc
                + ",\"jvm\":{\"heap_used_mib\":50,\"heap_committed_mib\":90,\"non_heap_committed_mib\":70,\"threads\":30}}";
    }

    @Test
    void targetsShowWhatWasMeasuredAndSayWhatWasNot(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        Files.write(jsonl, List.of(ENV, gatewayCell(1, 4.0, 40960, 230), gatewayCell(2, 5.0, 51200, 260)));
        String md = new Report(jsonl).tables();
        // 400 and 500 µs per call: median 450
        assertThat(md).contains("| Gateway CPU per call, customer (32 callers) | <= 150 µs | 450 (400-500) µs | no |");
        assertThat(md).contains("| Heap allocated per call, customer (32 callers) | none set (reported) | 45.0 (40.0-50.0) KiB | - |");
        assertThat(md).contains("| Gateway RSS under block-2 load (highest of each round) | <= 256 MiB | 245 (230-260) MiB"
                + " | yes (the range crosses the line) |");
        assertThat(md).contains("| Gateway/direct at 32 callers: customer | >= 0.4 | not measured: the direct and gateway blocks"
                + " were not run | - |");
        assertThat(md).contains("| PostgreSQL round trips per read (wire count, all six queries) | 1 | not measured: the"
                + " postgres block was not run | - |");
        assertThat(md).contains("not measured: no warmup block in this run");
        assertThat(md).contains("not measured: no CPU profile in this run");
        assertThat(md).contains("`--enable-native-access=ALL-UNNAMED -Xmx192m`");
        assertThat(md.indexOf("### Targets")).isLessThan(md.indexOf("### The machine and the run"));
    }

    @Test
    void warmupBlockAndProfileSections(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        String series = "{\"type\":\"warmup_series\",\"block\":\"warmup\",\"round\":1,\"config\":\"warmup\","
                + "\"startup_s\":4.0,\"publish_s\":1.0,\"rps\":1500,\"warm_rps\":2000,\"gateway_rss_mib\":180,"
                + "\"t90_from_first_request_s\":6.0,\"t90_from_process_start_s\":10.0,"
                + "\"windows\":[{\"end_s\":1,\"s\":1,\"rps\":300},{\"end_s\":2,\"s\":1,\"rps\":1900}]}";
        String profile = "{\"type\":\"profile\",\"block\":\"profile\",\"kind\":\"cpu\",\"engine\":\"perf_events (event cpu)\","
                + "\"seconds\":15,\"rps\":2000,\"total\":12000,\"unit\":\"samples\",\"kernel_leaf_share\":0.2,"
                + "\"buckets\":{\"Jetty\":0.4,\"" + Stacks.EVENT_WRITER + "\":0.25},"
                + "\"top_self_frames\":[{\"frame\":\"org.sqlite.core.NativeDB.step\",\"share\":0.1}],"
                + "\"html\":\"profile-customer-cpu.html\",\"collapsed\":\"profile-customer-cpu.collapsed\"}";
        Files.write(jsonl, List.of(ENV, series, profile));
        String md = new Report(jsonl).tables();
        assertThat(md).contains("| Time to 90% of warm throughput on one core, from the process start (startup included)"
                + " | <= 10 s | 10.0 s | yes |");
        assertThat(md).contains("| 1 | 4.0 | 1.0 | 6.0 | 10.0 | 2,000 | 1,500 | 180 |");
        assertThat(md).contains("1.0 s: 300; 2.0 s: 1,900");
        assertThat(md).contains("| Event-log writer's share of the gateway's CPU (profile) | <= 5% | 25.0% (perf_events,"
                + " 12,000 samples) | no |");
        assertThat(md).contains("| Jetty | 40.0% | - |").contains("`org.sqlite.core.NativeDB.step` 10.0%");
    }
}
