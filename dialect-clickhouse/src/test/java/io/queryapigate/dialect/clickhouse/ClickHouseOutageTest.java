package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The dialect when ClickHouse goes away ({@link TcpProxy#cut()}: connections closed, new ones refused) and comes
 * back, and when the network freezes ({@link TcpProxy#freeze()}: the open connections, the idle pooled ones too,
 * stop answering): calls fail fast with {@link DialectError#UNAVAILABLE}, the first call after the server answers
 * again succeeds, a read still cannot write, and a call caught by a freeze times out and is killed over a connection
 * of its own without waiting on a frozen pooled one. The service-level scenarios under load are in the service's
 * {@code HttpDatabaseOutageIT}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ClickHouseOutageTest {
    private static final String TABLE = "qag_ch_outage_" + UUID.randomUUID().toString().substring(0, 8).replace('-', '_');
    private static final Duration LIMIT = Duration.ofSeconds(5);

    private TcpProxy proxy;
    private Dialect dialect;

    @BeforeAll
    static void fixture() {
        TestingClickHouse.exec("CREATE TABLE " + TABLE + " (id UInt32) ENGINE = Memory");
        TestingClickHouse.exec("INSERT INTO " + TABLE + " VALUES (1)");
    }

    @AfterAll
    static void dropFixture() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + TABLE);
    }

    @BeforeEach
    void start() throws Exception {
        proxy = TcpProxy.to(TestingClickHouse.address()).recordSent().start();
        dialect = new ClickHouseDialectFactory().create(TestingClickHouse.context("http://" + proxy.hostPort(), 2),
                Map.of());
    }

    @AfterEach
    void stop() {
        dialect.close();
        proxy.close();
    }

    private static QueryRequest read(String sql, Duration timeout, String id) {
        return new QueryRequest(sql, List.of(), AccessMode.READ, timeout, 100, true, id);
    }

    private long count() {
        RecordingSink sink = new RecordingSink();
        dialect.execute(read("SELECT count() FROM " + TABLE, LIMIT, "count"), sink);
        return ((Number) sink.rows().get(0).get(0)).longValue();
    }

    @Test
    void goneFailsFastAndTheFirstCallAfterItsReturnSucceeds() throws Exception {
        assertThat(count()).isEqualTo(1);
        proxy.cut();
        long worst = 0;
        for (int i = 0; i < 20; i++) {
            long t0 = System.nanoTime();
            DialectException e = catchThrowableOfType(DialectException.class, this::count);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            worst = Math.max(worst, ms);
            assertThat(e).isNotNull();
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(ms).as("a call while ClickHouse is gone").isLessThan(LIMIT.toMillis());
        }
        proxy.restore();
        long back = System.nanoTime();
        assertThat(count()).isEqualTo(1);
        long firstMs = (System.nanoTime() - back) / 1_000_000;
        System.out.printf("clickhouse gone: 20 calls UNAVAILABLE, slowest %d ms; first call after restore %d ms%n",
                worst, firstMs);
        assertThat(firstMs).isLessThan(2_000);

        // after recovery a read still cannot write: readonly=1 travels with every read
        DialectException write = catchThrowableOfType(DialectException.class, () -> dialect.execute(
                read("INSERT INTO " + TABLE + " VALUES (2)", LIMIT, "write"), new RecordingSink()));
        assertThat(write).isNotNull();
        assertThat(write.error()).as(write.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(TestingClickHouse.value("SELECT count() FROM " + TABLE)).isEqualTo("1");
    }

    @Test
    void aFrozenCallTimesOutAndIsKilledOverAFreshConnection() throws Exception {
        // two idle keep-alive connections in the client's pool, both frozen below
        CompletableFuture<?> a = CompletableFuture.runAsync(() -> dialect.execute(
                read("SELECT sleep(0.3)", LIMIT, "warm-a"), new RecordingSink()));
        dialect.execute(read("SELECT sleep(0.3)", LIMIT, "warm-b"), new RecordingSink());
        a.get(10, TimeUnit.SECONDS);
        proxy.freeze();
        String id = "frozen-" + UUID.randomUUID().toString().substring(0, 8);
        long t0 = System.nanoTime();
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(
                read("SELECT count() FROM system.numbers", Duration.ofSeconds(1), id), new RecordingSink()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(proxy.sent()).contains("KILL QUERY WHERE query_id = 'qag-" + id + "-");
        // a KILL QUERY sent on the other frozen pooled connection would wait its 2 s for nothing
        assertThat(ms).as("the timed-out call, its kill included").isLessThan(1_900);
        Duration gone = TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
        proxy.unfreeze();
        long back = System.nanoTime();
        assertThat(count()).isEqualTo(1);
        long firstMs = (System.nanoTime() - back) / 1_000_000;
        System.out.printf("clickhouse frozen: a 1 s call answered TIMEOUT after %d ms (kill included), gone from"
                + " system.processes %d ms later; first call after unfreeze %d ms%n", ms, gone.toMillis(), firstMs);
        assertThat(firstMs).isLessThan(2_000);
    }
}
