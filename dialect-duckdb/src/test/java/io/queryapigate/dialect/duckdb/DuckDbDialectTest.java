package io.queryapigate.dialect.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Capability;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB behaviour beyond the shared contract: files, init scripts, writable databases, interrupts, the pool. */
class DuckDbDialectTest {

    private static final String SLOW = "SELECT count(*) FROM range(1000000) a, range(1000000) b WHERE a.range + b.range = -1";

    @TempDir
    Path home;

    private final List<Dialect> dialects = new ArrayList<>();

    @AfterEach
    void close() {
        dialects.forEach(Dialect::close);
    }

    private Dialect dialect(String url, int poolSize, Map<String, String> properties) {
        DialectContext context = new DialectContext("test", url, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, poolSize, home);
        Dialect dialect = new DuckDbDialectFactory().create(context, properties);
        dialects.add(dialect);
        return dialect;
    }

    private void createDatabase(String name, String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve(name))) {
            c.createStatement().execute(sql);
        }
    }

    private static QueryRequest read(String sql) {
        return QueryRequest.read(sql, List.of(), Duration.ofSeconds(30), 1000);
    }

    private static Object value(Dialect dialect, String sql) {
        RecordingSink sink = new RecordingSink();
        dialect.execute(read(sql), sink);
        return sink.singleValue();
    }

    private static DialectException failure(Dialect dialect, QueryRequest request) {
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(request, new RecordingSink()));
        assertThat(e).as(request.sql() + " must fail").isNotNull();
        return e;
    }

    @Test
    void theInitScriptCreatesTheDatabaseOnceThenItOpensReadOnly() throws Exception {
        Path script = Files.writeString(home.resolve("init.sql"),
                "CREATE TABLE t (id INTEGER, name VARCHAR);\nINSERT INTO t VALUES (1, 'one'), (2, 'two');\n-- trailing comment\n");
        Map<String, String> properties = Map.of("duckdb.init_script", script.toString());
        Dialect first = dialect("data/made.duckdb", 1, properties);
        assertThat(home.resolve("data/made.duckdb")).isRegularFile();
        assertThat(value(first, "SELECT string_agg(name, ',' ORDER BY id) FROM t")).isEqualTo("one,two");
        assertThat(failure(first, read("INSERT INTO t VALUES (3, 'three')")).error()).isEqualTo(DialectError.NOT_READ_ONLY);
        first.close();
        try (var files = Files.list(home.resolve("data"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("made.duckdb");
        }

        Files.writeString(script, "CREATE TABLE never (x INTEGER);");
        Dialect second = dialect("data/made.duckdb", 1, properties);
        assertThat(value(second, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'never'")).isEqualTo(0L);
        assertThat(value(second, "SELECT count(*) FROM t")).isEqualTo(2L);
    }

    @Test
    void aFailingInitScriptIsAConfigurationErrorAndLeavesNoFile() throws Exception {
        Path script = Files.writeString(home.resolve("bad.sql"), "CREATE TABLE t (id INTEGER);\nINSERT INTO t VALUES ('x');");
        assertThatThrownBy(() -> dialect("bad.duckdb", 1, Map.of("duckdb.init_script", script.toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("duckdb.init_script: " + script + " failed: Conversion Error");
        try (var files = Files.list(home)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("bad.sql");
        }
        assertThatThrownBy(() -> dialect("bad.duckdb", 1, Map.of("duckdb.init_script", home.resolve("missing.sql").toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duckdb.init_script: no such file: " + home.resolve("missing.sql"));
    }

    @Test
    void aMissingDatabaseIsUnavailableUntilItAppears() throws Exception {
        Dialect dialect = dialect("late.duckdb", 1, Map.of());
        DialectException health = catchThrowableOfType(DialectException.class, () -> dialect.checkHealth(Duration.ofSeconds(5)));
        assertThat(health.error()).isEqualTo(DialectError.UNAVAILABLE);
        DialectException call = failure(dialect, read("SELECT 1"));
        assertThat(call.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(call.getMessage()).contains("late.duckdb").contains("does not exist");

        createDatabase("late.duckdb", "CREATE TABLE t AS SELECT 7 AS x");
        assertThat(value(dialect, "SELECT x FROM t")).isEqualTo(7);
        assertThatCode(() -> dialect.checkHealth(Duration.ofSeconds(5))).doesNotThrowAnyException();
    }

    @Test
    void aWritableDatabaseCommitsWritesAndStillRefusesWritesSentAsReads() throws Exception {
        createDatabase("rw.duckdb", "CREATE TABLE t (id INTEGER)");
        Dialect dialect = dialect("jdbc:duckdb:rw.duckdb", 1, Map.of("duckdb.read_only", "false"));
        assertThat(dialect.capabilities()).doesNotContain(Capability.SERVER_ENFORCED_READ_ONLY)
                .contains(Capability.SERVER_SIDE_TIMEOUT, Capability.CANCELLATION, Capability.STREAMING, Capability.BIND_PARAMETERS);

        RecordingSink sink = new RecordingSink();
        QueryStats insert = dialect.execute(read("INSERT INTO t SELECT range FROM range(3)").withMode(AccessMode.WRITE), sink);
        assertThat(insert).isEqualTo(new QueryStats(0, 3, false));
        assertThat(sink.columnsCalls()).isEqualTo(1);
        assertThat(dialect.execute(read("CREATE TABLE u (x INTEGER)").withMode(AccessMode.WRITE), new RecordingSink()))
                .isEqualTo(new QueryStats(0, 0, false));

        for (String write : List.of("INSERT INTO t VALUES (9)", "DELETE FROM t", "DROP TABLE u", "EXPLAIN ANALYZE DELETE FROM t",
                "WITH x AS (SELECT 1 AS id) INSERT INTO t SELECT id FROM x")) {
            DialectException e = failure(dialect, read(write));
            assertThat(e.error()).as(write + ": " + e.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        }
        assertThat(value(dialect, "SELECT count(*) FROM t")).isEqualTo(3L);
    }

    @Test
    void describeOnAWritableDatabaseTellsReturningWritesFromPlainOnesAndNothingRuns() throws Exception {
        createDatabase("rw.duckdb", "CREATE TABLE t (id INTEGER NOT NULL, name VARCHAR)");
        Dialect dialect = dialect("jdbc:duckdb:rw.duckdb", 1, Map.of("duckdb.read_only", "false"));

        assertThat(dialect.describe(read("INSERT INTO t VALUES (1, 'one')"))).contains(List.of());
        assertThat(dialect.describe(read("CREATE TABLE u (x INTEGER)"))).contains(List.of());
        assertThat(dialect.describe(read("INSERT INTO t VALUES (2, 'two') RETURNING id, name")))
                .hasValueSatisfying(columns -> assertThat(columns).extracting(c -> c.name() + " " + c.typeName())
                        .containsExactly("id INTEGER", "name VARCHAR"));
        assertThat(value(dialect, "SELECT count(*) FROM t")).isEqualTo(0L);
        assertThat(value(dialect, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'u'")).isEqualTo(0L);
    }

    @Test
    void describeAnswersEmptyWhenDuckDbLeavesTheTypesOpenUntilValuesAreBound() throws Exception {
        createDatabase("ro.duckdb", "CREATE TABLE t (id INTEGER)");
        Dialect dialect = dialect("ro.duckdb", 1, Map.of());
        Parameter id = new Parameter("id", null, JDBCType.BIGINT);
        assertThat(dialect.describe(QueryRequest.read("SELECT id FROM t WHERE id = ? LIMIT ?",
                List.of(id, new Parameter("n", null, JDBCType.BIGINT)), Duration.ofSeconds(5), 1)))
                .hasValueSatisfying(columns -> assertThat(columns).extracting(c -> c.typeName()).containsExactly("INTEGER"));
        assertThat(dialect.describe(QueryRequest.read("SELECT id + ? AS next FROM t", List.of(id), Duration.ofSeconds(5), 1)))
                .isEmpty();
    }

    @Test
    void writesOnAReadOnlyDatabaseFailNotReadOnly() throws Exception {
        createDatabase("ro.duckdb", "CREATE TABLE t (id INTEGER)");
        Dialect dialect = dialect("ro.duckdb", 1, Map.of());
        DialectException e = failure(dialect, read("INSERT INTO t VALUES (1)").withMode(AccessMode.WRITE));
        assertThat(e.error()).isEqualTo(DialectError.NOT_READ_ONLY);
        assertThat(e.getMessage()).startsWith("Invalid Input Error: Cannot execute statement of type \"INSERT\"");
    }

    @Test
    void anInMemoryDatabaseRunsItsInitScript() throws Exception {
        Path script = Files.writeString(home.resolve("mem.sql"), "CREATE TABLE t AS SELECT range AS id FROM range(5);");
        Dialect dialect = dialect(":memory:", 2, Map.of("duckdb.read_only", "false", "duckdb.init_script", script.toString()));
        assertThat(value(dialect, "SELECT count(*) FROM t")).isEqualTo(5L);
        assertThatCode(() -> dialect.checkHealth(Duration.ofSeconds(5))).doesNotThrowAnyException();
    }

    @Test
    void theTimeLimitAlsoInterruptsAStreamingFetch() throws Exception {
        createDatabase("fetch.duckdb", "SELECT 1");
        Dialect dialect = dialect("fetch.duckdb", 1, Map.of());
        assertThat(DuckDbInterrupter.available()).as("the driver's native interrupt is reachable").isTrue();
        // the first 200,000 wide rows fill DuckDB's streaming buffer at once; the next row is 2*10^10 rows away,
        // so the call then sits inside ResultSet.next(), where Statement.cancel() does nothing in driver 1.5.6
        String sql = "SELECT range, repeat('x', 1000) AS pad FROM range(100000000000)"
                + " WHERE range < 200000 OR range % 20000000000 = 0";
        long start = System.nanoTime();
        DialectException e = failure(dialect,
                QueryRequest.read(sql, List.of(), Duration.ofMillis(1500), 1_000_000));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(elapsedMillis).isBetween(1_400L, 3_500L);
        assertThat(value(dialect, "SELECT 42")).isEqualTo(42);
    }

    @Test
    void aTimeLimitInterruptsTheLeadingStatementsOfAMultiStatementString() throws Exception {
        createDatabase("multi.duckdb", "SELECT 1");
        Dialect dialect = dialect("multi.duckdb", 1, Map.of());
        long start = System.nanoTime();
        DialectException e = failure(dialect, read(SLOW + "; SELECT 1").withTimeout(Duration.ofMillis(300)));
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(1_500L);
    }

    @Test
    void rowsStreamInsteadOfBeingMaterialised() throws Exception {
        createDatabase("stream.duckdb", "SELECT 1");
        Dialect dialect = dialect("stream.duckdb", 1, Map.of("duckdb.memory_limit", "256MB"));
        // 10^9 rows of 100 bytes would need 100 GB if the driver materialised the result before the first row
        RecordingSink sink = new RecordingSink();
        long start = System.nanoTime();
        QueryStats stats = dialect.execute(QueryRequest.read("SELECT range, repeat('y', 100) AS pad FROM range(1000000000)",
                List.of(), Duration.ofSeconds(20), 1000), sink);
        assertThat(stats).isEqualTo(new QueryStats(1000, -1, true));
        assertThat(sink.column("range").get(999)).isEqualTo(999L);
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000L);
    }

    @Test
    void anExhaustedPoolFailsUnavailableWithinTheCallsTimeLimit() throws Exception {
        createDatabase("pool.duckdb", "SELECT 1");
        Dialect dialect = dialect("pool.duckdb", 1, Map.of());
        CountDownLatch started = new CountDownLatch(1);
        RecordingSink slowSink = new RecordingSink() ;
        CompletableFuture<DialectException> slow = CompletableFuture.supplyAsync(() -> {
            started.countDown();
            return catchThrowableOfType(DialectException.class,
                    () -> dialect.execute(read(SLOW).withTimeout(Duration.ofSeconds(3)), slowSink));
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(300);
        long start = System.nanoTime();
        DialectException e = failure(dialect, read("SELECT 1").withTimeout(Duration.ofMillis(400)));
        assertThat(e.error()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(e.getMessage()).contains("pool size 1");
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(350L, 2_000L);
        assertThat(slow.get(10, TimeUnit.SECONDS).error()).isEqualTo(DialectError.TIMEOUT);
        assertThat(value(dialect, "SELECT 1")).isEqualTo(1);
    }

    @Test
    void closingInterruptsRunningCallsAndLaterCallsFailUnavailable() throws Exception {
        createDatabase("closing.duckdb", "SELECT 1");
        Dialect dialect = dialect("closing.duckdb", 2, Map.of());
        RecordingSink sink = new RecordingSink();
        CompletableFuture<DialectException> running = CompletableFuture.supplyAsync(() ->
                catchThrowableOfType(DialectException.class, () -> dialect.execute(read(SLOW), sink)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sink.cancelCallback() == null && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(100);
        dialect.close();
        DialectException e = running.get(5, TimeUnit.SECONDS);
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.UNAVAILABLE);
        assertThat(failure(dialect, read("SELECT 1")).error()).isEqualTo(DialectError.UNAVAILABLE);
    }

    @Test
    void errorMessagesDropTheDriversWrapper() throws Exception {
        createDatabase("errors.duckdb", "CREATE TABLE t (id INTEGER)");
        Dialect dialect = dialect("errors.duckdb", 1, Map.of());
        DialectException e = failure(dialect, read("SELECT * FROM nope"));
        assertThat(e.error()).isEqualTo(DialectError.SYNTAX);
        assertThat(e.getMessage()).startsWith("Catalog Error: Table with name nope does not exist");
        assertThat(failure(dialect, read("SELECT 'abc'::INTEGER")).error()).isEqualTo(DialectError.SYNTAX);
        assertThat(failure(dialect, read("SELECT 2147483647::INTEGER + 1")).error()).isEqualTo(DialectError.SYNTAX);
        assertThat(failure(dialect, read("SELECT id FROM t WHERE id = ?")).error()).isIn(DialectError.SYNTAX, DialectError.INTERNAL);
    }
}
