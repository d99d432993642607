package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.failure;
import static io.queryapigate.dialect.postgres.Calls.number;
import static io.queryapigate.dialect.postgres.Calls.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariPoolMXBean;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The HikariCP pool: metrics, eviction of broken connections, the client-side backstop, closing. */
class PostgresPoolTest {

    private final TestingPostgresServer server = TestingPostgresServer.get();
    private PostgresDialect dialect;
    private TcpProxy proxy;

    @AfterEach
    void close() {
        if (dialect != null) {
            dialect.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void exposesThePoolsCounts() throws Exception {
        dialect = server.dialect(null, 3, Map.of());
        HikariPoolMXBean pool = dialect.poolMXBean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.getTotalConnections() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(dialect.poolStats()).isEqualTo(new PostgresPoolStats(0, 3, 3, 0, 3));
        AtomicReference<PostgresPoolStats> during = new AtomicReference<>();
        dialect.execute(read("SELECT 1"), new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                during.set(dialect.poolStats());
                return true;
            }
        });
        assertThat(during.get()).isEqualTo(new PostgresPoolStats(1, 2, 3, 0, 3));
        assertThat(dialect.poolStats().active()).isZero();
    }

    @Test
    void aConnectionTheServerDroppedFailsOnceAndIsReplaced() throws Exception {
        dialect = server.dialect(null, 1, Map.of());
        long pid = number(dialect, "SELECT pg_backend_pid()");
        terminate(pid);
        // within postgres.pool_idle_validation the pool trusts the connection: the call that finds it dead fails
        DialectException e = failure(dialect, read("SELECT 1"));
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.error().retryable()).isTrue();
        long next = number(dialect, "SELECT pg_backend_pid()");
        assertThat(next).isNotEqualTo(pid);
        assertThat(dialect.poolStats().total()).isEqualTo(1);
    }

    @Test
    void anIdleConnectionIsValidatedAndReplacedBeforeUse() throws Exception {
        dialect = server.dialect(null, 1, Map.of(PostgresDialectConfig.POOL_IDLE_VALIDATION, "0s"));
        long pid = number(dialect, "SELECT pg_backend_pid()");
        terminate(pid);
        Thread.sleep(700); // HikariCP asks isValid only past its own 500 ms
        long next = number(dialect, "SELECT pg_backend_pid()");
        assertThat(next).isNotEqualTo(pid);
    }

    @Test
    void aServerThatNeverAnswersIsLeftAfterTheMargin() throws Exception {
        proxy = new TcpProxy(server.address());
        String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + server.databasePath();
        dialect = (PostgresDialect) new PostgresDialectFactory().create(server.context(url, 1),
                Map.of(PostgresDialectConfig.TIMEOUT_MARGIN, "300ms"));
        long pid = number(dialect, "SELECT pg_backend_pid()");
        proxy.freeze();
        long start = System.nanoTime();
        DialectException e = failure(dialect, read("SELECT 1").withTimeout(Duration.ofMillis(300)));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(e.getMessage()).contains("the connection was dropped");
        // limit 300 ms, cancel 300 ms later, abort 300 ms after that
        assertThat(millis).isBetween(800L, 5_000L);
        proxy.unfreeze();
        assertThat(number(dialect, "SELECT pg_backend_pid()")).isNotEqualTo(pid);
        assertThat(dialect.poolStats().total()).isEqualTo(1);
    }

    @Test
    void closingTheDialectStopsRunningCalls() throws Exception {
        dialect = server.dialect(null, 1, Map.of());
        CompletableFuture<DialectException> running = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                DialectException.class, () -> dialect.execute(read("SELECT pg_sleep(60)"), new io.queryapigate.dialect
                        .testkit.RecordingSink())));
        Thread.sleep(500);
        long start = System.nanoTime();
        dialect.close();
        DialectException e = running.get(20, TimeUnit.SECONDS);
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(15_000L);
        assertThat(failure(dialect, read("SELECT 1")).error()).isEqualTo(DialectError.UNAVAILABLE);
    }

    @Test
    void callsWaitForAFreeConnectionAtMostTheirTimeLimit() throws Exception {
        dialect = server.dialect(null, 1, Map.of());
        number(dialect, "SELECT 1");
        CompletableFuture<Void> busy = CompletableFuture.runAsync(() -> Calls.run(dialect, read("SELECT pg_sleep(1.5)")));
        Thread.sleep(200);
        long start = System.nanoTime();
        DialectException e = failure(dialect, read("SELECT 1").withTimeout(Duration.ofMillis(300)));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.getMessage()).contains("no connection available within 300 ms");
        assertThat(millis).isBetween(250L, 2_000L);
        busy.get(10, TimeUnit.SECONDS);
    }

    private void terminate(long pid) throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
            r.next();
            assertThat(r.getBoolean(1)).isTrue();
        }
        Thread.sleep(100);
    }
}
