package io.queryapigate.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.util.Duration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Every mistake in an {@code auditOutputs} entry stops startup with a message naming its key. */
class AuditOutputConfigTest {
    private static void refused(Consumer<AuditOutputConfig> setup, String message) {
        AuditOutputConfig c = new AuditOutputConfig();
        setup.accept(c);
        refused("siem", c, message);
    }

    private static void refused(String name, AuditOutputConfig c, String message) {
        Map<String, AuditOutputConfig> outputs = new LinkedHashMap<>();
        outputs.put(name, c);
        refused(outputs, Map.of(), message);
    }

    private static void refused(Map<String, AuditOutputConfig> yaml, Map<String, String> variables, String message) {
        assertThatThrownBy(() -> AuditOutputConfig.build(yaml, variables, null, Clock.systemUTC(), new ObjectMapper(),
                "t", "test-instance", new Environment("test"))).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void syslogMistakesNameTheirKey() throws IOException {
        refused(c -> {}, "auditOutputs.siem.type: syslog or otlp");
        refused(c -> c.setType("kafka"), "auditOutputs.siem.type: syslog or otlp");
        refused(c -> c.setType("syslog"), "auditOutputs.siem.url: tls://host:port or tcp://host:port is required");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("udp://h:514");
        }, "auditOutputs.siem.url: UDP loses entries silently");
        for (String bad : new String[] {"tcp://h", "http://h:514", "tcp://user@h:514", "tcp://h:514/x", "h:514"}) {
            refused(c -> {
                c.setType("syslog");
                c.setUrl(bad);
            }, "auditOutputs.siem.url: must be tls://host:port or tcp://host:port");
        }
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tcp://h:514");
            c.setFacility(24);
        }, "auditOutputs.siem.facility: 0 to 23");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tcp://h:514");
            c.setCaFile("/etc/hostname");
        }, "auditOutputs.siem: caFile, clientCert and clientKey need a tls:// url");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tls://h:6514");
            c.setClientCert("/etc/hostname");
        }, "auditOutputs.siem: clientCert and clientKey go together");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tls://h:6514");
            c.setCaFile("/nonexistent/ca.pem");
        }, "auditOutputs.siem.caFile: /nonexistent/ca.pem is not a readable file");
        Path notPem = Files.createTempFile("qag-ca-", ".pem");
        Files.writeString(notPem, "not a certificate");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tls://h:6514");
            c.setCaFile(notPem.toString());
        }, "auditOutputs.siem.caFile: " + notPem + " is not a PEM certificate file");
        Path rsaKey = Files.createTempFile("qag-key-", ".pem");
        Files.writeString(rsaKey, "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tls://h:6514");
            c.setClientCert(notPem.toString());
            c.setClientKey(rsaKey.toString());
        }, "auditOutputs.siem.clientKey: " + rsaKey + " holds no unencrypted PKCS#8 key");
        refused(c -> {
            c.setType("syslog");
            c.setUrl("tcp://h:514");
            c.setEndpoint("http://c:4318");
        }, "auditOutputs.siem: endpoint and headers are for type otlp");
    }

    @Test
    void otlpAndDeliveryMistakesNameTheirKey() {
        refused(c -> c.setType("otlp"), "auditOutputs.siem.endpoint: the collector's OTLP/HTTP address");
        for (String bad : new String[] {"ftp://c:4318", "http://user:pw@c:4318", "http://c:4318/?x=1", "c:4318"}) {
            refused(c -> {
                c.setType("otlp");
                c.setEndpoint(bad);
            }, "auditOutputs.siem.endpoint: must be http(s)://host[:port][/path], without credentials");
        }
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setHeaders(Map.of("Bad Header", "x"));
        }, "auditOutputs.siem.headers: 'Bad Header' is not a header name");
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setHeaders(Map.of("Authorization", "Bearer x\r\nX-Injected: 1"));
        }, "auditOutputs.siem.headers.Authorization: a value on one line");
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setUrl("tcp://h:514");
        }, "auditOutputs.siem: url, caFile, clientCert, clientKey and hostname are for type syslog");
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setBatchSize(0);
        }, "auditOutputs.siem.batchSize: 1 to 10000");
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setLease(Duration.seconds(15));
        }, "auditOutputs.siem.lease: at least 1s and more than twice timeout");
        refused(c -> {
            c.setType("otlp");
            c.setEndpoint("http://c:4318");
            c.setPollInterval(null);
        }, "auditOutputs.siem: pollInterval, retryMax, timeout and lease cannot be null");
        AuditOutputConfig ok = new AuditOutputConfig();
        ok.setType("otlp");
        ok.setEndpoint("http://c:4318");
        refused("bad name", ok, "auditOutputs.bad name: an output's name is 1 to 100 letters");
        refused("empty", null, "auditOutputs.empty: give the output's type");
    }

    @Test
    void thePythonOriginalsVariablesMakeItsOutputsAndTheirMistakesNameTheVariables() {
        refused(Map.of(), Map.of("QUERYAPIGATE_AUDIT_SYSLOG_URL", "udp://siem:514"),
                "QUERYAPIGATE_AUDIT_SYSLOG_URL: UDP loses entries silently");
        refused(Map.of(), Map.of("QUERYAPIGATE_AUDIT_SYSLOG_URL", "tls://siem:6514", "QUERYAPIGATE_AUDIT_SYSLOG_CA",
                "/nonexistent/ca.pem"), "QUERYAPIGATE_AUDIT_SYSLOG_CA: /nonexistent/ca.pem is not a readable file");
        refused(Map.of(), Map.of("QUERYAPIGATE_AUDIT_OTLP", "yes"), "OTEL_EXPORTER_OTLP_ENDPOINT: the collector's");
        refused(Map.of(), Map.of("QUERYAPIGATE_AUDIT_OTLP", "1", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", "ftp://c"),
                "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: must be http(s)://");
        refused(Map.of(), Map.of("QUERYAPIGATE_AUDIT_OTLP", "on", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_EXPORTER_OTLP_HEADERS", "bad header=x"), "OTEL_EXPORTER_OTLP_HEADERS: 'bad header'");

        Map<String, AuditOutputConfig> made = AuditOutputConfig.fromVariables(Map.of("QUERYAPIGATE_AUDIT_SYSLOG_URL",
                " tcp://siem:514 ", "QUERYAPIGATE_AUDIT_OTLP", "TRUE", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318",
                "OTEL_EXPORTER_OTLP_LOGS_HEADERS", "Authorization=Bearer%20a+b%3D, X-Tenant = t1,junk",
                "OTEL_EXPORTER_OTLP_HEADERS", "Ignored=1"));
        org.assertj.core.api.Assertions.assertThat(made).containsOnlyKeys("syslog", "otlp");
        org.assertj.core.api.Assertions.assertThat(made.get("syslog").getUrl()).isEqualTo("tcp://siem:514");
        org.assertj.core.api.Assertions.assertThat(made.get("otlp").getHeaders())
                .containsExactly(Map.entry("Authorization", "Bearer a+b="), Map.entry("X-Tenant", "t1"));
        org.assertj.core.api.Assertions.assertThat(AuditOutputConfig.fromVariables(Map.of("QUERYAPIGATE_AUDIT_OTLP",
                "0", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"))).as("off").isEmpty();

        AuditOutputConfig yaml = new AuditOutputConfig();
        yaml.setType("syslog");
        yaml.setUrl("udp://yaml:514");
        refused(Map.of("syslog", yaml), Map.of("QUERYAPIGATE_AUDIT_SYSLOG_URL", "tcp://env:514"),
                "auditOutputs.syslog.url: UDP"); // the YAML's output of that name wins
    }
}
