package io.queryapigate.dialect.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.spi.TableNamespace;
import io.queryapigate.dialect.testkit.HttpRequests;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Trino dialect against the real Trino 476: tpch reads and types, the read-only transaction, the time limit and
 * cancellation (with the coordinator's own view in {@code system.runtime.queries}), streaming, name resolution for
 * allow-lists and what each call sends. Every slow query carries a marker comment; each test waits until its queries
 * are no longer running, so no test leaves work behind on the shared server.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TrinoDialectTest {
    static final String SCHEMA = "qag_trino_test";
    static final Duration LIMIT = Duration.ofSeconds(60);

    /** CPU-bound for hours on this machine, constant memory. */
    static final String CROSS_JOIN = "SELECT count(*) FROM tpch.sf1.lineitem l CROSS JOIN tpch.sf1.orders o"
            + " WHERE l.orderkey + o.orderkey < 0";

    @BeforeAll
    static void createSchema() throws Exception {
        TestingTrino.schema(SCHEMA);
    }

    static QueryRequest read(String sql, Parameter... parameters) {
        return QueryRequest.read(sql, List.of(parameters), LIMIT, 10_000);
    }

    static String marker() {
        return "qag-" + UUID.randomUUID();
    }

    static RecordingSink run(TrinoDialect dialect, QueryRequest request) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(request, sink);
        return sink;
    }

    static DialectException failure(TrinoDialect dialect, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class,
                () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as("expected %s to fail", request.sql()).isNotNull();
        return e;
    }

    static List<JDBCType> types(RecordingSink sink) {
        return sink.columns().stream().map(ColumnInfo::type).toList();
    }

    // ---------------------------------------------------------------- tpch reads and types

    @Test
    void tpchReadsDeliverKnownValuesWithTheirTypes() {
        try (TrinoDialect d = TestingTrino.dialect("/tpch/tiny", Map.of(), 1)) {
            RecordingSink nation = run(d, read("SELECT nationkey, name, regionkey FROM nation WHERE nationkey = ?",
                    new Parameter("key", 0L, JDBCType.BIGINT)));
            assertThat(nation.rows()).containsExactly(List.of(0L, "ALGERIA", 0L));
            assertThat(types(nation)).containsExactly(JDBCType.BIGINT, JDBCType.VARCHAR, JDBCType.BIGINT);
            assertThat(nation.columns().get(1).typeName()).isEqualTo("varchar(25)");

            RecordingSink order = run(d, read("SELECT orderkey, custkey, CAST(totalprice AS decimal(12,2)) AS totalprice,"
                    + " orderdate, orderstatus FROM orders WHERE orderkey = 1"));
            assertThat(order.columnNames()).containsExactly("orderkey", "custkey", "totalprice", "orderdate", "orderstatus");
            assertThat(types(order)).containsExactly(JDBCType.BIGINT, JDBCType.BIGINT, JDBCType.DECIMAL, JDBCType.DATE,
                    JDBCType.VARCHAR);
            assertThat(order.rows()).containsExactly(
                    List.of(1L, 370L, new BigDecimal("172799.49"), LocalDate.of(1996, 1, 2), "O"));
            assertThat(order.columns().get(2).typeName()).isEqualTo("decimal(12,2)");

            RecordingSink counts = run(d, read("SELECT (SELECT count(*) FROM nation), (SELECT count(*) FROM lineitem),"
                    + " (SELECT name FROM nation WHERE nationkey = 24)"));
            assertThat(counts.rows()).containsExactly(List.of(25L, 60_175L, "UNITED STATES"));
        }
    }

    @Test
    void privilegeWarningsAreNotCheckedOnTrino() {
        // access control is the coordinator's plugin (file, Ranger, OPA, ...): nothing reliable to ask a session
        try (TrinoDialect d = TestingTrino.dialect("/tpch/tiny", Map.of(), 1)) {
            assertThat(d.privilegeWarnings(java.time.Duration.ofSeconds(5))).isEmpty();
        }
    }

    @Test
    void trinoTypesBecomeTheSpiValueKinds() {
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            RecordingSink sink = run(d, read("SELECT"
                    + " TIMESTAMP '2024-01-15 10:30:00.123' AS ts3,"
                    + " TIMESTAMP '2024-01-15 10:30:00.123456789' AS ts9,"
                    + " TIMESTAMP '2024-01-15 10:30:00 +02:00' AS tstz,"
                    + " TIMESTAMP '2024-07-15 10:30:00 Europe/Paris' AS tsnamed,"
                    + " ARRAY[1, 2, 3] AS arr,"
                    + " ARRAY[ROW(1, 'a')] AS arr_rows,"
                    + " CAST(ROW(1, 'x') AS ROW(a integer, b varchar)) AS named_row,"
                    + " ROW(1, 'x') AS anonymous_row,"
                    + " MAP(ARRAY['a', 'b'], ARRAY[1, 2]) AS m,"
                    + " TIME '10:30:00.5' AS t,"
                    + " X'0102' AS bin,"
                    + " UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59' AS u,"
                    + " REAL '1.5' AS r,"
                    + " CAST(7 AS tinyint) AS ti,"
                    + " JSON '{\"a\":1}' AS j,"
                    + " CAST(NULL AS bigint) AS n,"
                    + " CAST(12345678901234567890123.45 AS decimal(38,2)) AS big_decimal,"
                    + " TRUE AS b,"
                    + " DOUBLE '1.5' AS dbl"));
            List<Object> row = sink.rows().get(0);
            Map<String, Object> byName = new java.util.LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                byName.put(sink.columnNames().get(i), row.get(i));
            }
            assertThat(byName.get("ts3")).isEqualTo(LocalDateTime.of(2024, 1, 15, 10, 30, 0, 123_000_000));
            assertThat(byName.get("ts9")).isEqualTo(LocalDateTime.of(2024, 1, 15, 10, 30, 0, 123_456_789));
            assertThat(byName.get("tstz")).isEqualTo(OffsetDateTime.of(2024, 1, 15, 10, 30, 0, 0, ZoneOffset.ofHours(2)));
            assertThat(byName.get("tsnamed")).isEqualTo(OffsetDateTime.of(2024, 7, 15, 10, 30, 0, 0, ZoneOffset.ofHours(2)));
            assertThat(byName.get("arr")).isEqualTo(List.of(1, 2, 3));
            assertThat(byName.get("arr_rows")).isEqualTo(List.of(Map.of("f1", 1, "f2", "a")));
            assertThat(byName.get("named_row")).isEqualTo(Map.of("a", 1, "b", "x"));
            assertThat(byName.get("anonymous_row")).isEqualTo(Map.of("f1", 1, "f2", "x"));
            assertThat(byName.get("m")).isEqualTo(Map.of("a", 1, "b", 2));
            assertThat(byName.get("t")).isEqualTo(LocalTime.of(10, 30, 0, 500_000_000));
            assertThat((byte[]) byName.get("bin")).containsExactly(1, 2);
            assertThat(byName.get("u")).isEqualTo(UUID.fromString("12151fd2-7586-11e9-8f9e-2a86e4085a59"));
            assertThat(byName.get("r")).isEqualTo(1.5f);
            assertThat(byName.get("ti")).isEqualTo((byte) 7);
            assertThat(byName.get("j")).isEqualTo("{\"a\":1}");
            assertThat(byName).containsEntry("n", null);
            assertThat(byName.get("big_decimal")).isEqualTo(new BigDecimal("12345678901234567890123.45"));
            assertThat(byName.get("b")).isEqualTo(true);
            assertThat(byName.get("dbl")).isEqualTo(1.5d);
            assertThat(types(sink).subList(0, 4)).containsExactly(JDBCType.TIMESTAMP, JDBCType.TIMESTAMP,
                    JDBCType.TIMESTAMP_WITH_TIMEZONE, JDBCType.TIMESTAMP_WITH_TIMEZONE);
        }
    }

    @Test
    void describeNamesEveryTypeAsARunDoes() {
        String sql = "SELECT TINYINT '1' AS a, SMALLINT '1' AS b, 1 AS c, BIGINT '1' AS d, REAL '1' AS e,"
                + " DOUBLE '1' AS f, DECIMAL '1.50' AS g, 'x' AS h, CAST('x' AS CHAR(3)) AS i, X'00' AS j,"
                + " DATE '2020-01-01' AS k, TIME '01:02:03.456' AS l, TIME '01:02:03 +01:00' AS m,"
                + " TIMESTAMP '2020-01-01 00:00:00.123' AS n, TIMESTAMP '2020-01-01 00:00:00 UTC' AS o,"
                + " ARRAY[1, 2] AS p, MAP(ARRAY['a'], ARRAY[1]) AS q,"
                + " CAST(ROW(1, 'x') AS ROW(x integer, y varchar)) AS r, JSON '{}' AS s,"
                + " UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59' AS t, INTERVAL '1' DAY AS u, true AS v,"
                + " CAST(NULL AS varchar(5)) AS w";
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            List<ColumnInfo> described = d.describe(read(sql)).orElseThrow();
            List<ColumnInfo> ran = run(d, read(sql)).columns();
            assertThat(described).isEqualTo(ran);
            // DESCRIBE OUTPUT cannot take the parameters' declared types: Trino types a ? from where it stands
            assertThat(d.describe(read("SELECT ? AS p, ? + 1 AS q", new Parameter("p", null, JDBCType.VARCHAR),
                    new Parameter("q", null, JDBCType.BIGINT))).orElseThrow())
                    .extracting(ColumnInfo::typeName, ColumnInfo::type)
                    .containsExactly(tuple("unknown", JDBCType.NULL), tuple("integer", JDBCType.INTEGER));
        }
    }

    @Test
    void offsetDateTimeParametersKeepTheirOffset() {
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            OffsetDateTime value = OffsetDateTime.of(2024, 1, 15, 10, 30, 0, 500_000_000, ZoneOffset.ofHours(2));
            RecordingSink sink = run(d, read("SELECT ? = TIMESTAMP '2024-01-15 08:30:00.5 UTC', format_datetime(?, 'ZZ')",
                    new Parameter("at", value, JDBCType.TIMESTAMP_WITH_TIMEZONE),
                    new Parameter("at", value, JDBCType.TIMESTAMP_WITH_TIMEZONE)));
            assertThat(sink.rows()).containsExactly(List.of(true, "+02:00"));
        }
    }

    // ---------------------------------------------------------------- read-only

    @Test
    void writesSentAsReadsAreRefusedByTrinoAndChangeNothing() throws Exception {
        TestingTrino.exec("DROP TABLE IF EXISTS memory." + SCHEMA + ".ro_target",
                "DROP TABLE IF EXISTS memory." + SCHEMA + ".ro_created",
                "CREATE TABLE memory." + SCHEMA + ".ro_target AS SELECT nationkey FROM tpch.tiny.nation WHERE nationkey < 3");
        try (TrinoDialect d = TestingTrino.dialect("/memory/" + SCHEMA, Map.of(), 1)) {
            for (String write : List.of(
                    "INSERT INTO ro_target VALUES (99)",
                    "CREATE TABLE ro_created (x bigint)",
                    "CREATE TABLE ro_created AS SELECT 1 AS x",
                    "TRUNCATE TABLE ro_target",
                    "DROP TABLE ro_target",
                    "CALL system.runtime.kill_query('20260101_000000_00000_xxxxx', 'qag test')")) {
                DialectException e = failure(d, read(write));
                assertThat(e.error()).as(write + ": " + e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
            }
            DialectException insert = failure(d, read("INSERT INTO ro_target VALUES (99)"));
            assertThat(insert.sqlState()).isEqualTo("23");
            assertThat(insert.getMessage()).contains("Cannot execute write in a read-only transaction");

            assertThat(TestingTrino.query("SELECT count(*) FROM memory." + SCHEMA + ".ro_target")).isEqualTo("3");
            assertThat(TestingTrino.rows("SHOW TABLES FROM memory." + SCHEMA + " LIKE 'ro_created'")).isEmpty();

            // a write call (auto-commit, no transaction) goes through and reports its count
            RecordingSink written = new RecordingSink();
            QueryStats stats = d.execute(read("INSERT INTO ro_target SELECT nationkey FROM tpch.tiny.nation"
                    + " WHERE nationkey BETWEEN 10 AND 12").withMode(AccessMode.WRITE), written);
            assertThat(stats).isEqualTo(new QueryStats(0, 3, false));
            assertThat(written.columns()).isEmpty();
            assertThat(TestingTrino.query("SELECT count(*) FROM memory." + SCHEMA + ".ro_target")).isEqualTo("6");
        }
    }

    // ---------------------------------------------------------------- time limit and cancellation

    @Test
    void theTimeLimitStopsACrossJoinAndNoQueryIsLeftRunning() throws Exception {
        String marker = marker();
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            long start = System.nanoTime();
            DialectException e = failure(d, read(CROSS_JOIN + " /* " + marker + " */").withTimeout(Duration.ofMillis(1500)));
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
            assertThat(elapsed).as("stopped soon after the 1.5 s limit").isBetween(1_400L, 5_000L);
            System.out.println("time limit 1500 ms, client cancel: TIMEOUT after " + elapsed + " ms");

            List<List<String>> queries = TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
            assertThat(queries).as("the query reached the coordinator").hasSize(1);
            assertThat(queries.get(0).get(1)).as("state of %s", queries).isEqualTo("FAILED");
            assertThat(queries.get(0).get(2)).isIn("EXCEEDED_TIME_LIMIT", "USER_CANCELED");

            assertThat(run(d, read("SELECT count(*) FROM tpch.tiny.nation")).singleValue())
                    .as("the next call is not limited by the last one").isEqualTo(25L);
        }
    }

    @Test
    void trinoEnforcesTheTimeLimitItselfWhenTheClientDoesNotCancel() throws Exception {
        String marker = marker();
        // a long client grace: the coordinator's query_max_run_time / query_max_execution_time must end the query
        try (TrinoDialect d = TestingTrino.dialect("", Map.of("trino.client_cancel_grace", "30s"), 1)) {
            long start = System.nanoTime();
            DialectException e = failure(d, read(CROSS_JOIN + " /* " + marker + " */").withTimeout(Duration.ofSeconds(1)));
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
            assertThat(e.sqlState()).isEqualTo("131075");
            assertThat(e.getMessage()).contains("maximum");
            assertThat(elapsed).as("Trino checks its limits about once a second").isBetween(900L, 10_000L);
            System.out.println("time limit 1000 ms, Trino's own enforcement: TIMEOUT after " + elapsed + " ms");
            List<List<String>> queries = TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
            assertThat(queries).singleElement().satisfies(q -> {
                assertThat(q.get(1)).isEqualTo("FAILED");
                assertThat(q.get(2)).isEqualTo("EXCEEDED_TIME_LIMIT");
            });
        }
    }

    @Test
    void theCancelCallbackCancelsTheQueryOnTheCoordinator() throws Exception {
        String marker = marker();
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            RecordingSink sink = new RecordingSink();
            CompletableFuture<DialectException> call = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                    DialectException.class, () -> d.execute(read(CROSS_JOIN + " /* " + marker + " */"), sink)));
            // cancel once the coordinator runs it, as the service does when the HTTP caller goes away
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (TestingTrino.queriesMarked(marker).stream().noneMatch(q -> q.get(1).equals("RUNNING"))) {
                assertThat(System.nanoTime()).as("the query started").isLessThan(deadline);
                Thread.sleep(50);
            }
            long cancelledAt = System.nanoTime();
            sink.cancel();
            DialectException e = call.get(30, TimeUnit.SECONDS);
            long afterCancel = (System.nanoTime() - cancelledAt) / 1_000_000;
            assertThat(e).isNotNull();
            assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.CANCELLED);
            assertThat(afterCancel).isLessThan(3_000L);
            System.out.println("cancel callback: CANCELLED " + afterCancel + " ms after the callback ran");

            List<List<String>> queries = TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
            assertThat(queries).singleElement().satisfies(q -> {
                assertThat(q.get(1)).isEqualTo("FAILED");
                assertThat(q.get(2)).isEqualTo("USER_CANCELED");
            });
        }
    }

    @Test
    void aFullPoolFailsUnavailableWithinTheCallsLimit() throws Exception {
        String marker = marker();
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            RecordingSink slowSink = new RecordingSink();
            CompletableFuture<DialectException> slow = CompletableFuture.supplyAsync(() -> catchThrowableOfType(
                    DialectException.class, () -> d.execute(read(CROSS_JOIN + " /* " + marker + " */"), slowSink)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (slowSink.cancelCallback() == null) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(20);
            }
            long start = System.nanoTime();
            DialectException busy = failure(d, read("SELECT 1").withTimeout(Duration.ofMillis(500)));
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            assertThat(busy.error()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(elapsed).isBetween(450L, 3_000L);
            slowSink.cancel();
            assertThat(slow.get(30, TimeUnit.SECONDS).error()).isEqualTo(DialectError.CANCELLED);
            assertThat(run(d, read("SELECT 1")).singleValue()).isEqualTo(1);
            TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
        }
    }

    // ---------------------------------------------------------------- streaming

    @Test
    void rowsStreamWhileTheQueryRunsAndMaxRowsCancelsTheRest() throws Exception {
        String marker = marker();
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            AtomicReference<String> stateAtFirstRow = new AtomicReference<>();
            List<Long> arrivals = new ArrayList<>();
            long start = System.nanoTime();
            io.queryapigate.dialect.spi.RowSink watching = new io.queryapigate.dialect.spi.RowSink() {
                long rows;

                @Override
                public void columns(List<ColumnInfo> columns) {
                    assertThat(columns).hasSize(2);
                }

                @Override
                public boolean row(Object[] values) {
                    rows++;
                    if (rows == 1) {
                        arrivals.add((System.nanoTime() - start) / 1_000_000);
                        try {
                            stateAtFirstRow.set(TestingTrino.queriesMarked(marker).get(0).get(1));
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }
                    return true;
                }
            };
            QueryStats stats = d.execute(QueryRequest.read("SELECT orderkey, comment FROM tpch.sf1.lineitem /* "
                    + marker + " */", List.of(), LIMIT, 50_000), watching);
            long total = (System.nanoTime() - start) / 1_000_000;
            assertThat(stats).isEqualTo(QueryStats.read(50_000, true));
            assertThat(stateAtFirstRow.get()).as("the first row arrived while Trino was still producing 6 M rows")
                    .isIn("RUNNING", "FINISHING");
            assertThat(arrivals.get(0)).isLessThan(total);
            System.out.println("streaming: first row after " + arrivals.get(0) + " ms (query " + stateAtFirstRow.get()
                    + "), 50,000 rows after " + total + " ms");

            List<List<String>> queries = TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10));
            assertThat(queries).singleElement().satisfies(q -> {
                assertThat(q.get(1)).isEqualTo("FAILED");
                assertThat(q.get(2)).as("closing the result cancelled the rest").isEqualTo("USER_CANCELED");
            });
        }
    }

    @Test
    void aSinkThatStopsEarlyLeavesNoQueryRunning() throws Exception {
        String marker = marker();
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            RecordingSink three = new RecordingSink(3);
            QueryStats stats = d.execute(read("SELECT orderkey FROM tpch.sf1.orders /* " + marker + " */"), three);
            assertThat(stats).isEqualTo(QueryStats.read(3, false));
            assertThat(TestingTrino.awaitNoneActive(marker, Duration.ofSeconds(10)))
                    .singleElement().satisfies(q -> assertThat(q.get(1)).isIn("FAILED", "FINISHED"));
        }
    }

    // ---------------------------------------------------------------- names for allow-lists

    @Test
    void bareAndTwoPartNamesResolveAgainstTheSessionCatalogAndSchema() {
        String bare = "SELECT name FROM nation WHERE nationkey = 0";
        String twoPart = "SELECT name FROM tiny.nation WHERE nationkey = 0";
        String full = "SELECT name FROM tpch.tiny.nation WHERE nationkey = 0";
        try (TrinoDialect d = TestingTrino.dialect("/tpch/tiny", Map.of(), 1)) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("tpch", "tiny"));
            for (String sql : List.of(bare, twoPart, full)) {
                assertThat(run(d, read(sql)).singleValue()).as(sql).isEqualTo("ALGERIA");
            }
            assertThat(run(d, read("SELECT count(*) FROM sf1.nation")).singleValue())
                    .as("a two-part name picks another schema of the session catalog").isEqualTo(25L);
        }
        try (TrinoDialect d = TestingTrino.dialect("", Map.of("trino.catalog", "tpch"), 1)) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace("tpch", null));
            assertThat(failure(d, read(bare)).error()).isEqualTo(DialectError.SYNTAX);
            assertThat(run(d, read(twoPart)).singleValue()).isEqualTo("ALGERIA");
        }
        try (TrinoDialect d = TestingTrino.dialect("", Map.of(), 1)) {
            assertThat(d.defaultNamespace()).isEqualTo(new TableNamespace(null, null));
            DialectException e = failure(d, read(twoPart));
            assertThat(e.error()).isEqualTo(DialectError.SYNTAX);
            assertThat(e.getMessage()).contains("Catalog must be specified");
            assertThat(run(d, read(full)).singleValue()).isEqualTo("ALGERIA");
        }
    }

    // ---------------------------------------------------------------- what each call sends

    @Test
    void eachCallSendsExactlyItsPlan() throws Exception {
        String source = "qag-trino-plan-" + UUID.randomUUID();
        AtomicLong httpRequests = new AtomicLong();
        try (TcpProxy proxy = TcpProxy.to(TestingTrino.address())
                        .tap(() -> new HttpRequests(httpRequests::incrementAndGet)).start();
                TrinoDialect d = (TrinoDialect) new TrinoDialectFactory().create(
                        TestingTrino.context("jdbc:trino://" + proxy.hostPort() + "/tpch/tiny", 1),
                        Map.of("trino.source", source))) {
            QueryRequest plain = read("SELECT name FROM nation WHERE nationkey = 0");
            QueryRequest withParameter = read("SELECT name FROM nation WHERE name = ? AND nationkey = ?",
                    new Parameter("name", "it's", JDBCType.VARCHAR), new Parameter("key", 3L, JDBCType.BIGINT));
            QueryRequest write = read("SELECT 42").withMode(AccessMode.WRITE);
            List<Long> requests = new ArrayList<>();
            int queries = 0;
            for (QueryRequest request : List.of(plain, withParameter, write)) {
                long before = httpRequests.get();
                d.execute(request, new RecordingSink());
                SessionPlan plan = d.sessionStrategy().plan(request);
                queries += plan.before().size() + 1 + plan.after().size();
                awaitQueries(source, queries); // the ROLLBACK runs just after the call returns
                requests.add(httpRequests.get() - before);
            }
            List<String> sent = TestingTrino.queriesFrom(source).stream().map(q -> q.get(0)).toList();
            SessionPlan p1 = d.sessionStrategy().plan(plain);
            SessionPlan p2 = d.sessionStrategy().plan(withParameter);
            SessionPlan p3 = d.sessionStrategy().plan(write);
            assertThat(sent).containsExactly(
                    p1.before().get(0), p1.statement(), p1.after().get(0),
                    p2.before().get(0),
                    "EXECUTE IMMEDIATE 'SELECT name FROM nation WHERE name = ? AND nationkey = ?'"
                            + " USING 'it''s', BIGINT '3'",
                    p2.after().get(0),
                    p3.statement());
            assertThat(sent.get(4)).startsWith(p2.statement().substring(0, p2.statement().indexOf(" USING ")));
            assertThat(p1.before()).containsExactly(TrinoSessionStrategy.START_READ_ONLY);
            assertThat(p3.before()).isEmpty();
            assertThat(p3.after()).isEmpty();
            // the plan's count is the typical one; Trino's state changes make it vary by a few
            assertThat(requests.get(0)).isBetween(p1.roundTrips() - 4L, p1.roundTrips() + 8L);
            assertThat(requests.get(1)).isBetween(p2.roundTrips() - 4L, p2.roundTrips() + 8L);
            assertThat(requests.get(2)).isBetween(p3.roundTrips() - 3L, p3.roundTrips() + 6L);
            System.out.println("HTTP requests per call (read, read with parameters, write): " + requests
                    + "; plans say " + Arrays.asList(p1.roundTrips(), p2.roundTrips(), p3.roundTrips()));
        }
    }

    private static void awaitQueries(String source, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (TestingTrino.queriesFrom(source).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    // ---------------------------------------------------------------- health

    @Test
    void healthFailsUnavailableForAClosedPort() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (TrinoDialect d = (TrinoDialect) new TrinoDialectFactory().create(
                TestingTrino.context("jdbc:trino://127.0.0.1:" + port, 1), Map.of())) {
            DialectException health = catchThrowableOfType(DialectException.class,
                    () -> d.checkHealth(Duration.ofSeconds(2)));
            assertThat(health.error()).isEqualTo(DialectError.UNAVAILABLE);
            DialectException call = failure(d, read("SELECT 1"));
            assertThat(call.error()).as(call.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
            assertThat(call.error().retryable()).isTrue();
        }
    }
}
