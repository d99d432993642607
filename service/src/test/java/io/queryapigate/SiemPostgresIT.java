package io.queryapigate;

import static io.queryapigate.testing.Waiting.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.store.AuditRow;
import io.queryapigate.testing.AuditRows;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingSyslog;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two gateway instances on one PostgreSQL store deliver one output: one of them holds the lease and delivers each
 * entry exactly once while entries keep coming in small batches; when it stops, it gives the lease back and the other
 * delivers the rest, again each entry once (duplicates are allowed only after a lease lapses, which a clean stop
 * avoids).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SiemPostgresIT {
    private static final String RUN = UUID.randomUUID().toString().substring(0, 12);
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_siem");
    private static final TestingSyslog.Private RECEIVER = TestingSyslog.privateTcp();
    private static final Path CONFIG = TestingConfig.write(TestingConfig.demoConnection(), "store:\n  url: "
            + PG.url() + "\n  user: " + PG.user() + "\n  password: " + PG.password() + "\n"
            + "auditOutputs:\n  siem:\n    type: syslog\n    url: tcp://" + RECEIVER.address() + "\n"
            + "    batchSize: 7\n    pollInterval: 20ms\n    retryMax: 200ms\n    timeout: 1s\n    lease: 3s\n");
    private static DropwizardTestSupport<GatewayConfiguration> first;
    private static DropwizardTestSupport<GatewayConfiguration> second;
    private static Jdbi store;
    /** The seqs this test appended, in order. */
    private static final List<Long> MINE = new java.util.ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        RECEIVER.start();
        store = Jdbi.create(PG.url(), PG.user(), PG.password()).installPlugin(new SqlObjectPlugin());
        first = new DropwizardTestSupport<>(GatewayApplication.class, CONFIG.toString());
        first.before();
        append(1);
        await("the first instance delivers", () -> seqs().size() == 1);
        second = new DropwizardTestSupport<>(GatewayApplication.class, CONFIG.toString());
        second.before();
    }

    @AfterAll
    static void stop() {
        if (second != null) {
            second.after();
        }
        if (first != null) {
            first.after();
        }
        RECEIVER.close();
        PG.dropDatabase();
    }

    @Test
    @Order(1)
    void oneInstanceDeliversEachEntryOnce() throws InterruptedException {
        for (int round = 0; round < 30; round++) {
            append(1 + round % 9);
            Thread.sleep(15);
        }
        long last = MINE.getLast();
        await("every entry arrives", () -> seqs().size() >= MINE.size());
        Thread.sleep(300); // room for a duplicate to show up
        assertThat(seqs()).as("each entry once, in order").containsExactlyElementsOf(MINE);
        JsonNode a = status(first);
        JsonNode b = status(second);
        assertThat(a.get("instance").asText()).as("both instances see one holder").isEqualTo(b.get("instance")
                .asText()).isEqualTo(self(first)).as("the first, which started alone").isNotEqualTo(self(second));
        await("the cursor is at the head", () -> status(second).get("behind").asLong() == 0);
        assertThat(status(second).get("delivered_seq").asLong()).isEqualTo(last);
    }

    @Test
    @Order(2)
    void whenTheHolderStopsTheOtherDeliversTheRest() throws InterruptedException {
        String holder = status(first).get("instance").asText();
        first.after();
        first = null;
        append(40);
        long last = MINE.getLast();
        await("the second instance delivers what followed", () -> seqs().size() >= MINE.size());
        Thread.sleep(300);
        assertThat(seqs()).containsExactlyElementsOf(MINE);
        JsonNode now = status(second);
        assertThat(now.get("instance").asText()).isNotEqualTo(holder).isEqualTo(self(second));
        assertThat(now.get("delivered_seq").asLong()).isEqualTo(last);
    }

    private static void append(int n) {
        for (int i = 0; i < n; i++) {
            MINE.add(AuditRows.append(store, seq -> new AuditRow(seq, System.currentTimeMillis(), "admin", "it", null,
                    "query.update", "query:" + RUN, "default", null, "{\"run\":\"" + RUN + "\",\"seq\":" + seq + "}",
                    "p" + seq, "h" + seq)));
        }
    }

    private static JsonNode status(DropwizardTestSupport<GatewayConfiguration> app) {
        Http.Reply r = new Http("http://127.0.0.1:" + app.getLocalPort()).get("/api/v1/audit/delivery",
                TestingConfig.ADMIN_KEY);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json().get("items").get(0);
    }

    /** The instance id {@code app} gives itself in /api/v1/instances. */
    private static String self(DropwizardTestSupport<GatewayConfiguration> app) {
        Http.Reply r = new Http("http://127.0.0.1:" + app.getLocalPort()).get("/api/v1/instances",
                TestingConfig.ADMIN_KEY);
        for (JsonNode i : r.json().get("items")) {
            if (i.get("this").asBoolean()) {
                return i.get("id").asText();
            }
        }
        throw new AssertionError("no instance of its own in " + r.body());
    }

    private static List<Long> seqs() {
        return TestingSyslog.seqs(RECEIVER.received(), RUN);
    }
}
