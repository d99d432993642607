package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB and PostgreSQL going away under load, through a real gateway whose two connections (pool size 8, time
 * limit 3 s) reach the shared servers through a {@link TcpProxy} each: 8 concurrent callers while the proxy is cut
 * for 4 s (the server gone, connections refused) and restored; and a frozen network (the server stops answering on
 * the open connections). Checked: during the outage every call is answered 503 {@code database_unavailable} with
 * {@code Retry-After} at once (not after its time limit), none takes longer than its limit + 2 s, the first success
 * comes within 2 s of the restore, the server-side sessions return to the pool size (nothing leaked or stuck), and
 * every pooled session is still read-only (a stored function that writes is refused); frozen calls are answered 504
 * {@code query_timeout} soon after their limit and the pool replaces their connections. The figures each run
 * measured are printed (docs/RELIABILITY.md).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DatabaseOutageIT {
    private static final int POOL = 8;
    private static final int CALLERS = 8;
    private static final Duration LIMIT = Duration.ofSeconds(3);
    private static final Duration OUTAGE = Duration.ofSeconds(4);
    private static final String READ = "SELECT id FROM outage_rows WHERE id = 1";

    private static final TestServers.Server MARIADB = TestServers.mariadb();
    private static final String MARIA_DB = "qag_outage_" + Long.toUnsignedString(
            ThreadLocalRandom.current().nextLong(), 36);
    private static final TestingPostgres.Database PG = TestingPostgres.freshDatabase("qag_outage");
    private static final Map<String, TcpProxy> PROXIES = Map.of("maria", proxy(MARIADB.host(), MARIADB.port()),
            "pg", proxy(TestServers.postgres().host(), TestServers.postgres().port()));
    private static final DropwizardAppExtension<GatewayConfiguration> APP = new DropwizardAppExtension<>(
            GatewayApplication.class, config());
    private static final ExecutorService THREADS = Executors.newCachedThreadPool();
    private static Http http;

    private static TcpProxy proxy(String host, int port) {
        try {
            return TcpProxy.to(host, port).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code url} with its host and port replaced by {@code hostPort}, and its database by {@code database}. */
    private static String at(String url, String hostPort, String database) {
        int hostStart = url.indexOf("//") + 2;
        int slash = url.indexOf('/', hostStart);
        int query = url.indexOf('?', slash);
        return url.substring(0, hostStart) + hostPort + "/" + database + (query < 0 ? "" : url.substring(query));
    }

    private static String mariaUrl() {
        return at(MARIADB.url(), MARIADB.hostPort(), MARIA_DB);
    }

    private static String config() {
        try (Connection c = DriverManager.getConnection(MARIADB.url(), MARIADB.user(), MARIADB.password());
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + MARIA_DB);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        onServer("maria", "CREATE TABLE outage_rows (id INT PRIMARY KEY)", "INSERT INTO outage_rows VALUES (1)",
                "CREATE TABLE outage_marks (id INT)",
                "CREATE FUNCTION qag_outage_write() RETURNS INT NOT DETERMINISTIC MODIFIES SQL DATA"
                        + " BEGIN INSERT INTO outage_marks VALUES (1); RETURN 1; END");
        onServer("pg", "CREATE TABLE outage_rows (id int PRIMARY KEY)", "INSERT INTO outage_rows VALUES (1)",
                "CREATE TABLE outage_marks (id int)",
                "CREATE FUNCTION qag_outage_write() RETURNS int LANGUAGE plpgsql VOLATILE"
                        + " AS 'BEGIN INSERT INTO outage_marks VALUES (1); RETURN 1; END'");
        String connections = "  maria:\n    dialect: mysql\n    url: " + at(MARIADB.url(),
                PROXIES.get("maria").hostPort(), MARIA_DB) + "\n    user: " + MARIADB.user() + "\n    password: "
                + MARIADB.password() + "\n    poolSize: " + POOL + "\n    queryTimeout: " + LIMIT.toSeconds() + "s\n"
                + "  pg:\n    dialect: postgres\n    url: "
                + at(PG.url(), PROXIES.get("pg").hostPort(), databaseOf(PG.url()))
                + "\n    user: " + PG.user() + "\n    password: " + PG.password() + "\n    poolSize: " + POOL
                + "\n    queryTimeout: " + LIMIT.toSeconds() + "s\n"
                // the client's backstop after the server's own limit, and as long again before it drops the socket
                + "    properties:\n      postgres.timeout_margin: 500ms\n";
        return TestingConfig.write(connections, "").toString();
    }

    /** Runs statements directly on the server (not through the proxy), in the test's database. */
    private static void onServer(String connection, String... statements) {
        try (Connection c = direct(connection); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static Connection direct(String connection) throws SQLException {
        return connection.equals("maria")
                ? DriverManager.getConnection(mariaUrl(), MARIADB.user(), MARIADB.password())
                : DriverManager.getConnection(PG.url(), PG.user(), PG.password());
    }

    /** The gateway's sessions on the server, counted there. */
    private static int serverSessions(String connection) {
        String sql = connection.equals("maria")
                ? "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()"
                : "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()";
        try (Connection c = direct(connection); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, connection.equals("maria") ? MARIA_DB : databaseOf(PG.url()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static String databaseOf(String url) {
        int slash = url.lastIndexOf('/');
        int query = url.indexOf('?', slash);
        return url.substring(slash + 1, query < 0 ? url.length() : query);
    }

    @BeforeAll
    static void start() {
        http = new Http("http://127.0.0.1:" + APP.getLocalPort());
    }

    @AfterAll
    static void stop() {
        THREADS.shutdownNow();
        PROXIES.values().forEach(TcpProxy::close);
        try (Connection c = DriverManager.getConnection(MARIADB.url(), MARIADB.user(), MARIADB.password());
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + MARIA_DB);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        PG.dropDatabase();
    }

    /** One call as a caller saw it. */
    private record Call(long startNanos, long endNanos, int status, String code, String retryAfter) {
        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos);
        }
    }

    private static Call call(String connection, String sql) {
        long start = System.nanoTime();
        Reply r = http.sql(TestingConfig.ADMIN_KEY, connection, sql);
        long end = System.nanoTime();
        String code = r.status() == 200 ? null : r.json().path("code").asText();
        return new Call(start, end, r.status(), code, r.header("Retry-After"));
    }

    /** {@code CALLERS} threads calling {@link #READ} back to back until stopped. */
    private static final class Load implements AutoCloseable {
        final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<CompletableFuture<Void>> callers = new ArrayList<>();

        Load(String connection) {
            for (int i = 0; i < CALLERS; i++) {
                callers.add(CompletableFuture.runAsync(() -> {
                    while (running.get()) {
                        calls.add(call(connection, READ));
                    }
                }, THREADS));
            }
        }

        @Override
        public void close() throws Exception {
            running.set(false);
            CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        }
    }

    private static void awaitSessions(String connection, int expected) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int now = serverSessions(connection);
        while (now != expected && System.nanoTime() < until) {
            Thread.sleep(100);
            now = serverSessions(connection);
        }
        assertThat(now).as("the gateway's sessions on the server (pool size %d)", expected).isEqualTo(expected);
    }

    /** Every pooled session is read-only: a stored function that writes is refused on each, and nothing is written. */
    private static void writingFunctionRefusedOnEverySession(String connection) throws Exception {
        List<CompletableFuture<Call>> flips = new ArrayList<>();
        for (int i = 0; i < 3 * POOL; i++) {
            flips.add(CompletableFuture.supplyAsync(() -> call(connection, "SELECT qag_outage_write()"), THREADS));
        }
        for (CompletableFuture<Call> flip : flips) {
            Call c = flip.get(30, TimeUnit.SECONDS);
            assertThat(c.status()).as("a writing function through a read: %s", c).isEqualTo(403);
            assertThat(c.code()).isEqualTo("read_only");
        }
        try (Connection c = direct(connection); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM outage_marks")) {
            rs.next();
            assertThat(rs.getInt(1)).as("rows the writing function left").isZero();
        }
    }

    private static void warm(String connection) throws Exception {
        for (int i = 0; i < 3; i++) {
            List<CompletableFuture<Call>> round = new ArrayList<>();
            for (int j = 0; j < POOL; j++) {
                round.add(CompletableFuture.supplyAsync(() -> call(connection, READ), THREADS));
            }
            for (CompletableFuture<Call> c : round) {
                assertThat(c.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            }
        }
        awaitSessions(connection, POOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"maria", "pg"})
    void aServerGoneForSecondsIsRefusedAtOnceAndThePoolRecoversWithinTwoSeconds(String connection) throws Exception {
        TcpProxy proxy = PROXIES.get(connection);
        warm(connection);
        long cutAt;
        long restoredAt;
        List<Call> calls;
        try (Load load = new Load(connection)) {
            Thread.sleep(1_000);
            cutAt = System.nanoTime();
            proxy.cut();
            Thread.sleep(OUTAGE.toMillis());
            proxy.restore();
            restoredAt = System.nanoTime();
            Thread.sleep(3_000);
            load.close();
            calls = new ArrayList<>(load.calls);
        }
        calls.sort(Comparator.comparingLong(Call::startNanos));
        long limitMillis = LIMIT.toMillis();

        // none hung past its time limit (+ 2 s for the answer to travel)
        Call slowest = calls.stream().max(Comparator.comparingLong(Call::millis)).orElseThrow();
        assertThat(slowest.millis()).as("slowest call %s", slowest).isLessThan(limitMillis + 2_000);
        // every failure is the database being down, with Retry-After
        List<Call> failed = calls.stream().filter(c -> c.status() != 200).toList();
        assertThat(failed).isNotEmpty();
        assertThat(failed).allSatisfy(c -> {
            assertThat(c.status()).as("%s", c).isEqualTo(503);
            assertThat(c.code()).isEqualTo("database_unavailable");
            assertThat(c.retryAfter()).isEqualTo("1");
        });
        long firstFailure = failed.getFirst().endNanos();
        assertThat(firstFailure).isGreaterThanOrEqualTo(cutAt);
        // from a second after the first failure until the restore: every call refused, each at once
        long settled = firstFailure + TimeUnit.SECONDS.toNanos(1);
        List<Call> outage = calls.stream().filter(c -> c.startNanos() >= settled && c.endNanos() <= restoredAt)
                .toList();
        assertThat(outage).hasSizeGreaterThan(CALLERS);
        assertThat(outage).allSatisfy(c -> {
            assertThat(c.status()).as("%s", c).isEqualTo(503);
            assertThat(c.millis()).as("refused at once, not after the time limit: %s", c).isLessThan(1_000);
        });
        // recovery: the first success after the restore
        Call firstSuccess = calls.stream().filter(c -> c.status() == 200 && c.endNanos() > restoredAt)
                .min(Comparator.comparingLong(Call::endNanos)).orElseThrow();
        long recoveryMillis = TimeUnit.NANOSECONDS.toMillis(firstSuccess.endNanos() - restoredAt);
        assertThat(recoveryMillis).as("first success after the restore").isLessThan(2_000);
        long lastFailure = failed.getLast().endNanos();
        System.out.printf("DatabaseOutageIT %s cut %d ms: %d calls, %d ok, %d x 503 (first %d ms after the cut),"
                + " outage calls %d (slowest %d ms), slowest overall %d ms, > 2 s: %d; first success %d ms after the"
                + " restore, last failure %d ms after it%n", connection, OUTAGE.toMillis(), calls.size(),
                calls.size() - failed.size(), failed.size(), TimeUnit.NANOSECONDS.toMillis(firstFailure - cutAt),
                outage.size(), outage.stream().mapToLong(Call::millis).max().orElse(0), slowest.millis(),
                calls.stream().filter(c -> c.millis() > 2_000).count(), recoveryMillis,
                TimeUnit.NANOSECONDS.toMillis(lastFailure - restoredAt));

        awaitSessions(connection, POOL);
        writingFunctionRefusedOnEverySession(connection);
        awaitSessions(connection, POOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"maria", "pg"})
    void aFrozenServerIsAnsweredAtTheTimeLimitAndItsConnectionsReplaced(String connection) throws Exception {
        TcpProxy proxy = PROXIES.get(connection);
        warm(connection);
        List<Call> frozen;
        proxy.freeze();
        try {
            List<CompletableFuture<Call>> calls = new ArrayList<>();
            for (int i = 0; i < POOL; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> call(connection, READ), THREADS));
            }
            frozen = new ArrayList<>();
            for (CompletableFuture<Call> c : calls) {
                frozen.add(c.get(60, TimeUnit.SECONDS));
            }
        } finally {
            proxy.unfreeze();
        }
        // a call whose pooled connection fails its check on the frozen network (the pool's validation, or a
        // replacement's handshake) learns that the database does not answer: 503 database_unavailable, also bounded
        assertThat(frozen).allSatisfy(c -> {
            assertThat(c.status() + " " + c.code()).as("%s", c).isIn("504 query_timeout", "503 database_unavailable");
            assertThat(c.millis()).as("answered soon after the limit: %s", c)
                    .isGreaterThanOrEqualTo(LIMIT.toMillis() - 100).isLessThan(LIMIT.toMillis() + 2_500);
        });
        assertThat(frozen).as("the time limit fired").anyMatch(c -> c.status() == 504);
        System.out.printf("DatabaseOutageIT %s frozen: %d calls answered (%d x 504) in %d..%d ms (limit %d ms)%n",
                connection, frozen.size(), frozen.stream().filter(c -> c.status() == 504).count(),
                frozen.stream().mapToLong(Call::millis).min().orElse(0),
                frozen.stream().mapToLong(Call::millis).max().orElse(0), LIMIT.toMillis());
        for (int i = 0; i < 2 * POOL; i++) {
            Call after = call(connection, READ);
            assertThat(after.status()).as("after the unfreeze: %s", after).isEqualTo(200);
        }
        awaitSessions(connection, POOL);
        writingFunctionRefusedOnEverySession(connection);
    }
}
