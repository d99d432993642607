package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * ClickHouse and Trino going away under load, through a real gateway (issue 23): a {@link TcpProxy} sits between the
 * gateway and the shared server and is cut (the server gone: connections closed, new ones refused) and restored, or
 * frozen (open connections stop answering) and unfrozen, while callers keep calling {@code /execute_sql} with a
 * short time limit. Each scenario asserts what the callers saw (503 {@code database_unavailable} while the server is
 * gone, 504 {@code query_timeout} for calls caught by a freeze, no call past its limit + 2 s), that the first call
 * after the server answers again succeeds within 2 s, that no query of the scenario is left on the server and that
 * the gateway holds no more connections to it than its pool; it prints its figures (docs/RELIABILITY.md).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HttpDatabaseOutageIT {
    private static final TestServers.Server CLICKHOUSE = TestServers.clickhouse();
    private static final TestServers.Server TRINO = TestServers.trino();
    private static final String RUN = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    private static final String SCHEMA = "qag_outage_" + RUN;
    private static final int CH_POOL = 8;
    private static final int TRINO_POOL = 3;
    /** The callers' time limit, seconds (the request's {@code timeout}). */
    private static final int LIMIT_S = 3;
    private static final long SLACK_MS = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient DIRECT = HttpClient.newHttpClient();
    private static final TcpProxy CH_PROXY = proxy(CLICKHOUSE);
    private static final TcpProxy TRINO_PROXY = proxy(TRINO);
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static Http http;
    private static String reader;

    private static TcpProxy proxy(TestServers.Server server) {
        try {
            return new TcpProxy(server.host(), server.port());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String config() {
        trino("CREATE SCHEMA memory." + SCHEMA, "CREATE TABLE memory." + SCHEMA + ".t (v integer)",
                "INSERT INTO memory." + SCHEMA + ".t VALUES (1)");
        return TestingConfig.write("  ch:\n    dialect: clickhouse\n    url: http://" + CH_PROXY.hostPort()
                + "\n    user: " + CLICKHOUSE.user() + "\n    poolSize: " + CH_POOL + "\n"
                + "  lake:\n    dialect: trino\n    url: jdbc:trino://" + TRINO_PROXY.hostPort() + "\n    user: "
                + TRINO.user() + "\n    poolSize: " + TRINO_POOL + "\n    properties:\n      trino.catalog: memory\n"
                + "      trino.schema: " + SCHEMA + "\n      trino.source: qag-outage-" + RUN + "\n", "").toString();
    }

    @BeforeAll
    static void key() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
        reader = http.key("reader", Map.of("connections", List.of("ch", "lake"), "adhoc_sql", true));
    }

    @AfterAll
    static void cleanUp() {
        CH_PROXY.close();
        TRINO_PROXY.close();
        trino("DROP TABLE memory." + SCHEMA + ".t", "DROP SCHEMA memory." + SCHEMA);
    }

    // ---------------------------------------------------------------- scenarios

    /** What starts or ends a fault. */
    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    /**
     * Starts {@code load}, lets it run 1.5 s, starts the fault, ends it after {@code faultMs}, lets the load run 3 s
     * more and returns what the callers saw.
     */
    private static Outcome underLoad(String name, Load load, Step fault, Step end, long faultMs) throws Exception {
        load.start();
        Thread.sleep(1_500);
        long down = System.nanoTime();
        fault.run();
        Thread.sleep(faultMs);
        end.run();
        long back = System.nanoTime();
        Thread.sleep(3_000);
        return Outcome.of(name, load.stop(), down, back);
    }

    @Test
    void clickHouseGoneUnderLoadFailsFastAndRecovers() throws Exception {
        Outcome o = underLoad("clickhouse cut 3 s", new Load("ch", "SELECT 1", "och" + RUN, CH_POOL),
                CH_PROXY::cut, CH_PROXY::restore, 3_000);
        o.assertFailedFastAndRecovered();
        assertNoneRunningOnClickHouse("qag-och" + RUN);
        assertConnectionsAtMost(CH_PROXY, CH_POOL);
    }

    @Test
    void clickHouseFrozenUnderLoadTimesOutKillsAndRecovers() throws Exception {
        // one second of work per call, so that a call is in flight when the network freezes
        Outcome o = underLoad("clickhouse frozen 4 s", new Load("ch", "SELECT sleep(1)", "ofz" + RUN, CH_POOL),
                CH_PROXY::freeze, CH_PROXY::unfreeze, (LIMIT_S + 1) * 1_000L);
        o.assertNoneLate();
        List<Call> caught = o.startedBefore(o.down()).stream().filter(c -> c.end > o.down()).toList();
        assertThat(caught).as("calls caught by the freeze").isNotEmpty();
        assertAnswered(caught, "200 null", "504 query_timeout");
        assertThat(caught).as("a frozen call times out").anyMatch(c -> c.status == 504);
        o.assertRecoveredWithin(SLACK_MS);
        assertNoneRunningOnClickHouse("qag-ofz" + RUN);
        assertConnectionsAtMost(CH_PROXY, CH_POOL);
    }

    @Test
    void trinoGoneUnderLoadFailsFastAndRecovers() throws Exception {
        Outcome o = underLoad("trino cut 2 s", new Load("lake", "SELECT count(*) FROM t", "otr" + RUN, TRINO_POOL),
                TRINO_PROXY::cut, TRINO_PROXY::restore, 2_000);
        o.assertFailedFastAndRecovered();
        assertNoneActiveOnTrino();
        assertConnectionsAtMost(TRINO_PROXY, TRINO_POOL * 2);
        assertTrinoStillRefusesWrites();
    }

    @Test
    void trinoFrozenTimesOutCancelsAndRecovers() throws Exception {
        // the frozen calls answer 503 when the driver's 2 s read timeout passes before their 3 s limit, else 504
        Outcome o = underLoad("trino frozen 4 s", new Load("lake", "SELECT count(*) FROM t", "otf" + RUN,
                TRINO_POOL), TRINO_PROXY::freeze, TRINO_PROXY::unfreeze, (LIMIT_S + 1) * 1_000L);
        o.assertNoneLate();
        assertAnswered(o.calls(), "200 null", "503 database_unavailable", "504 query_timeout");
        o.assertRecoveredWithin(SLACK_MS);
        assertNoneActiveOnTrino();
        assertConnectionsAtMost(TRINO_PROXY, TRINO_POOL * 2);
    }

    // ---------------------------------------------------------------- checks

    /** Each call answered one of {@code allowed} ({@code "<status> <code>"}, code {@code null} for a 200). */
    private static void assertAnswered(List<Call> calls, String... allowed) {
        for (Call c : calls) {
            assertThat(c.status + " " + c.code).as(c.toString()).isIn((Object[]) allowed);
        }
    }

    private static void assertNoneRunningOnClickHouse(String prefix) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String left;
        do {
            left = clickhouse("SELECT query_id FROM system.processes WHERE startsWith(query_id, '" + prefix + "')");
            if (left.isBlank()) {
                return;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("queries still running on ClickHouse 5 s after the scenario: " + left);
    }

    private static void assertNoneActiveOnTrino() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> active;
        do {
            active = trinoRows("SELECT query_id || ' ' || state FROM system.runtime.queries WHERE source = 'qag-outage-"
                    + RUN + "' AND state NOT IN ('FINISHED', 'FAILED')");
            if (active.isEmpty()) {
                return;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("queries still active on Trino 10 s after the scenario: " + active);
    }

    /** After the scenario, the gateway's open TCP connections through the proxy (from /proc/net/tcp). */
    private static void assertConnectionsAtMost(TcpProxy proxy, int most) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int open;
        do {
            open = established(proxy.port());
            if (open <= most) {
                System.out.printf("outage: %d connection(s) to the proxy on port %d after the scenario%n", open,
                        proxy.port());
                return;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(open + " connections to the proxy remain open, more than " + most);
    }

    private static int established(int port) throws IOException {
        String hexPort = String.format(Locale.ROOT, "%04X", port);
        int n = 0;
        for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(file);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                // the client side of a connection to the proxy: the remote address ends in :port, state 01
                if (f.length > 3 && f[2].endsWith(":" + hexPort) && f[3].equals("01")) {
                    n++;
                }
            }
        }
        return n;
    }

    private static void assertTrinoStillRefusesWrites() {
        // through the gateway the guard refuses a read-only caller's write first; the session's own read-only
        // enforcement after recovery is TrinoOutageTest's (a write sent as a read: NOT_READ_ONLY, nothing written)
        Reply write = http.sql(reader, "lake", "INSERT INTO t VALUES (2)");
        assertThat(write.status()).as(write.body()).isIn(400, 403);
        assertThat(trinoRows("SELECT count(*) FROM memory." + SCHEMA + ".t")).containsExactly("1");
    }

    // ---------------------------------------------------------------- load

    /** One answered call. */
    private record Call(long start, long end, int status, String code) {
        long millis() {
            return (end - start) / 1_000_000;
        }
    }

    /** Callers that call one statement in a loop until stopped. */
    private static final class Load {
        private final String connection;
        private final String sql;
        private final String marker;
        private final int callers;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        private final AtomicInteger ids = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();

        Load(String connection, String sql, String marker, int callers) {
            this.connection = connection;
            this.sql = sql;
            this.marker = marker;
            this.callers = callers;
        }

        /** Calls until every caller had one success (first calls on a busy machine are slow), then starts. */
        void start() throws InterruptedException {
            Load warm = new Load(connection, sql, marker + "w", callers).begin();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (warm.calls.stream().filter(c -> c.status == 200).count() < callers
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            warm.stop();
            begin();
        }

        private Load begin() {
            String body = Http.json(Map.of("sql", sql, "connection_name", connection, "timeout", LIMIT_S));
            for (int i = 0; i < callers; i++) {
                threads.add(Thread.ofPlatform().daemon().start(() -> {
                    while (!stop.get()) {
                        HttpRequest request = http.builder("/execute_sql", reader)
                                .header("Content-Type", "application/json")
                                .header("X-Request-Id", marker + "-" + ids.incrementAndGet())
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                        long start = System.nanoTime();
                        Reply r = http.send(request);
                        long end = System.nanoTime();
                        String code = r.status() == 200 ? null : code(r);
                        calls.add(new Call(start, end, r.status(), code));
                    }
                }));
            }
            return this;
        }

        List<Call> stop() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(LIMIT_S + 10));
            }
            List<Call> all = new ArrayList<>(calls);
            all.sort(Comparator.comparingLong(Call::start));
            return all;
        }

        private static String code(Reply r) {
            try {
                JsonNode n = JSON.readTree(r.body());
                return n.path("code").asText(null);
            } catch (IOException e) {
                return "not-json";
            }
        }
    }

    /** What the callers of one scenario saw, relative to the fault ({@code down}) and its end ({@code back}). */
    private record Outcome(String name, List<Call> calls, long down, long back) {
        static Outcome of(String name, List<Call> calls, long down, long back) {
            Outcome o = new Outcome(name, calls, down, back);
            o.print();
            return o;
        }

        List<Call> startedBefore(long t) {
            return calls.stream().filter(c -> c.start < t).toList();
        }

        void print() {
            Map<String, Integer> before = new TreeMap<>();
            Map<String, Integer> during = new TreeMap<>();
            Map<String, Integer> after = new TreeMap<>();
            long maxDuring = 0;
            for (Call c : calls) {
                String key = c.status + (c.code == null ? "" : " " + c.code);
                Map<String, Integer> bucket = c.end <= down ? before : c.start >= back ? after : during;
                bucket.merge(key, 1, Integer::sum);
                if (bucket == during) {
                    maxDuring = Math.max(maxDuring, c.millis());
                }
            }
            long max = calls.stream().mapToLong(Call::millis).max().orElse(0);
            double[] sorted = calls.stream().filter(c -> c.start >= down && c.end <= back)
                    .mapToDouble(Call::millis).sorted().toArray();
            double p50 = sorted.length == 0 ? 0 : sorted[sorted.length / 2];
            System.out.printf(Locale.ROOT, "outage: %s: %d calls; before %s; during %s (max %d ms, median %.0f ms of"
                    + " calls inside the fault); after %s; max latency %d ms; first success %s ms after the end of the"
                    + " fault%n", name, calls.size(), before, during, maxDuring, p50, after, max,
                    firstSuccessAfterBack() < 0 ? "never" : Long.toString(firstSuccessAfterBack()));
        }

        /** Milliseconds from {@code back} to the end of the first successful call that ended after it; -1: none. */
        long firstSuccessAfterBack() {
            return calls.stream().filter(c -> c.status == 200 && c.end > back).mapToLong(c -> c.end)
                    .min().stream().map(t -> (t - back) / 1_000_000).findFirst().orElse(-1);
        }

        void assertNoneLate() {
            for (Call c : calls) {
                assertThat(c.millis()).as(name + ": " + c + " answered past its time limit + 2 s")
                        .isLessThanOrEqualTo(LIMIT_S * 1_000L + SLACK_MS);
            }
        }

        /** 503 while the server was gone, nothing late, recovered within 2 s. */
        void assertFailedFastAndRecovered() {
            assertGoneAnswered503();
            assertRecoveredWithin(SLACK_MS);
        }

        void assertGoneAnswered503() {
            assertNoneLate();
            List<Call> inside = calls.stream().filter(c -> c.start >= down + 200_000_000L && c.end <= back).toList();
            assertThat(inside).as(name + ": calls made while the server was gone").isNotEmpty();
            for (Call c : inside) {
                assertThat(c.status + " " + c.code).as(name + ": " + c).isEqualTo("503 database_unavailable");
            }
        }

        /**
         * Some call started within {@code ms} of the server answering again succeeded, and every call started
         * later did (measured by start, not end, so that a slow server's own latency does not count as recovery).
         */
        void assertRecoveredWithin(long ms) {
            long settled = back + TimeUnit.MILLISECONDS.toNanos(ms);
            assertThat(calls).as(name + ": a call started within " + ms + " ms of the server's return succeeded")
                    .anyMatch(c -> c.status == 200 && c.start >= back && c.start < settled);
            for (Call c : calls) {
                if (c.start >= settled) {
                    assertThat(c.status).as(name + ": a call after recovery: " + c).isEqualTo(200);
                }
            }
        }
    }

    // ---------------------------------------------------------------- direct access

    private static String clickhouse(String sql) throws IOException, InterruptedException {
        HttpResponse<String> r = DIRECT.send(HttpRequest.newBuilder(URI.create(CLICKHOUSE.url() + "/"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError(sql + ": " + r.body());
        }
        return r.body();
    }

    private static void trino(String... statements) {
        try (Connection c = DriverManager.getConnection(TRINO.url(), TRINO.user(), null);
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> trinoRows(String sql) {
        try (Connection c = DriverManager.getConnection(TRINO.url(), TRINO.user(), null);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
            return rows;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
