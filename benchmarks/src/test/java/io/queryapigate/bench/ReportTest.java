package io.queryapigate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @Test
    void medianAndRangeOfTheRounds() {
        Report.Stat odd = Report.Stat.of(Arrays.asList(5.0, 1.0, 3.0, 2.0, 4.0));
        assertThat(odd.median()).isEqualTo(3.0);
        assertThat(odd.min()).isEqualTo(1.0);
        assertThat(odd.max()).isEqualTo(5.0);
        assertThat(Report.Stat.of(List.of(1.0, 2.0, 3.0, 10.0)).median()).isEqualTo(2.5);
        assertThat(Report.Stat.of(List.of()).ok()).isFalse();
        assertThat(Report.rate(Report.Stat.of(List.of(1000.0, 1200.0, 1100.0)))).isEqualTo("1,100 (1,000-1,200)");
    }

    @Test
    void docsKeepTheirProseAroundTheGeneratedTables(@TempDir Path dir) throws Exception {
        Path docs = dir.resolve("PERFORMANCE.md");
        Files.writeString(docs, "# Performance\n\nprose before\n\n" + Report.BEGIN + "\nold\n" + Report.END
                + "\n\nprose after\n");
        Report.updateDocs(docs, "| new | table |\n");
        String text = Files.readString(docs);
        assertThat(text).contains("prose before", "prose after", "| new | table |").doesNotContain("\nold\n");
        Report.updateDocs(docs, "| newer |\n");
        assertThat(Files.readString(docs)).contains("| newer |").doesNotContain("| new | table |");
    }

    @Test
    void aReportFromAMinimalResultsFile(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        String env = "{\"type\":\"env\",\"command\":\"run\",\"clock_start\":\"2026-01-01T00:00:00Z\",\"loadavg\":[1,1,1],"
                + "\"gateway_jar_sha256\":\"00000000000000000000\",\"tables\":{},\"options\":{}}";
        String direct = "{\"type\":\"cell\",\"block\":\"direct\",\"round\":1,\"config\":\"jdbc\",\"query\":\"customer\","
                + "\"callers\":32,\"rps\":1000,\"p50_ms\":1.0,\"requests\":6000,\"cpu_s\":{\"db\":1,\"load\":1,\"wall\":6}}";
        String gw = "{\"type\":\"cell\",\"block\":\"gateway\",\"round\":1,\"config\":\"main\",\"query\":\"customer\","
                + "\"dist\":\"uniform\",\"callers\":32,\"rps\":600,\"p50_ms\":2.0,\"requests\":3600,"
                + "\"cpu_s\":{\"gateway\":6,\"db\":1,\"load\":1,\"wall\":6}}";
        Files.write(jsonl, List.of(env, direct, gw));
        String md = new Report(jsonl).document();
        assertThat(md).contains("| customer | 1,000 | 600 | 60.0% |").contains("gateway/direct >= 0.5");
    }
}
