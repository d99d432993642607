package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditRow;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingOtelCollector;
import io.queryapigate.testing.TestingSyslog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A backlog of 10,000 entries (an output added to a store with history, or a long outage) is caught up by every
 * output within two minutes, each in batches of 500; prints how long each took (docs/audit.md quotes it).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SiemBacklogIT {
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), "auditOutputs:\n"
            + "  mutual:\n    type: syslog\n    url: tls://" + TestingSyslog.mtls() + "\n    caFile: "
            + TestingSyslog.caFile() + "\n    clientCert: " + TestingSyslog.clientCert() + "\n    clientKey: "
            + TestingSyslog.clientKey() + "\n"
            + "  plain:\n    type: syslog\n    url: tcp://" + TestingSyslog.tcp() + "\n"
            + "  collector:\n    type: otlp\n    endpoint: " + TestingOtelCollector.url() + "\n");
    private static final DropwizardAppExtension<GatewayConfiguration> APP =
            new DropwizardAppExtension<>(GatewayApplication.class, CONFIG.toString());

    @Test
    void aBacklogIsCaughtUp() throws Exception {
        Http http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        Jdbi jdbi = Jdbi.create("jdbc:sqlite:" + CONFIG.getParent().resolve("queryapigate.db") + "?busy_timeout=10000")
                .installPlugin(new SqlObjectPlugin());
        String json = "{\"action\":\"key.update\",\"target\":\"key:k\",\"before\":{\"rate_limit\":\"10/minute\"},"
                + "\"after\":{\"rate_limit\":\"20/minute\"},\"pad\":\"" + "x".repeat(200) + "\"}";
        int n = 10_000;
        List<AuditRow> rows = new ArrayList<>();
        for (long s = 1; s <= n; s++) {
            rows.add(new AuditRow(s, System.currentTimeMillis(), "admin", "perf", null, "key.update", "key:k",
                    "default", null, json, "sha256:" + "a".repeat(64), "sha256:" + "b".repeat(64)));
        }
        // appended before delivery looks: each output starts from nothing and catches up with n entries
        jdbi.useTransaction(h -> {
            rows.forEach(r -> h.attach(AuditDao.class).insert(r));
            h.createUpdate("UPDATE audit_chain SET seq = :n WHERE name = 'head'").bind("n", n).execute();
        });
        long t0 = System.nanoTime();
        java.util.Map<String, Long> done = new java.util.HashMap<>();
        while (done.size() < 3 && System.nanoTime() - t0 < 120_000_000_000L) {
            for (JsonNode o : http.get("/api/v1/audit/delivery", TestingConfig.ADMIN_KEY).json().get("items")) {
                if (o.get("delivered_seq").asLong(-1) == n && !done.containsKey(o.get("output").asText())) {
                    done.put(o.get("output").asText(), (System.nanoTime() - t0) / 1_000_000);
                }
            }
            Thread.sleep(20);
        }
        System.out.println("SiemBacklogIT: " + n + " entries caught up after (ms) " + done);
        assertThat(done).containsOnlyKeys("mutual", "plain", "collector");
    }
}
