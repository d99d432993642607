package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.testkit.MySqlCommands;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read's {@code ROLLBACK AND CHAIN} travels after the caller has its rows, and the connection only goes back to
 * the pool once the release came back with a read-only transaction: proven on a pool of one, where the next call
 * must wait for that connection.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MariaDbReleaseTest {
    static final String DB = "qag_my_release";
    private static final Executor THREADS = runnable -> Thread.ofVirtual().start(runnable);

    @BeforeAll
    static void createDatabase() throws Exception {
        TestingMariaDb.recreateDatabase(DB);
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c,
                    "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(100)) ENGINE=InnoDB",
                    "INSERT INTO t VALUES (1, 'one'), (2, 'two')",
                    "CREATE TABLE big (id INT PRIMARY KEY, pad VARCHAR(200)) ENGINE=InnoDB",
                    "INSERT INTO big SELECT seq, REPEAT('x', 200) FROM seq_1_to_20000",
                    "CREATE FUNCTION qag_my_flip() RETURNS INT NOT DETERMINISTIC"
                            + " BEGIN SET SESSION TRANSACTION READ WRITE; RETURN 1; END");
        }
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        TestingMariaDb.dropDatabase(DB);
    }

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 100_000);
    }

    /** A pool of one through the proxy; a release may wait up to {@code connectTimeout} for its answer. */
    private static MySqlDialect throughProxy(TcpProxy proxy, String connectTimeout) {
        String url = "jdbc:mysql://" + proxy.hostPort() + "/" + DB + "?sslMode=DISABLED";
        return (MySqlDialect) new MySqlDialectFactory().create(
                TestingMariaDb.context(url, TestingMariaDb.user(), TestingMariaDb.password(), 1),
                Map.of("mysql.connect_timeout", connectTimeout));
    }

    @Test
    void theCallerHasItsRowsBeforeTheReleaseIsAnsweredAndTheNextCallWaitsForIt() throws Exception {
        AtomicBoolean freezeOnRelease = new AtomicBoolean();
        TcpProxy[] self = new TcpProxy[1];
        try (TcpProxy proxy = TcpProxy.to(TestingMariaDb.address()).tap(() -> new MySqlCommands(command -> {
            // runs before the command is forwarded, so the server's answer to it is held back
            // one-shot: the release may be sent after the caller already has its rows
            if (command.isQuery() && command.sql().equals("ROLLBACK AND CHAIN")
                    && freezeOnRelease.compareAndSet(true, false)) {
                self[0].freeze();
            }
        })).start(); MySqlDialect dialect = throughProxy(proxy, "2m")) {
            self[0] = proxy;
            assertThat(run(dialect, "SELECT name FROM t WHERE id = 1").singleValue()).isEqualTo("one");
            dialect.awaitReleases(Duration.ofSeconds(10));

            freezeOnRelease.set(true);
            // answered although the release's reply is held: the release is not on the caller's path
            RecordingSink first = CompletableFuture.supplyAsync(() -> run(dialect, "SELECT qag_my_flip(), name FROM t"), THREADS)
                    .get(20, TimeUnit.SECONDS);
            assertThat(first.rows()).hasSize(2);
            awaitMetric(dialect, "pool.active", 1);

            // the only connection is still out: the next call waits for it
            CompletableFuture<DialectException> next = CompletableFuture.supplyAsync(() -> (DialectException)
                    catchThrowable(() -> dialect.execute(read("INSERT INTO t VALUES (3, 'after flip')"),
                            new RecordingSink())), THREADS);
            awaitMetric(dialect, "pool.waiting", 1);
            assertThat(next).isNotDone();

            proxy.unfreeze();
            // ... and gets it back with the flip undone: read-only again
            DialectException refused = next.get(20, TimeUnit.SECONDS);
            assertThat(refused).isNotNull();
            assertThat(refused.error()).as(refused.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(run(dialect, "SELECT @@session.tx_read_only").singleValue().toString()).isIn("1", "true");
        }
        try (Connection c = TestingMariaDb.admin(DB)) {
            assertThat(TestingMariaDb.query(c, "SELECT COUNT(*) FROM t")).isEqualTo("2");
        }
    }

    @Test
    void aClientThatGoesAwayMidResponseLeavesAReadOnlySessionBehind() throws Exception {
        try (MySqlDialect dialect = TestingMariaDb.dialect(DB, "", Map.of(), 1)) {
            long id = ((Number) run(dialect, "SELECT CONNECTION_ID()").singleValue()).longValue();
            for (int i = 0; i < 3; i++) {
                Throwable gone = catchThrowable(() -> dialect.execute(
                        read("SELECT qag_my_flip() AS f, id, pad FROM big ORDER BY id"), new GoneAfter(500)));
                assertThat(gone).as("the sink's failure reaches the caller").isNotNull();
                DialectException refused = (DialectException) catchThrowable(() -> dialect.execute(
                        read("INSERT INTO t VALUES (3, 'after a client went away')"), new RecordingSink()));
                assertThat(refused).isNotNull();
                assertThat(refused.error()).as(refused.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
                assertThat(run(dialect, "SELECT @@session.tx_read_only").singleValue().toString()).isIn("1", "true");
            }
            // the session survived (the pending rows were skipped, within the drain budget) or was replaced; either
            // way the next read works on a pool of one
            assertThat(run(dialect, "SELECT name FROM t WHERE id = 2").singleValue()).isEqualTo("two");
            assertThat(id).isPositive();
        }
    }

    @Test
    void aServerThatStopsAnsweringIsGivenUpSoonAfterTheTimeLimit() throws Exception {
        try (TcpProxy proxy = TcpProxy.to(TestingMariaDb.address()).start();
                MySqlDialect dialect = throughProxy(proxy, "5s")) {
            assertThat(run(dialect, "SELECT name FROM t WHERE id = 1").singleValue()).isEqualTo("one");
            dialect.awaitReleases(Duration.ofSeconds(10));
            // idle past HikariCP's 500 ms bypass: the borrow validates, and its network timeout must not outlive that
            Thread.sleep(700);
            proxy.freeze();
            long start = System.nanoTime();
            // no timeout on the socket: the time limit's kill cannot be answered either, so the socket is closed
            Throwable failure = CompletableFuture.supplyAsync(() -> catchThrowable(() -> dialect.execute(
                    QueryRequest.read("SELECT name FROM t", List.of(), Duration.ofSeconds(1), 100),
                    new RecordingSink())), THREADS).get(60, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(failure).isInstanceOf(DialectException.class);
            assertThat(((DialectException) failure).error()).as(failure.getMessage()).isEqualTo(DialectError.TIMEOUT);
            assertThat(took).isGreaterThanOrEqualTo(MySqlDialect.ABORT_AFTER);
            proxy.unfreeze();
            // the aborted session was closed, not reused: the next call gets a fresh one
            assertThat(run(dialect, "SELECT name FROM t WHERE id = 2").singleValue()).isEqualTo("two");
        }
    }

    private static RecordingSink run(MySqlDialect d, String sql) {
        RecordingSink sink = new RecordingSink();
        d.execute(read(sql), sink);
        return sink;
    }

    private static void awaitMetric(MySqlDialect d, String name, int value) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (d.metrics().get(name).intValue() != value) {
            assertThat(System.nanoTime() - end).as("%s never reached %d: %s", name, value, d.metrics()).isNegative();
            Thread.sleep(5);
        }
    }

    /** A client that goes away after some rows: the output fails as the gateway's does. */
    private static final class GoneAfter implements RowSink {
        private final int rows;
        private int seen;

        GoneAfter(int rows) {
            this.rows = rows;
        }

        @Override
        public void columns(List<ColumnInfo> columns) {}

        @Override
        public boolean row(Object[] values) {
            if (++seen > rows) {
                throw new UncheckedIOException(new java.io.IOException("Broken pipe"));
            }
            return true;
        }
    }
}
