package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
 * The dialect when the Trino coordinator goes away ({@link TcpProxy#cut()}) and comes back, and when the network
 * freezes ({@link TcpProxy#freeze()}): a call in flight and new calls fail fast with {@link DialectError#UNAVAILABLE}
 * instead of retrying until their time limit, the first call after the coordinator answers again succeeds, a read
 * still cannot write, and a call caught by a freeze times out and is cancelled on the coordinator. The service-level
 * scenarios under load are in the service's {@code HttpDatabaseOutageIT}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TrinoOutageTest {
    private static final String SCHEMA = "qag_outage_" + UUID.randomUUID().toString().substring(0, 8);
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private TcpProxy proxy;
    private TrinoDialect dialect;

    @BeforeAll
    static void fixture() throws Exception {
        TestingTrino.schema(SCHEMA);
        TestingTrino.exec("CREATE TABLE memory." + SCHEMA + ".t (v integer)", "INSERT INTO memory." + SCHEMA
                + ".t VALUES (1)");
    }

    @AfterAll
    static void dropFixture() throws Exception {
        TestingTrino.exec("DROP TABLE memory." + SCHEMA + ".t", "DROP SCHEMA memory." + SCHEMA);
    }

    @BeforeEach
    void start() throws Exception {
        proxy = new TcpProxy(TestingTrino.address());
        dialect = (TrinoDialect) new TrinoDialectFactory().create(
                TestingTrino.context("jdbc:trino://" + proxy.hostPort() + "/memory/" + SCHEMA, 2), Map.of());
    }

    @AfterEach
    void stop() {
        dialect.close();
        proxy.close();
    }

    private long count() {
        RecordingSink sink = new RecordingSink();
        dialect.execute(QueryRequest.read("SELECT count(*) FROM t", List.of(), LIMIT, 10), sink);
        return ((Number) sink.rows().get(0).get(0)).longValue();
    }

    private static DialectException failure(Runnable call) {
        DialectException e = catchThrowableOfType(DialectException.class, call::run);
        assertThat(e).as("the call should fail").isNotNull();
        return e;
    }

    /** A slow read (a large cross join) with {@code marker} in its text, run in the background; its failure. */
    private CompletableFuture<DialectException> slowRead(String marker, Duration limit) {
        return CompletableFuture.supplyAsync(() -> failure(() -> dialect.execute(QueryRequest.read(
                TrinoDialectTest.CROSS_JOIN + " /* " + marker + " */", List.of(), limit, 10), new RecordingSink())));
    }

    /** A call's failure, {@code ms} after the fault that started at {@code fault} (nanoTime). */
    private record Answer(DialectException error, long fault, long ms) {}

    /** Waits {@code afterMs}, starts the fault, and waits for the call's failure. */
    private static Answer faultDuring(CompletableFuture<DialectException> call, long afterMs, Runnable fault)
            throws Exception {
        Thread.sleep(afterMs);
        long t0 = System.nanoTime();
        fault.run();
        DialectException e = call.get(30, TimeUnit.SECONDS);
        return new Answer(e, t0, (System.nanoTime() - t0) / 1_000_000);
    }

    @Test
    void goneFailsFastInFlightAndNewAndTheFirstCallAfterItsReturnSucceeds() throws Exception {
        assertThat(count()).isEqualTo(1);
        String marker = "qag-gone-" + UUID.randomUUID();
        Answer inFlight = faultDuring(slowRead(marker, LIMIT), 1_500, proxy::cut);
        DialectException e = inFlight.error();
        long inFlightMs = inFlight.ms();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        long worst = 0;
        for (int i = 0; i < 10; i++) {
            long t0 = System.nanoTime();
            DialectException refused = failure(this::count);
            worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
            assertThat(refused.error()).as(refused.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        }
        proxy.restore();
        long back = System.nanoTime();
        assertThat(count()).isEqualTo(1);
        long firstMs = (System.nanoTime() - back) / 1_000_000;
        System.out.printf("trino gone: the call in flight answered UNAVAILABLE %d ms after the cut; 10 new calls"
                + " UNAVAILABLE, slowest %d ms; first call after restore %d ms%n", inFlightMs, worst, firstMs);
        assertThat(inFlightMs).as("the call in flight when the coordinator went away").isLessThan(3_000);
        assertThat(firstMs).isLessThan(2_000);
        // the coordinator drops the orphaned query when it is no longer polled; no call of ours is left running
        // after recovery, and a read still cannot write (the read-only transaction)
        DialectException write = failure(() -> dialect.execute(QueryRequest.read("INSERT INTO t VALUES (2)", List.of(),
                LIMIT, 10), new RecordingSink()));
        assertThat(write.error()).as(write.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(count()).isEqualTo(1);
    }

    @Test
    void aFrozenCallTimesOutIsCancelledAndCallsSucceedAfterUnfreeze() throws Exception {
        assertThat(count()).isEqualTo(1);
        String marker = "qag-frozen-" + UUID.randomUUID();
        Duration limit = Duration.ofSeconds(2);
        Answer caught = faultDuring(slowRead(marker, limit), 700, proxy::freeze);
        DialectException e = caught.error();
        long frozen = caught.fault();
        long ms = caught.ms();
        assertThat(e.error()).as(e.getMessage()).isIn(DialectError.TIMEOUT, DialectError.UNAVAILABLE);
        List<List<String>> left = TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
        long goneMs = (System.nanoTime() - frozen) / 1_000_000;
        assertThat(left).as("the frozen call's query on the coordinator").allMatch(q -> q.get(1).equals("FAILED"));
        proxy.unfreeze();
        long back = System.nanoTime();
        assertThat(count()).isEqualTo(1);
        long firstMs = (System.nanoTime() - back) / 1_000_000;
        System.out.printf("trino frozen: a 2 s call answered %s %d ms after the freeze, its query ended on the"
                + " coordinator within %d ms (%s); first call after unfreeze %d ms%n", e.error(), ms, goneMs, left,
                firstMs);
        assertThat(ms).as("the frozen call, within its limit + 2 s").isLessThan(limit.toMillis() + 2_000);
        assertThat(firstMs).isLessThan(2_000);
    }
}
