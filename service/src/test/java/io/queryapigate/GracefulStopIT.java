package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.testing.Http;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingGatewayProcess;
import io.queryapigate.testing.TestingLoad;
import io.queryapigate.testing.TestingLoad.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM under load, with the graceful stop configured as config/quickstart.yml does ({@code health:
 * delayedShutdownHandlerEnabled}, {@code shutdownWaitPeriod}; {@code server.shutdownGracePeriod}): {@code /health}
 * answers 503 {@code stopping} at once while calls are still served, so a load balancer stops sending first; every
 * call in flight at SIGTERM completes; later ones are refused only once the connectors close; every answered call's
 * event is in the store after the exit.
 */
class GracefulStopIT {
    private static final String ADMIN = TestingConfig.ADMIN_KEY;
    private static final String SLOW = "SELECT count(*) AS n FROM range(30000000) t(i) WHERE i % 7 = 3";

    @Test
    void inFlightCallsCompleteTheHealthCheckTurnsFirstAndEventsAreWritten() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(),
                "health:\n  delayedShutdownHandlerEnabled: true\n  shutdownWaitPeriod: 3s\n");
        Files.writeString(config, Files.readString(config).replace("server:\n",
                "server:\n  shutdownGracePeriod: 20s\n"));
        String run = "gs-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        try (TestingGatewayProcess gateway = TestingGatewayProcess.start(config)) {
            Http http = gateway.http();
            assertThat(http.sql(ADMIN, "demo", SLOW).status()).isEqualTo(200);
            TestingLoad health = TestingLoad.start(1, n -> {
                sleep(25);
                return http.get("/health", null);
            });
            TestingLoad load = TestingLoad.start(4, n -> http.request("POST", "/execute_sql", ADMIN,
                    Http.json(java.util.Map.of("sql", SLOW, "connection_name", "demo")), "X-Request-Id", run + n));
            Thread.sleep(2_000);
            long sigterm = System.currentTimeMillis();
            gateway.terminate();
            int exit = gateway.waitForExit(60);
            long exited = System.currentTimeMillis();
            List<Outcome> calls = load.stop();
            List<Outcome> checks = health.stop();

            List<Outcome> inFlight = calls.stream().filter(o -> o.startMs() < sigterm && o.endMs() > sigterm)
                    .toList();
            List<Outcome> after = calls.stream().filter(o -> o.startMs() >= sigterm).toList();
            long firstUnhealthy = checks.stream().filter(o -> o.status() == 503).mapToLong(Outcome::endMs).min()
                    .orElse(Long.MAX_VALUE);
            long firstRefused = calls.stream().filter(o -> o.status() != 200).mapToLong(Outcome::endMs).min()
                    .orElse(Long.MAX_VALUE);
            long answered = TestingLoad.count(calls, o -> o.status() > 0);
            long events;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + gateway.home().resolve("queryapigate.db"));
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM events WHERE request_id LIKE '" + run + "%'")) {
                rs.next();
                events = rs.getLong(1);
            }
            System.out.printf("graceful stop: exit %d after %d ms; calls in flight at SIGTERM %d, completed %s;"
                    + " started after SIGTERM %s; /health 503 after %d ms, first refused call after %d ms;"
                    + " answered %d, events written %d%n", exit, exited - sigterm, inFlight.size(),
                    TestingLoad.tally(inFlight), TestingLoad.tally(after), firstUnhealthy - sigterm,
                    firstRefused == Long.MAX_VALUE ? -1 : firstRefused - sigterm, answered, events);
            assertThat(inFlight).as("calls in flight at SIGTERM").isNotEmpty()
                    .allMatch(o -> o.status() == 200, "completed with 200");
            assertThat(firstUnhealthy).as("/health turned 503 within 1 s").isLessThan(sigterm + 1_000);
            assertThat(firstUnhealthy).as("/health turned before any call was refused").isLessThan(firstRefused);
            // a request that reaches Jetty while it stops is refused with 503 unavailable (in the envelope): a clean
            // refusal like a closed connection, never a failure of a call that was taken
            assertThat(calls).as("every call is answered 200 or refused (closed connection, 503 unavailable)")
                    .allMatch(o -> o.status() == 200 || o.status() == -1
                            || o.status() == 503 && "unavailable".equals(o.code()));
            long completed = TestingLoad.count(calls, o -> o.status() == 200);
            assertThat(events).as("every completed call's event written before the exit")
                    .isBetween(completed, answered);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
