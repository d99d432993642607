package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.store.EventBatchWriter;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import io.queryapigate.testing.TestingSse;
import io.queryapigate.testing.TestingSse.Event;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /events} on a real PostgreSQL store shared by two instances whose readers poll only every 30 s, so every
 * event that arrives sooner was woken by {@code NOTIFY}: the contract on one instance; both instances writing at
 * once, each stream seeing every call exactly once and in id order; and a batch committing after a later one (the
 * out-of-order commit a reader remembering only its highest id would skip) still delivered, before the later one.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LiveEventsPostgresIT extends LiveEventsContract {
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_live");
    private static final String STORE = "store:\n  url: " + PG.url() + "\n  user: " + PG.user() + "\n  password: "
            + PG.password() + "\n";
    private static final DropwizardAppExtension<GatewayConfiguration> A = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.withEvents(TestingConfig.write(TestingConfig.demoConnection(),
                    TestingConfig.filmSeed() + STORE), live("30s")).toString());
    private static final DropwizardAppExtension<GatewayConfiguration> B = new DropwizardAppExtension<>(
            GatewayApplication.class, TestingConfig.withEvents(TestingConfig.write(TestingConfig.demoConnection(),
                    STORE), live("30s")).toString());

    @AfterAll
    static void drop() {
        PG.dropDatabase();
    }

    @Override
    String base() {
        return "http://127.0.0.1:" + A.getLocalPort();
    }

    private static String baseB() {
        return "http://127.0.0.1:" + B.getLocalPort();
    }

    @Override
    IntSupplier streams() {
        return () -> gauge(A.getEnvironment());
    }

    @Override
    com.codahale.metrics.MetricRegistry metrics() {
        return A.getEnvironment().metrics();
    }

    @Test
    void twoInstancesWritingAtOnceEachStreamSeesEveryCallOnceInIdOrder() throws Exception {
        String[] key = filmKey();
        Http a = http();
        Http b = new Http(baseB());
        int perWriter = 150;
        try (TestingSse onA = open("/events", key[1]);
                TestingSse onB = TestingSse.open(baseB(), "/events", key[1]);
                ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor()) {
            assertThat(onB.status()).isEqualTo(200);
            List<Future<List<String>>> written = new ArrayList<>();
            for (Http instance : List.of(a, b, a, b)) {
                written.add(writers.submit(() -> {
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < perWriter; i++) {
                        ids.add(film(instance, key[1], 1 + i % 5));
                    }
                    return ids;
                }));
            }
            List<String> all = new ArrayList<>();
            for (Future<List<String>> f : written) {
                all.addAll(f.get());
            }
            for (TestingSse stream : List.of(onA, onB)) {
                List<Event> seen = stream.take(all.size(), Duration.ofSeconds(60));
                List<String> ids = requestIds(seen);
                assertThat(new HashSet<>(ids)).as("every call, none twice").hasSize(all.size())
                        .containsExactlyInAnyOrderElementsOf(all);
                for (int i = 1; i < seen.size(); i++) {
                    assertThat(seen.get(i).id()).isGreaterThan(seen.get(i - 1).id());
                }
                Thread.sleep(300);
                assertThat(stream.drain()).isEmpty();
            }
        }
    }

    @Test
    void aBatchCommittingAfterALaterOneIsDeliveredFirstNotSkipped() throws Exception {
        String[] key = filmKey();
        try (TestingSse stream = open("/events", key[1]);
                Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password())) {
            long keyId;
            try (PreparedStatement s = c.prepareStatement("SELECT id FROM api_keys WHERE name = ?")) {
                s.setString(1, key[0]);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    keyId = r.getLong(1);
                }
            }
            c.setAutoCommit(false);
            long lateId;
            try (Statement s = c.createStatement()) {
                s.execute(EventBatchWriter.WRITING); // as a batch of a third instance, slow to commit
                try (ResultSet r = s.executeQuery("INSERT INTO events (at_ms, request_id, key_id, status, rows_out,"
                        + " duration_us, bytes_out) VALUES (" + System.currentTimeMillis() + ", 'rq-late', " + keyId
                        + ", 200, 0, 1, 0) RETURNING id")) {
                    r.next();
                    lateId = r.getLong(1);
                }
            }
            String later = film(key[1], 3); // its batch takes a higher id and commits first
            try (Connection check = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                    PreparedStatement s = check.prepareStatement("SELECT id FROM events WHERE request_id = ?")) {
                s.setString(1, later);
                await("the later call committed", () -> {
                    try (ResultSet r = s.executeQuery()) {
                        return r.next() && r.getLong(1) > lateId;
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            assertThat(stream.next(Duration.ofSeconds(1))).as("nothing past an uncommitted id").isNull();
            c.commit();
            List<Event> seen = stream.take(2, WAIT);
            assertThat(requestIds(seen)).containsExactly("rq-late", later);
            assertThat(seen.get(0).id()).isEqualTo(lateId);
            Thread.sleep(300);
            assertThat(stream.drain()).isEmpty();
        }
    }

    @Test
    void notifyWakesTheReaderLongBeforeItsPoll() throws Exception {
        String[] key = filmKey();
        try (TestingSse onB = TestingSse.open(baseB(), "/events", key[1])) {
            Thread.sleep(200);
            long start = System.nanoTime();
            String id = film(key[1], 2);
            assertThat(requestIds(onB.take(1, Duration.ofSeconds(5)))).containsExactly(id);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the other instance, woken by NOTIFY")
                    .isLessThan(Duration.ofSeconds(3));
        }
    }

}
