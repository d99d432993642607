package io.queryapigate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenTelemetry Collector of the tests, as {@code scripts/test-services.sh start otelcol} runs it: OTLP over HTTP
 * at {@code QAG_OTELCOL_URL} (else http://127.0.0.1:14318), writing each export request it receives as one JSON line
 * to {@code traces.jsonl} and {@code logs.jsonl} in {@code QAG_OTELCOL_DIR} (else /opt/qag-otelcol/data). A collector
 * that does not answer fails the test, naming the command that starts it; nothing is skipped.
 */
public final class TestingOtelCollector {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static volatile String checked;

    private TestingOtelCollector() {}

    /** The collector's OTLP/HTTP base address (append /v1/traces or /v1/logs), checked once per JVM. */
    public static String url() {
        String url = System.getenv("QAG_OTELCOL_URL");
        url = url == null || url.isBlank() ? "http://127.0.0.1:14318" : url.strip().replaceAll("/+$", "");
        if (!url.equals(checked)) {
            try {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url
                                + "/v1/logs")).timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"resourceLogs\":[]}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("the collector at " + url + " answered " + r.statusCode()
                            + ": start it with scripts/test-services.sh start otelcol");
                }
            } catch (IOException e) {
                throw new IllegalStateException("the OpenTelemetry Collector does not answer at " + url
                        + " (QAG_OTELCOL_URL): start it with scripts/test-services.sh start otelcol", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            checked = url;
        }
        return url;
    }

    public static Path dir() {
        String d = System.getenv("QAG_OTELCOL_DIR");
        return Path.of(d == null || d.isBlank() ? "/opt/qag-otelcol/data" : d.strip());
    }

    public static Path logsFile() {
        return dir().resolve("logs.jsonl");
    }

    public static Path tracesFile() {
        return dir().resolve("traces.jsonl");
    }

    /** Every log record received so far whose JSON text contains {@code marker}. */
    public static List<JsonNode> logRecords(String marker) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode request : requests(logsFile(), marker)) {
            for (JsonNode resource : request.path("resourceLogs")) {
                for (JsonNode scope : resource.path("scopeLogs")) {
                    for (JsonNode record : scope.path("logRecords")) {
                        if (record.toString().contains(marker)) {
                            out.add(record);
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Every span received so far whose JSON text contains {@code marker}. */
    public static List<JsonNode> spans(String marker) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode request : requests(tracesFile(), marker)) {
            for (JsonNode resource : request.path("resourceSpans")) {
                for (JsonNode scope : resource.path("scopeSpans")) {
                    for (JsonNode span : scope.path("spans")) {
                        if (span.toString().contains(marker)) {
                            out.add(span);
                        }
                    }
                }
            }
        }
        return out;
    }

    /** The export requests (one a line) of {@code file} that mention {@code marker}, parsed. */
    public static List<JsonNode> requests(Path file, String marker) {
        try {
            if (!Files.exists(file)) {
                return List.of();
            }
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.contains(marker)) {
                    out.add(JSON.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
