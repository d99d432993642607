package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.events.EventLog;
import io.queryapigate.store.EventRow;
import io.queryapigate.store.Store;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/** The event log: nothing lost on a graceful stop, refused and failed calls included; retention; bytes per event. */
class EventLogIT {
    @Test
    void everyCallIsAnEventAfterAGracefulStop() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
        DropwizardTestSupport<GatewayConfiguration> app =
                new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        int calls = 0;
        try {
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            for (int i = 1; i <= 60; i++) {
                http.get("/q/film?film_id=" + i, TestingConfig.ADMIN_KEY);
                calls++;
            }
            for (int i = 0; i < 10; i++) {
                assertThat(http.get("/q/film?film_id=oops", TestingConfig.ADMIN_KEY).status()).isEqualTo(400);
                assertThat(http.post("/execute_sql", TestingConfig.ADMIN_KEY, Http.json(Map.of("sql",
                        "DELETE FROM film", "connection_name", "demo"))).status()).isEqualTo(403);
                assertThat(http.post("/execute_sql", TestingConfig.ADMIN_KEY, Http.json(Map.of("sql",
                        "SELECT * FROM no_such_table", "connection_name", "demo"))).status()).isEqualTo(500);
                calls += 3;
            }
        } finally {
            app.after();
        }
        Jdbi store = Jdbi.create("jdbc:sqlite:" + config.getParent().resolve("queryapigate.db"));
        long events = store.withHandle(h -> h.createQuery("SELECT count(*) FROM events").mapTo(Long.class).one());
        assertThat(events).isEqualTo(calls);
        long refused = store.withHandle(h -> h.createQuery("SELECT count(*) FROM events WHERE status = 403")
                .mapTo(Long.class).one());
        assertThat(refused).isEqualTo(10);
    }

    @Test
    void theHistoryHoldsTheRunsStillQueuedInThisProcess() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed());
        DropwizardTestSupport<GatewayConfiguration> app = new DropwizardTestSupport<>(GatewayApplication.class,
                config.toString(), ConfigOverride.config("events.flushInterval", "10 minutes"));
        app.before();
        try {
            Http http = new Http("http://127.0.0.1:" + app.getLocalPort());
            for (int i = 1; i <= 3; i++) {
                assertThat(http.get("/q/film?film_id=" + i, TestingConfig.ADMIN_KEY).status()).isEqualTo(200);
            }
            // the writer sleeps for ten minutes: only a flush before the read puts the runs in the answer
            JsonNode history = http.get("/api/v1/queries/film/history", TestingConfig.ADMIN_KEY).json();
            assertThat(history.get("items")).hasSize(3);
        } finally {
            app.after();
        }
    }

    @Test
    void retentionDeletesOldEventsAndAnEventTakesFewBytes() throws Exception {
        Path home = Files.createTempDirectory("qag-events-");
        String url = "jdbc:sqlite:" + home.resolve("queryapigate.db");
        Store.migrate(url, null, null);
        Jdbi jdbi = Jdbi.create(url);
        jdbi.installPlugin(new org.jdbi.v3.sqlobject.SqlObjectPlugin());
        EventLog log = new EventLog(jdbi, 100_000, Duration.ofMillis(50), 50, Duration.ofHours(24),
                Clock.systemUTC(), new MetricRegistry());
        long empty = usedBytes(jdbi); // the migrated store's own tables and indexes, a page or more each
        long now = System.currentTimeMillis();
        int n = 20_000;
        log.start();
        for (int i = 0; i < n; i++) {
            // a day and a bit old for the first thousand: the retention sweep must take them
            long at = i < 1_000 ? now - Duration.ofHours(25).toMillis() : now - i;
            log.record(new EventRow(at, "req" + Long.toHexString(0x1000_0000L + i), 7, 3L + (i % 5), 1, null,
                    "demo", 200, 1 + i % 40, 400 + i % 900, 180 + i % 700, null, null));
        }
        log.stop();
        log.sweep();
        jdbi.useHandle(h -> h.execute("PRAGMA wal_checkpoint(TRUNCATE)"));
        long total = jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM events").mapTo(Long.class).one());
        // pages in use: the free list holds the run history's trimmed pages, which the next batches reuse
        long bytes = usedBytes(jdbi) - empty;
        // the run history holds the newest 50 of the single version; the rest of the file is the event log
        System.out.printf("event log on SQLite: %d events, %d bytes of pages they use in the store file, %.0f bytes per event%n",
                total, bytes, bytes / (double) total);
        assertThat(total).as("events older than 24 h are swept").isEqualTo(n - 1_000);
        assertThat(bytes / (double) total).as("bytes per event (the original: about 570)").isLessThanOrEqualTo(85);
    }

    private static long usedBytes(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("SELECT (page_count - freelist_count) * page_size"
                + " FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()").mapTo(Long.class).one());
    }
}
