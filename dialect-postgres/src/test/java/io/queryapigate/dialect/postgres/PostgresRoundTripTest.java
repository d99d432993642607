package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.read;
import static io.queryapigate.dialect.postgres.Calls.run;
import static io.queryapigate.dialect.postgres.Calls.stream;
import static io.queryapigate.dialect.postgres.Calls.write;
import static io.queryapigate.dialect.testkit.PostgresMessages.READY_FOR_QUERY;
import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.testkit.CountingSocket.Counter;
import io.queryapigate.dialect.testkit.CountingSocket.Snapshot;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Round trips counted on the wire: every pgjdbc connection of these tests goes through {@link
 * PgCountingSocketFactory}, which counts how often the client waits for the server after sending, and the server's
 * ReadyForQuery messages. Pool of one, so every call runs on the counted session.
 */
class PostgresRoundTripTest {

    private static final String SCHEMA = TestingPostgresServer.schemaName("roundtrip");
    private static final AtomicInteger TAGS = new AtomicInteger();
    private static TestingPostgresServer server;
    private PostgresDialect dialect;

    @BeforeAll
    static void createSchema() throws Exception {
        server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
        server.run("CREATE TABLE " + SCHEMA + ".t (id bigint PRIMARY KEY, v text, d date)",
                "INSERT INTO " + SCHEMA + ".t SELECT g, 'v' || g, DATE '2024-01-01' + g FROM generate_series(1, 100) g");
    }

    @AfterAll
    static void dropSchema() throws Exception {
        server.dropSchema(SCHEMA);
    }

    @AfterEach
    void closeDialect() {
        if (dialect != null) {
            dialect.close();
        }
    }

    /** A dialect whose single connection is counted; returns its counter once the connection is open. */
    private Counter countedDialect(Map<String, String> properties, String tag) {
        dialect = server.dialect(SCHEMA, 1, properties, PgCountingSocketFactory.urlParameters(tag));
        run(dialect, read("SELECT 1")); // opens the connection
        List<Counter> sessions = PgCountingSocketFactory.sessions(tag);
        assertThat(sessions).hasSize(1);
        return sessions.get(0);
    }

    private static String tag(String name) {
        return "roundtrip-" + name + "-" + TAGS.incrementAndGet();
    }

    private static Map<String, String> mode(QueryMode mode) {
        return Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue());
    }

    private static Snapshot measure(Counter counter, Runnable call) {
        Snapshot before = counter.snapshot();
        call.run();
        return counter.snapshot().minus(before);
    }

    @Test
    void theCounterCountsOneRoundTripPerStatementSentAlone() throws Exception {
        String tag = tag("raw");
        try (Connection connection = server.connect(server.url(PgCountingSocketFactory.urlParameters(tag)));
                Statement statement = connection.createStatement()) {
            Counter counter = PgCountingSocketFactory.sessions(tag).get(0);
            Snapshot two = measure(counter, () -> {
                execute(statement, "SELECT 1");
                execute(statement, "SELECT 2");
            });
            assertThat(two.roundTrips()).isEqualTo(2);
            assertThat(two.messages(READY_FOR_QUERY)).isEqualTo(2);

            // the design ADR 0027 replaced: four round trips per read
            connection.setAutoCommit(false);
            Snapshot legacy = measure(counter, () -> {
                execute(statement, "SET TRANSACTION READ ONLY"); // pgjdbc sends BEGIN in the same write
                execute(statement, "SET LOCAL statement_timeout = 1000");
                execute(statement, "SELECT 1");
                rollback(connection);
            });
            assertThat(legacy.roundTrips()).isEqualTo(4);
            // BEGIN travels with the first statement but is its own Query: one round trip, two ReadyForQuery
            assertThat(legacy.messages(READY_FOR_QUERY)).isEqualTo(5);
            connection.setAutoCommit(true);

            Snapshot one = measure(counter, () -> execute(statement, "SELECT 1; SELECT 2; SELECT 3"));
            assertThat(one.roundTrips()).isEqualTo(1);
            assertThat(one.messages(READY_FOR_QUERY)).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aReadIsOneRoundTrip(QueryMode mode) {
        Counter counter = countedDialect(mode(mode), tag("read-" + mode));
        // more calls than pgjdbc's prepareThreshold (5), so that named server-side statements are measured too
        for (int i = 1; i <= 8; i++) {
            long id = i;
            RecordingSink sink = new RecordingSink();
            Snapshot call = measure(counter, () -> dialect.execute(read("SELECT id, v, d FROM t WHERE id = ? AND d > ?",
                    new Parameter("id", id, JDBCType.BIGINT), new Parameter("d", LocalDate.of(2000, 1, 1), JDBCType.DATE)),
                    sink));
            assertThat(sink.rows()).containsExactly(List.of(id, "v" + id, LocalDate.of(2024, 1, 1).plusDays(id)));
            assertThat(call.roundTrips()).as("call %d", i).isEqualTo(1);
            assertThat(call.messages(READY_FOR_QUERY)).as("call %d", i).isEqualTo(1);
        }
        Snapshot empty = measure(counter, () -> run(dialect, read("SELECT id FROM t WHERE id < 0")));
        assertThat(empty.roundTrips()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aWriteIsOneRoundTrip(QueryMode mode) throws Exception {
        Counter counter = countedDialect(mode(mode), tag("write-" + mode));
        for (int i = 0; i < 7; i++) {
            long id = 1000 + i;
            RecordingSink sink = new RecordingSink();
            QueryStats[] stats = new QueryStats[1];
            Snapshot call = measure(counter, () -> stats[0] = dialect.execute(write(
                    "INSERT INTO t (id, v) VALUES (?, ?) RETURNING id",
                    new Parameter("id", id, JDBCType.BIGINT), new Parameter("v", "w", JDBCType.VARCHAR)), sink));
            assertThat(stats[0]).isEqualTo(new QueryStats(1, 1, false));
            assertThat(call.roundTrips()).isEqualTo(1);
            assertThat(call.messages(READY_FOR_QUERY)).isEqualTo(1);
        }
        QueryStats[] stats = new QueryStats[1];
        Snapshot update = measure(counter, () -> stats[0] = dialect.execute(write("UPDATE t SET v = 'x' WHERE id >= 1000"),
                new RecordingSink()));
        assertThat(stats[0]).isEqualTo(new QueryStats(0, 7, false));
        assertThat(update.roundTrips()).isEqualTo(1);
        server.run("DELETE FROM " + SCHEMA + ".t WHERE id >= 1000");
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aStreamingReadIsOneRoundTripPerBatchPlusTheRollback(QueryMode mode) {
        Counter counter = countedDialect(Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue(),
                PostgresDialectConfig.FETCH_SIZE, "1000"), tag("stream-" + mode));
        RecordingSink sink = new RecordingSink();
        QueryStats[] stats = new QueryStats[1];
        Snapshot call = measure(counter, () -> stats[0] = dialect.execute(
                stream("SELECT g FROM generate_series(1, ?) g", 1_000_000, new Parameter("n", 2500L, JDBCType.BIGINT)), sink));
        assertThat(stats[0]).isEqualTo(QueryStats.read(2500, false));
        // BEGIN + the message + the first 1000 rows; 1000 more; the last 500; ROLLBACK
        assertThat(call.roundTrips()).isEqualTo(4);
        // pgjdbc's BEGIN is a Query of its own in the first write: 5 ReadyForQuery for 4 round trips
        assertThat(call.messages(READY_FOR_QUERY)).isEqualTo(5);
        Snapshot after = measure(counter, () -> run(dialect, read("SELECT 1")));
        assertThat(after.roundTrips()).as("back in autocommit, nothing left to close").isEqualTo(1);
    }

    @Test
    void theHealthCheckIsOneRoundTrip() {
        Counter counter = countedDialect(Map.of(), tag("health"));
        Snapshot check = measure(counter, () -> dialect.checkHealth(Duration.ofSeconds(5)));
        assertThat(check.roundTrips()).isEqualTo(1);
    }

    @Test
    void anIdleConnectionIsValidatedOnlyAfterTheConfiguredTime() throws Exception {
        // 700 ms apart is past HikariCP's own 500 ms window (com.zaxxer.hikari.aliveBypassWindowMs), which would
        // validate (an extra round trip) on this borrow; the dialect's 5 s default does not
        Counter counter = countedDialect(Map.of(), tag("idle-default"));
        Thread.sleep(700);
        Snapshot call = measure(counter, () -> run(dialect, read("SELECT 1")));
        assertThat(call.roundTrips()).isEqualTo(1);
        dialect.close();

        Counter shortWindow = countedDialect(Map.of(PostgresDialectConfig.POOL_IDLE_VALIDATION, "300ms"), tag("idle-300"));
        Thread.sleep(700);
        Snapshot validated = measure(shortWindow, () -> run(dialect, read("SELECT 1")));
        assertThat(validated.roundTrips()).as("isValid, then the call").isEqualTo(2);
        Snapshot next = measure(shortWindow, () -> run(dialect, read("SELECT 1")));
        assertThat(next.roundTrips()).isEqualTo(1);
    }

    @Test
    void parametersAreBoundAcrossTheMultiStatementMessage() {
        // extended mode: the user's ? markers become $1, $2 of the last statement; values travel as parameters
        Counter counter = countedDialect(Map.of(), tag("bind"));
        String attack = "x'); DROP TABLE t; --";
        RecordingSink sink = new RecordingSink();
        Snapshot call = measure(counter, () -> dialect.execute(read("SELECT ?::text AS a, ?::int + 1 AS b, '?' AS c",
                new Parameter("a", attack, JDBCType.VARCHAR), new Parameter("b", 41L, JDBCType.BIGINT)), sink));
        assertThat(sink.rows()).containsExactly(List.of(attack, 42, "?"));
        assertThat(call.roundTrips()).isEqualTo(1);
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static void rollback(Connection connection) {
        try {
            connection.rollback();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
