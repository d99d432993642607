package io.queryapigate.siem;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.store.AuditRow;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * OTLP logs over HTTP with the JSON encoding: one POST per batch to {@code <endpoint>/v1/logs}, one log record per
 * entry (body: the entry's JSON exactly as its hash covers it; attributes {@code queryapigate.audit.*}: seq, action,
 * actor, target, workspace, request id, prev_hash, hash). A batch counts as taken on a 2xx answer that reports no
 * rejected record.
 */
public final class OtlpLogsOutput implements AuditOutput {
    private static final String SCOPE = "queryapigate.audit";

    private final URI endpoint;
    private final Map<String, String> headers;
    private final String serviceName;
    private final String serviceVersion;
    private final String instanceId;
    private final Duration timeout;
    private final ObjectMapper json;
    private final HttpClient http;

    /**
     * @param endpoint the full logs URL ({@code http://collector:4318/v1/logs})
     * @param headers  sent with every request (authentication for the receiver)
     */
    public OtlpLogsOutput(URI endpoint, Map<String, String> headers, String serviceName, String serviceVersion,
            String instanceId, Duration timeout, ObjectMapper json) {
        this.endpoint = endpoint;
        this.headers = Map.copyOf(headers);
        this.serviceName = serviceName;
        this.serviceVersion = serviceVersion;
        this.instanceId = instanceId;
        this.timeout = timeout;
        this.json = json;
        // plain http: HTTP/1.1 without an h2c upgrade offer, which some proxies refuse on a POST; https negotiates
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
                .version("https".equals(endpoint.getScheme()) ? HttpClient.Version.HTTP_2
                        : HttpClient.Version.HTTP_1_1)
                .build();
    }

    @Override
    public String type() {
        return "otlp";
    }

    @Override
    public String target() {
        return endpoint.getScheme() + "://" + endpoint.getHost() + (endpoint.getPort() < 0 ? ""
                : ":" + endpoint.getPort()) + endpoint.getRawPath();
    }

    @Override
    public void send(List<AuditRow> entries) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(payload(entries))));
        headers.forEach(request::header);
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending to the OTLP endpoint", e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("the OTLP endpoint answered " + response.statusCode());
        }
        String body = response.body();
        if (body != null && body.contains("rejectedLogRecords")) {
            long rejected = json.readTree(body).path("partialSuccess").path("rejectedLogRecords").asLong(0);
            if (rejected > 0) {
                throw new IOException("the OTLP endpoint rejected " + rejected + " of " + entries.size() + " records: "
                        + json.readTree(body).path("partialSuccess").path("errorMessage").asText(""));
            }
        }
    }

    ObjectNode payload(List<AuditRow> entries) {
        ObjectNode root = json.createObjectNode();
        ObjectNode resourceLogs = root.putArray("resourceLogs").addObject();
        ArrayNode resource = resourceLogs.putObject("resource").putArray("attributes");
        attribute(resource, "service.name", serviceName);
        attribute(resource, "service.version", serviceVersion);
        attribute(resource, "service.instance.id", instanceId);
        ObjectNode scopeLogs = resourceLogs.putArray("scopeLogs").addObject();
        scopeLogs.putObject("scope").put("name", SCOPE).put("version", serviceVersion);
        ArrayNode records = scopeLogs.putArray("logRecords");
        for (AuditRow e : entries) {
            ObjectNode record = records.addObject();
            String nanos = Long.toString(Math.multiplyExact(e.atMs(), 1_000_000L));
            record.put("timeUnixNano", nanos).put("observedTimeUnixNano", nanos).put("severityNumber", 9)
                    .put("severityText", "INFO").put("eventName", "queryapigate.audit." + e.action());
            record.putObject("body").put("stringValue", e.entryJson());
            ArrayNode attributes = record.putArray("attributes");
            attributes.addObject().put("key", "queryapigate.audit.seq").putObject("value")
                    .put("intValue", Long.toString(e.seq()));
            attribute(attributes, "queryapigate.audit.action", e.action());
            attribute(attributes, "queryapigate.audit.actor", e.actor());
            attribute(attributes, "queryapigate.audit.actor_kind", e.actorKind());
            attribute(attributes, "queryapigate.audit.target", e.target());
            attribute(attributes, "queryapigate.audit.workspace", e.workspace());
            attribute(attributes, "queryapigate.audit.request_id", e.requestId());
            attribute(attributes, "queryapigate.audit.prev_hash", e.prevHash());
            attribute(attributes, "queryapigate.audit.hash", e.hash());
        }
        return root;
    }

    private static void attribute(ArrayNode attributes, String key, String value) {
        if (value != null) {
            attributes.addObject().put("key", key).putObject("value").put("stringValue", value);
        }
    }
}
