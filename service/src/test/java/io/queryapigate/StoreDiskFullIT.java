package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingGatewayProcess;
import io.queryapigate.testing.TestingLoad;
import io.queryapigate.testing.TestingLoad.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The SQLite store's volume full (a 16 MB tmpfs mounted under target/, filled up by a file): writes through the API
 * answer 503 {@code store_full} with {@code Retry-After} and raise the {@code store_full} alert; reads and query calls
 * keep working; the store passes {@code PRAGMA integrity_check}; once the file is deleted writes work again and the
 * events held back meanwhile are written. Mounting needs root: without it the test fails with {@code CI=true} and is
 * skipped otherwise, saying so.
 */
class StoreDiskFullIT {
    private static final String ADMIN = TestingConfig.ADMIN_KEY;

    @Test
    void writesFailClearlyReadsWorkNothingCorruptsAndItRecovers() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root) {
            String message = "StoreDiskFullIT mounts a tmpfs and needs root; not run as " + System.getProperty("user.name");
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        Path volume = Path.of("target", "qag-diskfull-" + UUID.randomUUID().toString().substring(0, 8))
                .toAbsolutePath();
        Files.createDirectories(volume);
        Processes.Output mounted = Processes.run(30, "mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs",
                volume.toString());
        assertThat(mounted.exit()).as(mounted.out()).isZero();
        Path filler = volume.resolve("filler");
        try {
            Path db = volume.resolve("queryapigate.db");
            try (TestingGatewayProcess gateway = TestingGatewayProcess.start(TestingConfig.write(
                    TestingConfig.demoConnection(), "store:\n  url: jdbc:sqlite:" + db + "\n"))) {
                run(gateway, db, filler);
            }
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                rs.next();
                assertThat(rs.getString(1)).as("integrity after the stop").isEqualTo("ok");
            }
        } finally {
            Files.deleteIfExists(filler);
            Processes.Output unmounted = Processes.run(30, "umount", volume.toString());
            if (unmounted.exit() != 0) {
                Processes.run(30, "umount", "-l", volume.toString());
            }
        }
    }

    private static void run(TestingGatewayProcess gateway, Path db, Path filler) throws Exception {
        Http http = gateway.http();
        Reply saved = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "before", "sql",
                "SELECT 1 AS one", "connection_name", "demo", "publish", true)));
        assertThat(saved.status()).as(saved.body()).isEqualTo(201);
        String key = http.key("reader", Map.of("connections", List.of("demo"), "queries", List.of("before")));
        String run = "df-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        try (TestingLoad calls = TestingLoad.start(2, n -> http.request("GET", "/q/before", key, null,
                "X-Request-Id", run + n))) {
            long fullAt = System.currentTimeMillis();
            fill(filler);
            String padding = "x".repeat(40_000);
            List<Reply> writes = new ArrayList<>();
            for (int i = 0; i < 60 && writes.stream().noneMatch(w -> w.status() == 503); i++) {
                writes.add(http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "full_" + i, "sql",
                        "SELECT 1 AS one -- " + padding, "connection_name", "demo", "publish", true))));
            }
            Reply refused = writes.getLast();
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.json().path("code").asText()).isEqualTo("store_full");
            assertThat(refused.header("Retry-After")).isNotNull();
            assertThat(writes).as("no write answered 500").noneMatch(w -> w.status() == 500);
            Reply read = http.get("/api/v1/queries", ADMIN);
            assertThat(read.status()).as("reads while the disk is full: " + read.body()).isEqualTo(200);
            Reply alerts = http.get("/api/v1/alerts", ADMIN);
            assertThat(alerts.status()).as(alerts.body()).isEqualTo(200);
            assertThat(alerts.body()).contains("store_full");
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                rs.next();
                assertThat(rs.getString(1)).as("integrity while full").isEqualTo("ok");
            }
            Thread.sleep(1_000);
            Files.delete(filler);
            long freedAt = System.currentTimeMillis();
            Reply again = null;
            for (int i = 0; i < 100; i++) {
                again = http.post("/api/v1/queries", ADMIN, Http.json(Map.of("name", "after_" + i, "sql",
                        "SELECT 1 AS one", "connection_name", "demo", "publish", true)));
                if (again.status() == 201) {
                    break;
                }
                Thread.sleep(100);
            }
            long recovered = System.currentTimeMillis() - freedAt;
            List<Outcome> outcomes = calls.stop();
            long answered = TestingLoad.count(outcomes, o -> o.status() > 0);
            long events = 0;
            for (int i = 0; i < 100 && events < answered; i++) {
                Thread.sleep(100);
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                        Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT count(*) FROM events WHERE request_id LIKE '" + run
                                + "%'")) {
                    rs.next();
                    events = rs.getLong(1);
                }
            }
            System.out.printf("store disk full: writes before the refusal %d, refused with %d %s; calls while full"
                    + " %s (longest %d ms); writes work again %d ms after space returned; events answered %d,"
                    + " written %d (full for %d ms)%n", writes.size() - 1, refused.status(),
                    refused.json().path("code").asText(), TestingLoad.tally(outcomes), TestingLoad.longest(outcomes),
                    recovered, answered, events, freedAt - fullAt);
            assertThat(again.status()).as("a write after space returned: " + again.body()).isEqualTo(201);
            assertThat(outcomes).as("query calls while the disk is full").allMatch(o -> o.status() == 200);
            assertThat(events).as("events held back are written once space returns").isEqualTo(answered);
        }
    }

    /** Writes {@code filler} until the volume is full. */
    private static void fill(Path filler) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("space")) {
                throw full;
            }
        }
    }
}
