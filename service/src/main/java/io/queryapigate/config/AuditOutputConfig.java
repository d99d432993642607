package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.util.Duration;
import io.queryapigate.siem.AuditDelivery;
import io.queryapigate.siem.AuditOutput;
import io.queryapigate.siem.OtlpLogsOutput;
import io.queryapigate.siem.SyslogMessage;
import io.queryapigate.siem.SyslogOutput;
import io.queryapigate.siem.TlsFiles;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.jdbi.v3.core.Jdbi;

/**
 * One SIEM output of {@code auditOutputs} (docs/audit.md, "Delivery to a SIEM"): {@code type: syslog} (RFC 5424 over
 * TCP or TLS, mutual TLS with a client certificate) or {@code type: otlp} (OTLP logs over HTTP). Every mistake stops
 * startup with a message naming the key ({@code auditOutputs.siem.url: ...}).
 */
public class AuditOutputConfig {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}");
    private static final Pattern HEADER = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private String type;
    private String url;
    private int facility = 13;
    private String hostname;
    private String caFile;
    private String clientCert;
    private String clientKey;
    private String endpoint;
    private Map<String, String> headers = new LinkedHashMap<>();
    private int batchSize = 500;
    private Duration pollInterval = Duration.seconds(1);
    private Duration retryMax = Duration.seconds(60);
    private Duration lease = Duration.seconds(30);
    private Duration timeout = Duration.seconds(10);
    /** For an output made from the original's environment variables: field to variable ("": the output's own). */
    @JsonIgnore
    private Map<String, String> variableNames = Map.of();
    /** OTEL_EXPORTER_OTLP_LOGS_ENDPOINT names the logs URL itself, as the OTLP exporters read it. */
    @JsonIgnore
    private boolean endpointIsLogs;

    /**
     * The deliverers of every output, managed with the application (started after the store is up, stopped before
     * it closes); an empty map makes a delivery with no output. {@code instanceId} names this process in the leases
     * (as {@code /api/v1/instances} does). The Python original's environment variables
     * ({@code QUERYAPIGATE_AUDIT_SYSLOG_URL} with {@code _CA}, {@code _CERT}, {@code _KEY}; {@code
     * QUERYAPIGATE_AUDIT_OTLP} with {@code OTEL_EXPORTER_OTLP_[LOGS_]ENDPOINT} and {@code _HEADERS}) add the outputs
     * it had, named as it named them ({@code syslog}, {@code otlp}), unless the YAML has an output of that name.
     */
    public static AuditDelivery build(Map<String, AuditOutputConfig> yaml, Map<String, String> variables, Jdbi jdbi,
            Clock clock, ObjectMapper json, String version, String instanceId, Environment environment) {
        Map<String, AuditOutputConfig> outputs = new LinkedHashMap<>(yaml);
        fromVariables(variables).forEach(outputs::putIfAbsent);
        AuditDelivery delivery = new AuditDelivery(jdbi, instanceId, clock, json, environment.metrics());
        outputs.forEach((name, output) -> {
            String key = output == null || output.variableNames.isEmpty() ? "auditOutputs." + name
                    : output.variableNames.get("");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalStateException(key + ": an output's name is 1 to 100 letters, digits, '_', '.' or"
                        + " '-', starting with a letter or digit");
            }
            if (output == null) {
                throw new IllegalStateException(key + ": give the output's type (syslog or otlp) and address");
            }
            output.check(key);
            delivery.add(name, output.output(key, json, version, delivery.instanceId()), output.batchSize,
                    output.pollInterval.toJavaDuration(), output.retryMax.toJavaDuration(),
                    output.lease.toJavaDuration());
        });
        if (!outputs.isEmpty()) {
            environment.lifecycle().manage(delivery);
        }
        return delivery;
    }

    /** The original's environment variables as outputs; their mistakes name the variables. */
    static Map<String, AuditOutputConfig> fromVariables(Map<String, String> variables) {
        Map<String, AuditOutputConfig> out = new LinkedHashMap<>();
        String url = variable(variables, "QUERYAPIGATE_AUDIT_SYSLOG_URL");
        if (url != null) {
            AuditOutputConfig syslog = new AuditOutputConfig();
            syslog.type = "syslog";
            syslog.url = url;
            syslog.caFile = variable(variables, "QUERYAPIGATE_AUDIT_SYSLOG_CA");
            syslog.clientCert = variable(variables, "QUERYAPIGATE_AUDIT_SYSLOG_CERT");
            syslog.clientKey = variable(variables, "QUERYAPIGATE_AUDIT_SYSLOG_KEY");
            syslog.variableNames = Map.of("", "QUERYAPIGATE_AUDIT_SYSLOG_URL", "url", "QUERYAPIGATE_AUDIT_SYSLOG_URL",
                    "caFile", "QUERYAPIGATE_AUDIT_SYSLOG_CA", "clientCert", "QUERYAPIGATE_AUDIT_SYSLOG_CERT",
                    "clientKey", "QUERYAPIGATE_AUDIT_SYSLOG_KEY");
            out.put("syslog", syslog);
        }
        String on = variable(variables, "QUERYAPIGATE_AUDIT_OTLP");
        if (on != null && Set.of("1", "true", "yes", "on").contains(on.toLowerCase(Locale.ROOT))) {
            String endpointVariable = variable(variables, "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT") != null
                    ? "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
            String headersVariable = variable(variables, "OTEL_EXPORTER_OTLP_LOGS_HEADERS") != null
                    ? "OTEL_EXPORTER_OTLP_LOGS_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS";
            AuditOutputConfig otlp = new AuditOutputConfig();
            otlp.type = "otlp";
            otlp.endpoint = variable(variables, endpointVariable);
            otlp.endpointIsLogs = endpointVariable.equals("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT");
            String headers = variable(variables, headersVariable);
            for (String item : headers == null ? new String[0] : headers.split(",")) {
                int eq = item.indexOf('=');
                if (eq > 0) {
                    otlp.headers.put(decode(item.substring(0, eq).strip()), decode(item.substring(eq + 1).strip()));
                }
            }
            otlp.variableNames = Map.of("", "QUERYAPIGATE_AUDIT_OTLP", "endpoint", endpointVariable, "headers",
                    headersVariable);
            out.put("otlp", otlp);
        }
        return out;
    }

    private static String variable(Map<String, String> variables, String name) {
        String v = variables.get(name);
        return v == null || v.isBlank() ? null : v.strip();
    }

    /** As the OTLP exporters read their headers variable: {@code key=value} pairs, percent-encoded. */
    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** How a mistake names {@code field}: its YAML key, or the environment variable it came from. */
    private String at(String key, String field) {
        return variableNames.getOrDefault(field, key + "." + field);
    }

    private void check(String key) {
        require(pollInterval != null && retryMax != null && timeout != null && lease != null,
                key + ": pollInterval, retryMax, timeout and lease cannot be null");
        require(batchSize >= 1 && batchSize <= 10_000, key + ".batchSize: 1 to 10000 entries");
        require(pollInterval.toMilliseconds() >= 10, key + ".pollInterval: at least 10ms");
        require(retryMax.toMilliseconds() >= 100, key + ".retryMax: at least 100ms");
        require(timeout.toMilliseconds() >= 100, key + ".timeout: at least 100ms");
        require(lease.toMilliseconds() >= 1_000 && lease.toMilliseconds() > 2 * timeout.toMilliseconds(),
                key + ".lease: at least 1s and more than twice timeout (" + timeout + "), or a slow send outlasts it");
    }

    private AuditOutput output(String key, ObjectMapper json, String version, String instanceId) {
        if ("syslog".equals(type)) {
            require(endpoint == null && headers.isEmpty(), key + ": endpoint and headers are for type otlp");
            return syslog(key);
        }
        if ("otlp".equals(type)) {
            require(url == null && caFile == null && clientCert == null && clientKey == null && hostname == null,
                    key + ": url, caFile, clientCert, clientKey and hostname are for type syslog");
            return otlp(key, json, version, instanceId);
        }
        throw new IllegalStateException(key + ".type: syslog or otlp");
    }

    private AuditOutput syslog(String key) {
        require(url != null && !url.isBlank(),
                at(key, "url") + ": tls://host:port or tcp://host:port is required");
        URI u;
        try {
            u = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(at(key, "url") + ": " + e.getMessage(), e);
        }
        require(!"udp".equals(u.getScheme()), at(key, "url") + ": UDP loses entries silently; use"
                + " tls://host:6514 (or tcp://host:514 on a network you trust)");
        require(("tls".equals(u.getScheme()) || "tcp".equals(u.getScheme())) && u.getHost() != null
                && u.getPort() > 0 && (u.getRawPath() == null || u.getRawPath().isEmpty()) && u.getRawQuery() == null
                && u.getUserInfo() == null, at(key, "url") + ": must be tls://host:port or tcp://host:port");
        require(facility >= 0 && facility <= 23, key + ".facility: 0 to 23 (13: log audit)");
        boolean tls = "tls".equals(u.getScheme());
        require(tls || (caFile == null && clientCert == null && clientKey == null),
                key + ": caFile, clientCert and clientKey need a tls:// url");
        require((clientCert == null) == (clientKey == null),
                key + ": clientCert and clientKey go together (the client certificate and its key)");
        SSLContext context = null;
        if (tls) {
            try {
                context = TlsFiles.context(file(at(key, "caFile"), caFile),
                        file(at(key, "clientCert"), clientCert), file(at(key, "clientKey"), clientKey));
            } catch (IllegalArgumentException e) {
                String m = String.valueOf(e.getMessage());
                String which = caFile != null && m.startsWith(caFile) ? at(key, "caFile")
                        : clientCert != null && m.startsWith(clientCert) ? at(key, "clientCert")
                        : clientKey != null && m.startsWith(clientKey) ? at(key, "clientKey") : key;
                throw new IllegalStateException(which + ": " + m, e);
            }
        }
        String host = hostname != null ? hostname : localHostname();
        return new SyslogOutput(u.getHost(), u.getPort(), context, new SyslogMessage(facility, host),
                (int) timeout.toMilliseconds());
    }

    private AuditOutput otlp(String key, ObjectMapper json, String version, String instanceId) {
        require(endpoint != null && !endpoint.isBlank(), at(key, "endpoint") + ": the collector's OTLP/HTTP address"
                + " (http://collector:4318) is required");
        URI u;
        try {
            u = new URI(endpoint.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(at(key, "endpoint") + ": " + e.getMessage(), e);
        }
        require(("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null
                && u.getUserInfo() == null && u.getRawQuery() == null && u.getRawFragment() == null,
                at(key, "endpoint") + ": must be http(s)://host[:port][/path], without credentials (use headers)");
        String path = u.getRawPath() == null ? "" : u.getRawPath().replaceAll("/+$", "");
        URI logs = URI.create(u.getScheme() + "://" + u.getRawAuthority()
                + (path.endsWith("/v1/logs") || endpointIsLogs ? path : path + "/v1/logs"));
        headers.forEach((name, value) -> {
            require(name != null && HEADER.matcher(name).matches(), at(key, "headers") + ": '" + name
                    + "' is not a header name");
            require(value != null && value.chars().noneMatch(c -> c < 0x20 || c == 0x7f),
                    at(key, "headers") + "." + name + ": a value on one line");
            require(!name.equalsIgnoreCase("content-type") && !name.equalsIgnoreCase("content-length")
                    && !name.equalsIgnoreCase("host"),
                    at(key, "headers") + "." + name + ": set by the output itself");
        });
        return new OtlpLogsOutput(logs, headers, "queryapigate", version, instanceId, timeout.toJavaDuration(), json);
    }

    private static Path file(String key, String path) {
        if (path == null) {
            return null;
        }
        Path p = Path.of(path);
        require(Files.isRegularFile(p) && Files.isReadable(p), key + ": " + path + " is not a readable file");
        return p;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }

    private static String localHostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "-";
        }
    }

    @JsonProperty
    public String getType() {
        return type;
    }

    @JsonProperty
    public void setType(String type) {
        this.type = type;
    }

    @JsonProperty
    public String getUrl() {
        return url;
    }

    @JsonProperty
    public void setUrl(String url) {
        this.url = url;
    }

    @JsonProperty
    public int getFacility() {
        return facility;
    }

    @JsonProperty
    public void setFacility(int facility) {
        this.facility = facility;
    }

    @JsonProperty
    public String getHostname() {
        return hostname;
    }

    @JsonProperty
    public void setHostname(String hostname) {
        this.hostname = hostname;
    }

    @JsonProperty
    public String getCaFile() {
        return caFile;
    }

    @JsonProperty
    public void setCaFile(String caFile) {
        this.caFile = caFile;
    }

    @JsonProperty
    public String getClientCert() {
        return clientCert;
    }

    @JsonProperty
    public void setClientCert(String clientCert) {
        this.clientCert = clientCert;
    }

    @JsonProperty
    public String getClientKey() {
        return clientKey;
    }

    @JsonProperty
    public void setClientKey(String clientKey) {
        this.clientKey = clientKey;
    }

    @JsonProperty
    public String getEndpoint() {
        return endpoint;
    }

    @JsonProperty
    public void setEndpoint(String endpoint) {
        this.endpoint = endpoint;
    }

    @JsonProperty
    public Map<String, String> getHeaders() {
        return headers;
    }

    @JsonProperty
    public void setHeaders(Map<String, String> headers) {
        this.headers = headers == null ? new LinkedHashMap<>() : headers;
    }

    @JsonProperty
    public int getBatchSize() {
        return batchSize;
    }

    @JsonProperty
    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    @JsonProperty
    public Duration getPollInterval() {
        return pollInterval;
    }

    @JsonProperty
    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    @JsonProperty
    public Duration getRetryMax() {
        return retryMax;
    }

    @JsonProperty
    public void setRetryMax(Duration retryMax) {
        this.retryMax = retryMax;
    }

    @JsonProperty
    public Duration getLease() {
        return lease;
    }

    @JsonProperty
    public void setLease(Duration lease) {
        this.lease = lease;
    }

    @JsonProperty
    public Duration getTimeout() {
        return timeout;
    }

    @JsonProperty
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
