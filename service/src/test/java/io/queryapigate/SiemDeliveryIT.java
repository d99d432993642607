package io.queryapigate;

import static io.queryapigate.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import io.queryapigate.testing.AuditRows;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingAdmins;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingOtelCollector;
import io.queryapigate.testing.TestingSyslog;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The audit log delivered to real receivers (SQLite store): the test's rsyslog over plain TCP, TLS and mutual TLS,
 * the OpenTelemetry Collector over OTLP/HTTP, and a receiver of the test's own that is down, then up, then down and up
 * again: every entry arrives, exactly once in these normal runs, in RFC 5424 with its structured data. Attacks: a
 * client without its certificate against mutual TLS, a server certificate from a CA not trusted or naming another
 * host, an OTLP endpoint that is down or answers 404, deliver nothing and say why in {@code /api/v1/audit/delivery};
 * a target that tries to close the structured data stays inside it. Entries are written straight into
 * {@code audit_log} (the chain's correctness is the audit package's).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SiemDeliveryIT {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 12);
    private static final TestingSyslog.Private OUTAGE = TestingSyslog.privateTcp();
    /** This host's name, which resolves to 127.0.0.1 but is not in the test server certificate (localhost is). */
    private static final String LOOPBACK_NAME = loopbackName();
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), "auditOutputs:\n"
            + output("plain", "type: syslog\n    url: tcp://" + TestingSyslog.tcp())
            + output("tls", "type: syslog\n    url: tls://" + TestingSyslog.tls() + "\n    caFile: "
                    + TestingSyslog.caFile())
            + output("mutual", "type: syslog\n    url: tls://" + TestingSyslog.mtls() + "\n    caFile: "
                    + TestingSyslog.caFile() + "\n    clientCert: " + TestingSyslog.clientCert() + "\n    clientKey: "
                    + TestingSyslog.clientKey() + "\n    hostname: siem-it-host")
            + output("collector", "type: otlp\n    endpoint: " + TestingOtelCollector.url() + "\n    headers:\n"
                    + "      X-Test-Run: " + RUN)
            + output("nocert", "type: syslog\n    url: tls://" + TestingSyslog.mtls() + "\n    caFile: "
                    + TestingSyslog.caFile())
            + output("wrongca", "type: syslog\n    url: tls://" + TestingSyslog.tls() + "\n    caFile: "
                    + TestingSyslog.clientCert())
            + output("outage", "type: syslog\n    url: tcp://" + OUTAGE.address())
            + output("otlpdown", "type: otlp\n    endpoint: http://" + TestingSyslog.privateTcp().address())
            + output("otlp404", "type: otlp\n    endpoint: " + TestingOtelCollector.url() + "/nope")
            + output("wrongname", "type: syslog\n    url: tls://" + LOOPBACK_NAME + ":"
                    + TestingSyslog.tls().split(":")[1] + "\n    caFile: " + TestingSyslog.caFile()));
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());
    private static final Pattern SYSLOG = Pattern.compile("^<110>1 \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"
            + " (\\S+) queryapigate \\d+ (\\S+) \\[meta sequenceId=\"(\\d+)\"]\\[queryapigate@32473 seq=\"(\\d+)\""
            + " actor=\"([^\"]*)\" actor_kind=\"admin\" target=\"((?:[^\"\\\\]|\\\\.)*)\" workspace=\"default\""
            + " request_id=\"req-\\d+\" address=\"127.0.0.1\" prev_hash=\"sha256:p\\d+\" hash=\"sha256:h\\d+\"]"
            + " \uFEFF(.*)$");
    private static Http http;
    private static Jdbi store;
    /** The seqs this test appended, in order (the application may append entries of its own in between). */
    private static final List<Long> MINE = new java.util.ArrayList<>();

    private static String loopbackName() {
        try {
            String name = java.net.InetAddress.getLocalHost().getHostName();
            assertThat(java.net.InetAddress.getByName(name).isLoopbackAddress()).as("this test needs the host's name ("
                    + name + ") to resolve to a loopback address, as on the project's machines").isTrue();
            assertThat(name).isNotEqualTo("localhost");
            return name;
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static String output(String name, String body) {
        return "  " + name + ":\n    " + body + "\n    pollInterval: 50ms\n    retryMax: 300ms\n    batchSize: 4\n";
    }

    @BeforeAll
    static void connect() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        store = Jdbi.create("jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db") + "?busy_timeout=10000")
                .installPlugin(new SqlObjectPlugin());
    }

    @AfterAll
    static void stopReceiver() {
        OUTAGE.close();
    }

    @Test
    @Order(1)
    void everyEntryReachesEveryWorkingReceiverOnceAndTheOutageIsCaughtUp() {
        append(6);
        await("the down receiver's failure is reported", () -> output("outage").path("last_error").isTextual());
        JsonNode down = output("outage");
        assertThat(down.get("delivered_seq").asLong()).isZero();
        assertThat(down.get("behind").asLong()).isEqualTo(head());
        assertThat(down.get("oldest_undelivered_at").asText()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
        assertThat(down.get("last_error").asText()).contains("Connect");

        OUTAGE.start();
        await("the receiver that came back gets the backlog", () -> seqs(OUTAGE.received()).size() == MINE.size());
        long first = head();
        await("its cursor moved", () -> output("outage").get("delivered_seq").asLong() == first);
        OUTAGE.stop();
        append(5);
        await("the second outage is noticed", () -> output("outage").get("last_error").isTextual()
                && output("outage").get("behind").asLong() == head() - first);
        OUTAGE.start();
        await("everything arrives after the second outage", () -> seqs(OUTAGE.received()).size() == MINE.size());
        assertThat(seqs(OUTAGE.received())).as("each entry exactly once").containsExactlyElementsOf(MINE);

        for (String port : List.of("tcp", "tls", "mtls")) {
            await(port + " received every entry", () -> seqs(TestingSyslog.received(port)).size() >= MINE.size());
            assertThat(seqs(TestingSyslog.received(port))).as(port).containsExactlyElementsOf(MINE);
        }
        await("the collector received every entry",
                () -> TestingOtelCollector.logRecords(RUN).size() >= MINE.size());
        assertThat(TestingOtelCollector.logRecords(RUN)).hasSize(MINE.size());
        for (String name : List.of("plain", "tls", "mutual", "collector", "outage")) {
            await(name + " is caught up", () -> output(name).get("behind").asLong() == 0);
            JsonNode o = output(name);
            assertThat(o.get("delivered_seq").asLong()).isEqualTo(head());
            assertThat(o.get("head_seq").asLong()).isEqualTo(head());
            assertThat(o.get("last_error").isNull()).as(name + ": " + o).isTrue();
            assertThat(o.get("oldest_undelivered_at").isNull()).isTrue();
            assertThat(o.get("last_delivered_at").asText()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
            assertThat(o.get("instance").asText()).as("the instance as /api/v1/instances names it").isEqualTo(self());
        }
    }

    @Test
    @Order(2)
    void messagesAreRfc5424WithTheEntryAsStructuredDataAndItsJsonVerbatim() {
        List<String> lines = TestingSyslog.lines(TestingSyslog.received("mtls"), RUN);
        assertThat(lines).hasSize(MINE.size());
        for (String line : lines) {
            Matcher m = SYSLOG.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            long n = Long.parseLong(m.group(4));
            assertThat(m.group(1)).isEqualTo("siem-it-host");
            assertThat(m.group(2)).as("MSGID: the action, printable ASCII only").isEqualTo("key.create\"]x");
            assertThat(m.group(3)).isEqualTo(Long.toString(n));
            assertThat(m.group(5)).isEqualTo("alice " + RUN);
            assertThat(m.group(6)).as("a ] or \" in a value is escaped, never closing the element")
                    .isEqualTo("key:" + RUN + "-" + n + "\\\"\\] [meta sequenceId=\\\"999\\\"\\]");
            assertThat(m.group(7)).isEqualTo(entryJson(n));
        }
        JsonNode record = TestingOtelCollector.logRecords(RUN).getFirst();
        Map<String, String> attributes = new HashMap<>();
        record.get("attributes").forEach(a -> attributes.put(a.get("key").asText(),
                a.get("value").elements().next().asText()));
        long n = Long.parseLong(attributes.get("queryapigate.audit.seq"));
        assertThat(record.get("body").get("stringValue").asText()).isEqualTo(entryJson(n));
        assertThat(attributes).containsEntry("queryapigate.audit.action", "key.create\"] x")
                .containsEntry("queryapigate.audit.actor", "alice " + RUN)
                .containsEntry("queryapigate.audit.hash", "sha256:h" + n)
                .containsEntry("queryapigate.audit.prev_hash", "sha256:p" + n)
                .containsEntry("queryapigate.audit.request_id", "req-" + n);
        assertThat(record.get("severityText").asText()).isEqualTo("INFO");
        assertThat(Long.parseLong(record.get("timeUnixNano").asText())).isEqualTo((1_700_000_000_000L + n) * 1_000_000);
    }

    @Test
    @Order(3)
    void aRefusedClientCertificateOrAnUntrustedServerDeliversNothingAndSaysWhy() {
        for (String name : List.of("nocert", "wrongca")) {
            await(name + " reports its failure", () -> output(name).get("last_error").isTextual());
            JsonNode o = output(name);
            assertThat(o.get("delivered_seq").asLong()).as(name).isZero();
            assertThat(o.get("behind").asLong()).isEqualTo(head());
            assertThat(o.get("last_error_at").asText()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
            assertThat(o.get("target").asText()).startsWith("tls://127.0.0.1:");
        }
        assertThat(output("wrongca").get("last_error").asText()).contains("SSLHandshakeException");
        for (String name : List.of("otlpdown", "otlp404", "wrongname")) {
            await(name + " reports its failure", () -> output(name).get("last_error").isTextual());
            assertThat(output(name).get("delivered_seq").asLong()).as(name).isZero();
        }
        assertThat(output("otlpdown").get("last_error").asText()).contains("ConnectException");
        assertThat(output("otlp404").get("last_error").asText()).contains("the OTLP endpoint answered 404");
        assertThat(output("wrongname").get("last_error").asText()).as("the certificate must name the host")
                .contains("SSLHandshakeException").contains(LOOPBACK_NAME);
        JsonNode counters = new Http("http://127.0.0.1:" + APP.getAdminPort()).get("/metrics/json", null).json()
                .get("counters");
        assertThat(counters.get("audit.delivery.mutual.delivered").get("count").asLong()).isEqualTo(head());
        assertThat(counters.get("audit.delivery.nocert.delivered").get("count").asLong()).isZero();
        assertThat(counters.get("audit.delivery.nocert.failures").get("count").asLong()).isPositive();
        assertThat(counters.get("audit.delivery.outage.failures").get("count").asLong()).isPositive();
        // the mutual-TLS port took each entry from "mutual" only: "nocert"'s copies were refused, and nocert knows
        assertThat(seqs(TestingSyslog.received("mtls"))).containsExactlyElementsOf(MINE);
    }

    @Test
    @Order(4)
    void onlyAServerWideRoleSeesDelivery() {
        Http.Reply ok = http.get("/api/v1/audit/delivery", TestingConfig.ADMIN_KEY);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().get("items")).hasSize(10);
        assertThat(ok.json().get("items").get(3).get("target").asText())
                .isEqualTo(TestingOtelCollector.url() + "/v1/logs").doesNotContain(RUN);
        String auditor = TestingAdmins.create(http, TestingConfig.ADMIN_KEY, "siem-auditor", "auditor");
        assertThat(http.get("/api/v1/audit/delivery", auditor).status()).isEqualTo(200);
        assertThat(http.post("/api/v1/workspaces", TestingConfig.ADMIN_KEY, "{\"name\": \"team\"}").status())
                .isEqualTo(201);
        String member = TestingAdmins.create(http, TestingConfig.ADMIN_KEY, "team-owner", null);
        assertThat(http.request("PUT", "/api/v1/workspaces/team/members/team-owner", TestingConfig.ADMIN_KEY,
                "{\"role\": \"owner\"}").status()).isEqualTo(200);
        http.get("/w/team/api/v1/audit/delivery", member).assertRefused(403, "role_forbidden");
        String key = http.key("siem-reader", Map.of());
        http.get("/api/v1/audit/delivery", key).assertRefused(403, "admin_only");
        http.get("/api/v1/audit/delivery", null).assertRefused(401, "unauthorized");
    }

    private static void append(int n) {
        for (int i = 0; i < n; i++) {
            MINE.add(AuditRows.append(store, seq -> new AuditRow(seq, 1_700_000_000_000L + seq, "admin",
                    "alice " + RUN, "127.0.0.1", "key.create\"] x", "key:" + RUN + "-" + seq
                    + "\"] [meta sequenceId=\"999\"]", "default", "req-" + seq, entryJson(seq), "sha256:p" + seq,
                    "sha256:h" + seq)));
        }
    }

    private static long head() {
        return store.onDemand(AuditDao.class).lastSeq();
    }

    private static String entryJson(long n) {
        return "{\"action\":\"key.create\",\"run\":\"" + RUN + "\",\"seq\":" + n + ",\"note\":\"caf\u00e9 \u2713\"}";
    }

    private static String self() {
        for (JsonNode i : http.get("/api/v1/instances", TestingConfig.ADMIN_KEY).json().get("items")) {
            if (i.get("this").asBoolean()) {
                return i.get("id").asText();
            }
        }
        throw new AssertionError("/api/v1/instances does not list this instance");
    }

    private static JsonNode output(String name) {
        Http.Reply r = http.get("/api/v1/audit/delivery", TestingConfig.ADMIN_KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        for (JsonNode o : r.json().get("items")) {
            if (o.get("output").asText().equals(name)) {
                return o;
            }
        }
        throw new AssertionError("no output " + name + " in " + r.body());
    }

    /** The seqs of this run's messages in a received file, in the order they arrived. */
    private static List<Long> seqs(Path file) {
        return TestingSyslog.seqs(file, RUN);
    }
}
