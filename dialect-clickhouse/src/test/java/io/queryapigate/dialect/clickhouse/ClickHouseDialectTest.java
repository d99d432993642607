package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ClickHouse dialect against the real server: types, read-only enforcement, time limits and kills (checked in
 * {@code system.processes}), cancellation, streaming, row caps, what goes on the wire, errors, and availability.
 * Fixture tables live in database {@code default} with the prefix {@code qag_ch_}, and are dropped afterwards.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClickHouseDialectTest {
    private static final String TYPES = "qag_ch_types";
    private static final String CANARY = "qag_ch_canary";
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private final List<Dialect> opened = new ArrayList<>();
    private final List<TcpProxy> proxies = new ArrayList<>();

    @BeforeAll
    static void fixture() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + TYPES);
        TestingClickHouse.exec("CREATE TABLE " + TYPES + " (id UInt8, u64 UInt64, i64 Int64, dec Decimal(38, 10),"
                + " d32 Nullable(Decimal32(4)), day Date, at DateTime, tokyo DateTime('Asia/Tokyo'),"
                + " n Nullable(Int32), tags Array(Nullable(String)), grid Array(Array(UInt16)), code FixedString(4),"
                + " uid UUID, mood Enum8('sad' = -1, 'happy' = 1), f64 Float64, f32 Float32, s String,"
                + " flag Enum8('false' = 0, 'true' = 1), pair Tuple(UInt8, String)) ENGINE = TinyLog");
        TestingClickHouse.exec("INSERT INTO " + TYPES + " VALUES"
                + " (1, 18446744073709551615, 9007199254740993, 12345678901234567890.0123456789, 1.5, '2024-01-15',"
                + " '2024-01-15 10:30:00', '2024-01-15 19:30:00', NULL, ['a', NULL, 'b''c\\\\d\\t'], [[1, 2], [], [3]],"
                + " 'ab', '341733bc-869f-49b4-abb8-92ed88ce5b21', 'sad', nan, -inf,"
                + " 'tab\\there\\nnewline \\\\ backslash \\' quote \\0 nul ünïcödé ✓ 😀', 'true', (7, 'x')),"
                + " (2, 9007199254740993, -9223372036854775808, -0.0000000001, NULL, '0000-00-00',"
                + " '2038-01-19 03:14:08', '2038-01-19 12:14:08', -1, [], [], 'abcd',"
                + " '00000000-0000-0000-0000-000000000000', 'happy', 1e301, 0.1, '', 'false', (0, ''))");
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + CANARY);
        TestingClickHouse.exec("CREATE TABLE " + CANARY + " (id UInt32, name String) ENGINE = Memory");
        TestingClickHouse.exec("INSERT INTO " + CANARY + " VALUES (1, 'one'), (2, 'two')");
    }

    @AfterAll
    static void dropFixture() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + TYPES);
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + CANARY);
        TestingClickHouse.exec("DROP TABLE IF EXISTS qag_ch_evil");
        TestingClickHouse.exec("DROP TABLE IF EXISTS qag_ch_written");
    }

    @AfterEach
    void close() {
        opened.forEach(Dialect::close);
        proxies.forEach(TcpProxy::close);
    }

    private Dialect dialect(Map<String, String> properties, int poolSize) {
        TestingClickHouse.require();
        Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), poolSize), properties);
        opened.add(d);
        return d;
    }

    private Dialect dialect() {
        return dialect(Map.of(), 2);
    }

    private TcpProxy proxy() throws Exception {
        TcpProxy p = TcpProxy.to(TestingClickHouse.address()).recordSent().start();
        proxies.add(p);
        return p;
    }

    private Dialect dialectVia(TcpProxy proxy) {
        Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context("http://" + proxy.hostPort(), 2), Map.of());
        opened.add(d);
        return d;
    }

    private static QueryRequest read(String sql, Parameter... ps) {
        return QueryRequest.read(sql, List.of(ps), LIMIT, 10_000);
    }

    private static QueryRequest request(String sql, Duration timeout, long maxRows, String requestId) {
        return new QueryRequest(sql, List.of(), AccessMode.READ, timeout, maxRows, true, requestId);
    }

    private static RecordingSink run(Dialect d, QueryRequest r) {
        RecordingSink sink = new RecordingSink();
        d.execute(r, sink);
        return sink;
    }

    private static DialectException failure(Dialect d, QueryRequest r) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> d.execute(r, new RecordingSink()));
        assertThat(e).as("expected %s to fail", r.sql()).isNotNull();
        return e;
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    // ---------------------------------------------------------------- types

    @Test
    void typesComeBackExact() {
        RecordingSink sink = run(dialect(), read("SELECT * FROM " + TYPES + " ORDER BY id"));
        Map<String, ColumnInfo> columns = new HashMap<>();
        sink.columns().forEach(c -> columns.put(c.name(), c));
        assertThat(columns.get("u64")).isEqualTo(new ColumnInfo("u64", "UInt64", JDBCType.NUMERIC));
        assertThat(columns.get("dec")).isEqualTo(new ColumnInfo("dec", "Decimal(38, 10)", JDBCType.DECIMAL));
        assertThat(columns.get("d32").typeName()).isEqualTo("Nullable(Decimal(9, 4))");
        assertThat(columns.get("tokyo")).isEqualTo(new ColumnInfo("tokyo", "DateTime('Asia/Tokyo')",
                JDBCType.TIMESTAMP_WITH_TIMEZONE));
        assertThat(columns.get("tags").type()).isEqualTo(JDBCType.ARRAY);
        assertThat(columns.get("flag").type()).isEqualTo(JDBCType.BOOLEAN);
        assertThat(columns.get("mood")).isEqualTo(new ColumnInfo("mood", "Enum8('sad' = -1, 'happy' = 1)", JDBCType.VARCHAR));

        List<Object> one = row(sink, 0);
        List<Object> two = row(sink, 1);
        assertThat(one.get(1)).as("UInt64 max").isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(two.get(1)).as("2^53 + 1 stays exact").isEqualTo(9_007_199_254_740_993L);
        assertThat(one.get(2)).isEqualTo(9_007_199_254_740_993L);
        assertThat(two.get(2)).isEqualTo(Long.MIN_VALUE);
        assertThat(one.get(3)).isEqualTo(new BigDecimal("12345678901234567890.0123456789"));
        assertThat(two.get(3)).isEqualTo(new BigDecimal("-0.0000000001"));
        assertThat(one.get(4)).isEqualTo(new BigDecimal("1.5000"));
        assertThat(two.get(4)).isNull();
        assertThat(one.get(5)).isEqualTo(LocalDate.of(2024, 1, 15));
        assertThat(two.get(5)).as("the zero date").isEqualTo(LocalDate.EPOCH);
        assertThat(one.get(6)).isEqualTo(LocalDateTime.of(2024, 1, 15, 10, 30));
        assertThat(two.get(6)).isEqualTo(LocalDateTime.of(2038, 1, 19, 3, 14, 8));
        assertThat(one.get(7)).isEqualTo(OffsetDateTime.of(2024, 1, 15, 19, 30, 0, 0, ZoneOffset.ofHours(9)));
        assertThat(one.get(8)).isNull();
        assertThat(two.get(8)).isEqualTo(-1);
        assertThat(one.get(9)).isEqualTo(Arrays.asList("a", null, "b'c\\d\t"));
        assertThat(two.get(9)).isEqualTo(List.of());
        assertThat(one.get(10)).isEqualTo(List.of(List.of(1, 2), List.of(), List.of(3)));
        assertThat(one.get(11)).as("FixedString without its NUL padding").isEqualTo("ab");
        assertThat(two.get(11)).isEqualTo("abcd");
        assertThat(one.get(12)).isEqualTo(UUID.fromString("341733bc-869f-49b4-abb8-92ed88ce5b21"));
        assertThat(one.get(13)).isEqualTo("sad");
        assertThat(one.get(14)).isEqualTo(Double.NaN);
        assertThat(two.get(14)).isEqualTo(1e301);
        assertThat(one.get(15)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(two.get(15)).isEqualTo(0.1f);
        assertThat(one.get(16)).isEqualTo("tab\there\nnewline \\ backslash ' quote \0 nul ünïcödé ✓ 😀");
        assertThat(two.get(16)).isEqualTo("");
        assertThat(one.get(17)).isEqualTo(true);
        assertThat(two.get(17)).isEqualTo(false);
        assertThat(one.get(18)).isEqualTo(List.of((short) 7, "x"));
    }

    private static List<Object> row(RecordingSink sink, int i) {
        return sink.rows().get(i);
    }

    @Test
    void expressionsAndNullLiterals() {
        RecordingSink sink = run(dialect(), read("SELECT NULL AS nothing, toNullable(1) AS one, [NULL, 1.5] AS xs,"
                + " CAST(NULL AS Nullable(String)) AS s, toUInt64(9223372036854775808) AS big, 'a\tb' AS tab"));
        assertThat(sink.columns().get(0)).isEqualTo(new ColumnInfo("nothing", "Nullable(Nothing)", JDBCType.NULL));
        assertThat(sink.rows().get(0)).isEqualTo(Arrays.asList(null, (short) 1, Arrays.asList(null, 1.5), null,
                new BigInteger("9223372036854775808"), "a\tb"));
    }

    @Test
    void parametersOfEveryKindRoundTrip() {
        Dialect d = dialect();
        record Case(Object value, JDBCType type, Object expected) {}
        List<Case> cases = List.of(
                new Case(9_007_199_254_740_993L, JDBCType.BIGINT, 9_007_199_254_740_993L),
                new Case(Long.MIN_VALUE, JDBCType.BIGINT, Long.MIN_VALUE),
                new Case(new BigInteger("18446744073709551615"), JDBCType.NUMERIC, new BigInteger("18446744073709551615")),
                new Case(-0.01, JDBCType.DOUBLE, -0.01),
                new Case(Double.NaN, JDBCType.DOUBLE, Double.NaN),
                new Case(Double.NEGATIVE_INFINITY, JDBCType.DOUBLE, Double.NEGATIVE_INFINITY),
                new Case(new BigDecimal("-12345678901234567890.123456789"), JDBCType.DECIMAL,
                        new BigDecimal("-12345678901234567890.123456789")),
                new Case(true, JDBCType.BOOLEAN, (short) 1),
                new Case(LocalDate.of(2105, 12, 31), JDBCType.DATE, LocalDate.of(2105, 12, 31)),
                new Case(LocalDateTime.of(2038, 1, 19, 3, 14, 8), JDBCType.TIMESTAMP, LocalDateTime.of(2038, 1, 19, 3, 14, 8)),
                new Case(UUID.fromString("341733bc-869f-49b4-abb8-92ed88ce5b21"), JDBCType.OTHER,
                        UUID.fromString("341733bc-869f-49b4-abb8-92ed88ce5b21")),
                new Case("x'; DROP TABLE " + CANARY + "; --", JDBCType.VARCHAR, "x'; DROP TABLE " + CANARY + "; --"));
        for (Case c : cases) {
            Object v = run(d, read("SELECT ? AS v", new Parameter("v", c.value(), c.type()))).singleValue();
            assertThat(v).as("%s", c.value()).isEqualTo(c.expected());
        }
        // an OffsetDateTime is the same instant on a server in any zone
        Object utc = run(d, read("SELECT toUnixTimestamp(?) AS v", new Parameter("v",
                OffsetDateTime.of(2024, 1, 15, 19, 30, 0, 0, ZoneOffset.ofHours(9)), JDBCType.TIMESTAMP_WITH_TIMEZONE)))
                .singleValue();
        assertThat(utc).isEqualTo(1_705_314_600L);
        // a negative number after a minus is not a comment
        assertThat(run(d, read("SELECT 1 -? AS v", new Parameter("v", -5L, JDBCType.BIGINT))).singleValue())
                .isEqualTo((short) 6);
        DialectException refused = failure(d, read("SELECT ? AS v", new Parameter("v", LocalDate.of(1960, 1, 1), JDBCType.DATE)));
        assertThat(refused.error()).isEqualTo(DialectError.SYNTAX);
        assertThat(refused.getMessage()).contains("outside ClickHouse's Date range");
    }

    @Test
    void theConfiguredDatabaseIsWhereUnqualifiedNamesResolve() {
        Dialect d = dialect(Map.of("clickhouse.database", "system"), 1);
        assertThat(run(d, read("SELECT dummy FROM one")).singleValue()).isEqualTo((short) 0);
        assertThat(run(d, read("SELECT currentDatabase() AS db")).singleValue()).isEqualTo("system");
    }

    // ---------------------------------------------------------------- read-only

    @Test
    void writesInAReadAreRefusedByTheServerAndChangeNothing() {
        Dialect d = dialect();
        for (String write : List.of("INSERT INTO " + CANARY + " VALUES (3, 'three')",
                "CREATE TABLE qag_ch_evil (x UInt8) ENGINE = Memory",
                "DROP TABLE " + CANARY,
                "SELECT 1 SETTINGS max_execution_time = 1000",
                "SET max_execution_time = 0",
                "SELECT * FROM numbers(10)",
                "SELECT * FROM url('http://127.0.0.1:1/', TSV, 'x String')",
                "SELECT * FROM remote('127.0.0.1', system.one)")) {
            DialectException e = failure(d, read(write));
            assertThat(e.error()).as(write + ": " + e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            assertThat(e.sqlState()).as(write).isEqualTo("164");
        }
        assertThat(TestingClickHouse.value("SELECT count() FROM " + CANARY)).isEqualTo("2");
        assertThat(TestingClickHouse.value("EXISTS TABLE qag_ch_evil")).isEqualTo("0");
    }

    @Test
    void killIsRefusedInAReadBecauseReadonlyDoesNotStopIt() throws Exception {
        String victim = unique("qag-ch-victim");
        CompletableFuture<?> running = CompletableFuture.runAsync(() -> TestingClickHouse.send(
                Map.of("query_id", victim, "max_execution_time", "20"), "SELECT count() FROM system.numbers"));
        awaitRunning(victim);
        DialectException e = failure(dialect(), read("KILL QUERY WHERE query_id = '" + victim + "'"));
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        Thread.sleep(200);
        assertThat(TestingClickHouse.running(victim)).as("the victim still runs").containsExactly(victim);
        // the gap the dialect closes: the server itself lets readonly=1 kill
        TestingClickHouse.exec(Map.of("readonly", "1"), "KILL QUERY WHERE query_id = '" + victim + "' ASYNC");
        TestingClickHouse.awaitGone(victim, Duration.ofSeconds(5));
        running.get(10, TimeUnit.SECONDS);
    }

    @Test
    void writesInAWriteCallWork() {
        Dialect d = dialect();
        QueryRequest create = QueryRequest.read("CREATE TABLE qag_ch_written (x UInt8) ENGINE = Memory", List.of(), LIMIT, 10)
                .withMode(AccessMode.WRITE);
        RecordingSink sink = new RecordingSink();
        assertThat(d.execute(create, sink)).isEqualTo(new QueryStats(0, QueryStats.UNKNOWN_UPDATE_COUNT, false));
        assertThat(sink.columns()).isEmpty();
        d.execute(QueryRequest.read("INSERT INTO qag_ch_written VALUES (?)", List.of(new Parameter("x", 7L, JDBCType.BIGINT)),
                LIMIT, 10).withMode(AccessMode.WRITE), new RecordingSink());
        assertThat(TestingClickHouse.value("SELECT sum(x) FROM qag_ch_written")).isEqualTo("7");
        DialectException set = failure(d, QueryRequest.read("SET max_threads = 1", List.of(), LIMIT, 10)
                .withMode(AccessMode.WRITE));
        assertThat(set.getMessage()).as("no session, so nothing can be set for later calls").contains("no session");
        DialectException temp = failure(d, QueryRequest.read("CREATE TEMPORARY TABLE qag_ch_tmp (x UInt8)", List.of(),
                LIMIT, 10).withMode(AccessMode.WRITE));
        assertThat(temp.getMessage()).contains("no session");
    }

    // ---------------------------------------------------------------- time limits and kills

    @Test
    void theTimeLimitKillsTheQueryOnTheServer() throws Exception {
        String id = unique("timeout");
        long start = System.nanoTime();
        DialectException e = failure(dialect(), request("SELECT count() FROM system.numbers", Duration.ofSeconds(1), 10, id));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(ms).isBetween(950L, 3_000L);
        Duration gone = TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
        System.out.printf("time limit 1 s: TIMEOUT after %d ms, gone from system.processes %d ms later%n", ms,
                gone.toMillis());
    }

    @Test
    void aSubSecondLimitIsTheClientsWithTheServerLimitRoundedUp() throws Exception {
        TcpProxy proxy = proxy();
        String id = unique("subsecond");
        long start = System.nanoTime();
        DialectException e = failure(dialectVia(proxy), request("SELECT count() FROM system.numbers", Duration.ofMillis(300), 10, id));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).isEqualTo(DialectError.TIMEOUT);
        assertThat(ms).isBetween(280L, 1_500L);
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
        assertThat(proxy.sent()).contains("POST /?readonly=1&max_execution_time=1&max_result_rows=11&result_overflow_mode=break"
                + "&extremes=0&database=default&query_id=qag-" + id + "-");
        assertThat(proxy.sent()).contains("KILL QUERY WHERE query_id = 'qag-" + id + "-");
    }

    @Test
    void aTimeoutWhileWaitingForTheFirstByteAndOneWhileStreamingBothKill() throws Exception {
        Dialect d = dialect();
        // streaming: the first rows arrive, then the limit passes while the sink is being fed
        String id = unique("stream-timeout");
        AtomicLong rows = new AtomicLong();
        DialectException e = catchThrowableOfType(DialectException.class, () -> d.execute(
                request("SELECT number FROM system.numbers", Duration.ofMillis(700), Long.MAX_VALUE, id),
                counting(rows, Long.MAX_VALUE)));
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(DialectError.TIMEOUT);
        assertThat(rows.get()).isPositive();
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
    }

    @Test
    void cancellingKillsTheQueryOnTheServer() throws Exception {
        Dialect d = dialect();
        String id = unique("cancel");
        RecordingSink sink = new RecordingSink();
        CompletableFuture<DialectException> call = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                DialectException.class, () -> d.execute(request("SELECT count() FROM system.numbers", LIMIT, 10, id), sink)));
        awaitRunning("qag-" + id);
        long start = System.nanoTime();
        sink.cancel();
        DialectException e = call.get(10, TimeUnit.SECONDS);
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(DialectError.CANCELLED);
        assertThat(ms).isLessThan(2_000L);
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
        assertThatCode(sink::cancel).doesNotThrowAnyException();
    }

    @Test
    void closingTheDialectKillsWhatIsRunning() throws Exception {
        Dialect d = dialect();
        String id = unique("close");
        CompletableFuture<DialectException> call = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                DialectException.class, () -> d.execute(request("SELECT count() FROM system.numbers", LIMIT, 10, id),
                        new RecordingSink())));
        awaitRunning("qag-" + id);
        d.close();
        DialectException e = call.get(10, TimeUnit.SECONDS);
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
    }

    // ---------------------------------------------------------------- streaming and row caps

    @Test
    void rowsReachTheSinkWhileTheServerIsStillRunning() {
        String id = unique("streaming");
        AtomicReference<List<String>> runningAtFirstRow = new AtomicReference<>();
        AtomicLong rows = new AtomicLong();
        long start = System.nanoTime();
        AtomicLong firstRowNanos = new AtomicLong();
        QueryStats stats = dialect().execute(request("SELECT number FROM system.numbers LIMIT 10000000", LIMIT, 20_000_000, id),
                new RowSink() {
                    @Override
                    public void columns(List<ColumnInfo> columns) {}

                    @Override
                    public boolean row(Object[] values) {
                        if (rows.getAndIncrement() == 0) {
                            firstRowNanos.set(System.nanoTime() - start);
                            runningAtFirstRow.set(TestingClickHouse.running("qag-" + id));
                        }
                        return true;
                    }
                });
        long total = System.nanoTime() - start;
        assertThat(stats).isEqualTo(QueryStats.read(10_000_000, false));
        assertThat(runningAtFirstRow.get()).as("the query was still running when the first row arrived").hasSize(1);
        System.out.printf("10M rows: first row after %d ms, all after %d ms%n", firstRowNanos.get() / 1_000_000,
                total / 1_000_000);
    }

    @Test
    void maxRowsStopsEarlyAndTheServerQueryEnds() throws Exception {
        String id = unique("maxrows");
        RecordingSink sink = new RecordingSink();
        QueryStats stats = dialect().execute(request("SELECT number FROM system.numbers", LIMIT, 1000, id), sink);
        assertThat(stats).isEqualTo(QueryStats.read(1000, true));
        assertThat(sink.rows()).hasSize(1000);
        assertThat(sink.rows().get(999)).containsExactly(new BigInteger("999").longValue());
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
    }

    @Test
    void aSinkThatStopsAnEndlessReadGetsTheQueryKilled() throws Exception {
        TcpProxy proxy = proxy();
        String id = unique("sinkstop");
        AtomicLong rows = new AtomicLong();
        QueryStats stats = dialectVia(proxy).execute(request("SELECT number FROM system.numbers", LIMIT, Long.MAX_VALUE, id),
                counting(rows, 10));
        assertThat(stats).isEqualTo(QueryStats.read(10, false));
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
        assertThat(proxy.sent()).contains("KILL QUERY WHERE query_id = 'qag-" + id + "-");
    }

    @Test
    void aServerErrorAfterTheRowsBeganFailsTheCallEvenInAOneStringColumn() {
        Dialect d = dialect();
        AtomicLong rows = new AtomicLong();
        DialectException e = catchThrowableOfType(DialectException.class, () -> d.execute(
                request("SELECT toString(number + throwIf(number = 3000000)) AS s FROM system.numbers LIMIT 5000000",
                        LIMIT, Long.MAX_VALUE, "midstream"), counting(rows, Long.MAX_VALUE)));
        assertThat(e).isNotNull();
        assertThat(e.sqlState()).isEqualTo("395");
        assertThat(e.getMessage()).contains("throwIf");
        assertThat(rows.get()).as("rows were streamed before the error").isPositive().isLessThanOrEqualTo(3_000_000);

        DialectException two = catchThrowableOfType(DialectException.class, () -> d.execute(
                request("SELECT number, number + throwIf(number = 3000000) FROM system.numbers LIMIT 5000000",
                        LIMIT, Long.MAX_VALUE, "midstream2"), counting(new AtomicLong(), Long.MAX_VALUE)));
        assertThat(two).isNotNull();
        assertThat(two.sqlState()).isEqualTo("395");
    }

    @Test
    void aRowThatLooksLikeAnErrorIsDataWhenMoreFollows() {
        String fake = "Code: 1, e.displayText() = DB::Exception: fake, e.what() = DB::Exception";
        RecordingSink sink = run(dialect(), request("SELECT if(number = 0, '" + fake + "', toString(number)) AS s"
                + " FROM system.numbers LIMIT 20000", LIMIT, 100_000, "fake"));
        assertThat(sink.rows()).hasSize(20_000);
        assertThat(sink.rows().get(0)).containsExactly(fake);
        assertThat(sink.rows().get(19_999)).containsExactly("19999");
    }

    /**
     * The documented limit of the TSV framing: a one-column result whose last rows (within 64 KiB of the end) start
     * with text shaped exactly like a ClickHouse error is reported as that error. It fails closed: never the other way
     * round (a real error taken for data).
     */
    @Test
    void aLastRowShapedLikeAServerErrorFailsClosed() {
        DialectException e = failure(dialect(), read("SELECT 'Code: 164, e.displayText() = DB::Exception: fake,"
                + " e.what() = DB::Exception' AS s"));
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(e.getMessage()).contains("fake");
    }

    private static RowSink counting(AtomicLong rows, long stopAfter) {
        return new RowSink() {
            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                return rows.incrementAndGet() < stopAfter;
            }
        };
    }

    // ---------------------------------------------------------------- the wire

    @Test
    void onePostPerCallOnOneKeptAliveConnectionAndNeverASession() throws Exception {
        TcpProxy proxy = proxy();
        Dialect d = dialectVia(proxy);
        for (int i = 0; i < 20; i++) {
            run(d, read("SELECT ? AS v", new Parameter("v", (long) i, JDBCType.BIGINT)));
        }
        d.execute(QueryRequest.read("SELECT 1", List.of(), LIMIT, 5).withMode(AccessMode.WRITE), new RecordingSink());
        d.checkHealth(Duration.ofSeconds(2));
        failure(d, read("SELECT nope"));
        String wire = proxy.sent();
        assertThat(proxy.connections()).as("keep-alive: one TCP connection for sequential calls").isEqualTo(1);
        assertThat(wire).doesNotContain("session_id").doesNotContain("session_timeout");
        assertThat(wire.split("POST /\\?", -1)).hasSize(24);
        assertThat(wire).contains("POST /?readonly=1&max_execution_time=30&max_result_rows=10001"
                + "&result_overflow_mode=break&extremes=0&database=default&query_id=qag-");
        assertThat(wire).contains("POST /?max_execution_time=30&max_result_rows=6&result_overflow_mode=break&extremes=0"
                + "&database=default&query_id=qag-");
        assertThat(wire).contains("X-ClickHouse-User: default").doesNotContain("Authorization");
        assertThat(wire).contains("SELECT  19  AS v\nFORMAT TabSeparatedWithNamesAndTypes");
    }

    @Test
    void aConnectionTheServerClosedWhileIdleIsNotAFailure() throws Exception {
        TcpProxy proxy = proxy();
        Dialect d = dialectVia(proxy);
        run(d, read("SELECT 1"));
        Thread.sleep(3_500); // 18.16 closes idle keep-alive connections after 3 s
        assertThat(run(d, read("SELECT 2 AS v")).singleValue()).isEqualTo((short) 2);
        assertThat(proxy.connections()).isEqualTo(2);
    }

    @Test
    void gzipAndBasicAuthWork() {
        Dialect d = dialect(Map.of("clickhouse.compression", "gzip", "clickhouse.auth", "basic"), 1);
        RecordingSink sink = run(d, request("SELECT number, toString(number) AS s FROM system.numbers LIMIT 100000", LIMIT,
                1_000_000, "gzip"));
        assertThat(sink.rows()).hasSize(100_000);
        assertThat(sink.rows().get(99_999)).containsExactly(new BigInteger("99999").longValue(), "99999");
    }

    // ---------------------------------------------------------------- errors and availability

    @Test
    void serverErrorsAreClassified() {
        Dialect d = dialect();
        record Case(String sql, DialectError error, String code) {}
        for (Case c : List.of(
                new Case("SELEC 1", DialectError.SYNTAX, "62"),
                new Case("SELECT * FROM qag_ch_no_such_table", DialectError.SYNTAX, "60"),
                new Case("SELECT no_such_column FROM " + CANARY, DialectError.SYNTAX, "47"),
                new Case("SELECT no_such_function(1)", DialectError.SYNTAX, "46"),
                new Case("SELECT 1 FORMAT JSON", DialectError.SYNTAX, "62"),
                new Case("SELECT 1; SELECT 2", DialectError.SYNTAX, "62"),
                new Case("SELECT * FROM no_such_db.t", DialectError.SYNTAX, "81"))) {
            DialectException e = failure(d, read(c.sql()));
            assertThat(e.error()).as(c.sql() + ": " + e.getMessage()).isEqualTo(c.error());
            assertThat(e.sqlState()).as(c.sql()).isEqualTo(c.code());
        }
    }

    @Test
    void wrongCredentialsArePermissionDenied() {
        for (Optional<String> password : List.of(Optional.<String>empty(), Optional.of("qag-secret-pw"))) {
            Optional<String> user = password.isPresent() ? Optional.of("default") : Optional.of("qag_ch_nobody");
            Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), user, password, 1),
                    Map.of());
            opened.add(d);
            DialectException e = failure(d, read("SELECT 1"));
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.PERMISSION_DENIED);
            assertThat(e.getMessage()).doesNotContain("qag-secret-pw");
            DialectException health = catchThrowableOfType(DialectException.class, () -> d.checkHealth(Duration.ofSeconds(2)));
            assertThat(health.error()).isEqualTo(DialectError.PERMISSION_DENIED);
        }
    }

    @Test
    void aClosedPortIsUnavailable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context("http://127.0.0.1:" + port, 1), Map.of());
        opened.add(d);
        long start = System.nanoTime();
        DialectException e = failure(d, read("SELECT 1"));
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.error().retryable()).isTrue();
        assertThat(e.getMessage()).contains("cannot reach ClickHouse at 127.0.0.1:" + port);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(2_000L);
        assertThat(catchThrowableOfType(DialectException.class, () -> d.checkHealth(Duration.ofSeconds(1))).error())
                .isEqualTo(DialectError.UNAVAILABLE);
    }

    @Test
    void aCallWaitsForAFreeSlotOnlyUntilItsTimeLimit() throws Exception {
        Dialect d = dialect(Map.of("clickhouse.max_concurrent", "1"), 4);
        String id = unique("slot");
        CompletableFuture<DialectException> hog = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                DialectException.class, () -> d.execute(request("SELECT count() FROM system.numbers", Duration.ofSeconds(3),
                        10, id), new RecordingSink())));
        awaitRunning("qag-" + id);
        DialectException e = failure(d, request("SELECT 1", Duration.ofMillis(300), 10, "waiting"));
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.getMessage()).contains("clickhouse.max_concurrent = 1");
        assertThat(hog.get(10, TimeUnit.SECONDS).error()).isEqualTo(DialectError.TIMEOUT);
        assertThat(run(d, read("SELECT 1")).rows()).hasSize(1);
        TestingClickHouse.awaitGone("qag-" + id, Duration.ofSeconds(5));
    }

    private static void awaitRunning(String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (TestingClickHouse.running(prefix).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("query " + prefix + " never showed up in system.processes");
            }
            Thread.sleep(10);
        }
    }
}
