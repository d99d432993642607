package io.queryapigate;

import static io.queryapigate.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingOtelCollector;
import io.queryapigate.testing.TestingSyslog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end: an administrative change made through the API (a key created) becomes an audit entry that arrives at
 * the test's rsyslog over mutual TLS and at the OpenTelemetry Collector, with the seq and hash the API lists, and the
 * entry's JSON as the chain hashed it; the key's secret reaches neither receiver. The outputs poll every ten minutes:
 * the entry arrives within seconds because its commit wakes the deliverers.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SiemEndToEndIT {
    private static final String RUN = "e2e" + UUID.randomUUID().toString().substring(0, 10);
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), "auditOutputs:\n"
            + "  siem:\n    type: syslog\n    url: tls://" + TestingSyslog.mtls() + "\n    caFile: "
            + TestingSyslog.caFile() + "\n    clientCert: " + TestingSyslog.clientCert() + "\n    clientKey: "
            + TestingSyslog.clientKey() + "\n    pollInterval: 10m\n"
            + "  collector:\n    type: otlp\n    endpoint: " + TestingOtelCollector.url()
            + "\n    pollInterval: 10m\n");
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());

    @Test
    void aKeyCreatedThroughTheApiReachesRsyslogOverMutualTlsAndTheCollector() {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Http.Reply created = http.post("/api/v1/api-keys", TestingConfig.ADMIN_KEY, Http.json(Map.of("name", RUN)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String secret = created.json().get("secret").asText();
        assertThat(secret).isNotBlank();

        JsonNode entry = null;
        for (JsonNode e : http.get("/api/v1/audit?action=create_key", TestingConfig.ADMIN_KEY).json().get("items")) {
            if (e.toString().contains(RUN)) {
                entry = e;
            }
        }
        assertThat(entry).as("the API lists the entry").isNotNull();
        long seq = entry.get("seq").asLong();
        String hash = entry.get("hash").asText();

        await("rsyslog received it over mutual TLS",
                () -> !TestingSyslog.lines(TestingSyslog.received("mtls"), RUN).isEmpty());
        List<String> lines = TestingSyslog.lines(TestingSyslog.received("mtls"), RUN);
        assertThat(lines).hasSize(1);
        assertThat(lines.getFirst()).contains(" create_key [meta sequenceId=\"" + seq + "\"]")
                .contains("[queryapigate@32473 seq=\"" + seq + "\"").contains(" hash=\"" + hash + "\"")
                .contains("target=\"").doesNotContain(secret);

        await("the collector received it", () -> !TestingOtelCollector.logRecords(RUN).isEmpty());
        List<JsonNode> records = TestingOtelCollector.logRecords(RUN);
        assertThat(records).hasSize(1);
        assertThat(records.getFirst().toString()).contains(hash).contains("\"create_key\"").doesNotContain(secret);
        String body = records.getFirst().get("body").get("stringValue").asText();
        assertThat(lines.getFirst()).as("the same entry JSON in both").endsWith(body);

        await("both cursors reach the entry", () -> {
            for (JsonNode o : http.get("/api/v1/audit/delivery", TestingConfig.ADMIN_KEY).json().get("items")) {
                if (o.get("delivered_seq").asLong(-1) < seq) {
                    return false;
                }
            }
            return true;
        });
        assertThat(http.get("/api/v1/audit/delivery", TestingConfig.ADMIN_KEY).json().get("items")).hasSize(2);
    }
}
