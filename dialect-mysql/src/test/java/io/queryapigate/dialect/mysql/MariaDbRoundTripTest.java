package io.queryapigate.dialect.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Nullability;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.SessionPlan;
import io.queryapigate.dialect.testkit.MySqlCommands;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.Connection;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Round trips counted from the wire: {@link MySqlCountingSocketFactory} sits under Connector/J and records every
 * command the client sends (COM_QUERY with its SQL, COM_PING, ...). Pool of one connection.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MariaDbRoundTripTest {
    static final String DB = "qag_my_roundtrip";
    static final String COUNTING = "socketFactory=" + MySqlCountingSocketFactory.class.getName();
    static final int CALLS = 1_000;

    @BeforeAll
    static void createDatabase() throws Exception {
        TestingMariaDb.recreateDatabase(DB);
        try (Connection c = TestingMariaDb.admin(DB)) {
            TestingMariaDb.exec(c, "CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(50)) ENGINE=InnoDB",
                    "INSERT INTO customer VALUES (1, 'alpha'), (2, 'beta'), (3, 'gamma')");
        }
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        TestingMariaDb.dropDatabase(DB);
    }

    @BeforeEach
    void reset() {
        MySqlCountingSocketFactory.reset();
    }

    private static QueryRequest lookup(long id) {
        return QueryRequest.read("SELECT id, name FROM customer WHERE id = ?",
                List.of(new Parameter("id", id, JDBCType.BIGINT)), Duration.ofSeconds(5), 100);
    }

    /** Warms the pool up (the connection's open statements), then counts only what the calls send. */
    private static List<MySqlCommands.Command> measure(MySqlDialect d, int calls, long[] nanos) {
        int warmUp = nanos == null ? 1 : 1_000; // JIT and pool warm-up before timing
        for (int i = 0; i < warmUp; i++) {
            d.execute(lookup(i % 3 + 1), new RecordingSink());
        }
        d.awaitReleases(Duration.ofSeconds(10));
        MySqlCountingSocketFactory.reset();
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            RecordingSink sink = new RecordingSink();
            d.execute(lookup(i % 3 + 1), sink);
            if (nanos != null) {
                nanos[i] = System.nanoTime() - start;
            }
            assertThat(sink.rows()).hasSize(1);
        }
        d.awaitReleases(Duration.ofSeconds(10)); // the last call's release travels after it returned
        return MySqlCountingSocketFactory.commands();
    }

    @Test
    void aReadIsExactlyTwoRoundTripsWithNoPing() {
        long[] nanos = new long[CALLS];
        List<MySqlCommands.Command> commands;
        SessionPlan plan;
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of(), 1)) {
            commands = measure(d, CALLS, nanos);
            plan = d.sessionStrategy().plan(lookup(1));
        }
        assertThat(commands).as("commands on the wire for %d reads", CALLS).hasSize(2 * CALLS);
        assertThat(commands).noneMatch(MySqlCommands.Command::isPing);
        assertThat(commands).allMatch(MySqlCommands.Command::isQuery);
        for (int i = 0; i < CALLS; i++) {
            String query = commands.get(2 * i).sql();
            // the golden plan, as sent: the limit is the time left when the call started, so compare the shape
            assertThat(query).startsWith("SET STATEMENT max_statement_time=")
                    .contains(", tx_read_only=1, time_zone='SYSTEM', sql_mode=")
                    .contains(", last_insert_id=0, insert_id=0 FOR ")
                    .endsWith(" FOR SELECT id, name FROM customer WHERE id = " + (i % 3 + 1));
            assertThat(commands.get(2 * i + 1).sql()).isEqualTo(plan.after().get(0)).isEqualTo("ROLLBACK AND CHAIN");
        }
        report("set_statement", nanos);
    }

    @Test
    void aDescribeIsTheServersPrepareAndCloseThenTheReleaseAndNeverRunsTheStatement() {
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of(), 1)) {
            measure(d, 1, null);
            MySqlCountingSocketFactory.reset();
            Optional<List<ColumnInfo>> columns = d.describe(QueryRequest.read(
                    "SELECT id, name, ? + 1 AS next FROM customer WHERE id = ?",
                    List.of(new Parameter("n", null, JDBCType.BIGINT), new Parameter("id", null, JDBCType.BIGINT)),
                    Duration.ofSeconds(5), 1));
            assertThat(columns).hasValueSatisfying(c -> assertThat(c).extracting(ColumnInfo::name, ColumnInfo::type,
                    ColumnInfo::nullability).containsExactly(tuple("id", JDBCType.INTEGER, Nullability.NO_NULLS),
                    tuple("name", JDBCType.VARCHAR, Nullability.NULLABLE), tuple("next", JDBCType.DOUBLE,
                    Nullability.NULLABLE)));
            assertThat(MySqlCountingSocketFactory.commands()).extracting(MySqlCommands.Command::kind)
                    .containsExactly("COM_STMT_PREPARE", "COM_STMT_CLOSE", "COM_QUERY ROLLBACK AND CHAIN");

            // MariaDB refuses to prepare a write in the read-only transaction: no columns; with RETURNING, unknown
            assertThat(d.describe(QueryRequest.read("INSERT INTO customer VALUES (9, 'x')", List.of(),
                    Duration.ofSeconds(5), 1))).contains(List.of());
            assertThat(d.describe(QueryRequest.read("DELETE FROM customer WHERE id = 1 RETURNING id", List.of(),
                    Duration.ofSeconds(5), 1))).isEmpty();
            assertThat(MySqlCountingSocketFactory.commands()).noneMatch(c -> c.kind().equals("COM_STMT_EXECUTE"));
            RecordingSink sink = new RecordingSink();
            d.execute(QueryRequest.read("SELECT count(*) FROM customer", List.of(), Duration.ofSeconds(5), 1), sink);
            assertThat(sink.singleValue()).isEqualTo(3L);
        }
    }

    @Test
    void theCounterSeesAnAddedStatement() {
        // the session mode sends one SET more per call: the same counter must show 3
        long[] nanos = new long[CALLS];
        List<MySqlCommands.Command> commands;
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of("mysql.time_limit_mode", "session"), 1)) {
            commands = measure(d, CALLS, nanos);
        }
        assertThat(commands).hasSize(3 * CALLS).allMatch(MySqlCommands.Command::isQuery);
        assertThat(commands.get(0).sql()).startsWith("SET SESSION max_statement_time = ")
                .endsWith(", SESSION tx_read_only = 1, SESSION last_insert_id = 0, SESSION insert_id = 0");
        assertThat(commands.get(1).sql()).isEqualTo("SELECT id, name FROM customer WHERE id = 1");
        assertThat(commands.get(2).sql()).isEqualTo("ROLLBACK AND CHAIN");
        report("session", nanos);
    }

    @Test
    void theConnectionIsPingedOnlyAfterIdling() throws Exception {
        // short window: idle longer than it (and than HikariCP's 500 ms bypass), and the borrow pings once
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of("mysql.idle_validation", "200ms"), 1)) {
            measure(d, 3, null);
            Thread.sleep(800);
            MySqlCountingSocketFactory.reset();
            d.execute(lookup(1), new RecordingSink());
            d.awaitReleases(Duration.ofSeconds(10));
            List<MySqlCommands.Command> commands = MySqlCountingSocketFactory.commands();
            assertThat(commands).hasSize(3);
            assertThat(commands.get(0).isPing()).as("COM_PING first: %s", commands).isTrue();
        }
        // default window (5 s): the same idle time sends nothing but the call itself
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of(), 1)) {
            measure(d, 3, null);
            Thread.sleep(800);
            MySqlCountingSocketFactory.reset();
            d.execute(lookup(1), new RecordingSink());
            d.awaitReleases(Duration.ofSeconds(10));
            assertThat(MySqlCountingSocketFactory.commands()).hasSize(2).noneMatch(MySqlCommands.Command::isPing);
        }
    }

    @Test
    void openingAConnectionCostsThreeStatements() {
        try (MySqlDialect d = TestingMariaDb.dialect(DB, COUNTING, Map.of(), 1)) {
            d.execute(lookup(1), new RecordingSink());
            d.awaitReleases(Duration.ofSeconds(10));
            List<String> sql = new ArrayList<>();
            for (MySqlCommands.Command c : MySqlCountingSocketFactory.commands()) {
                if (c.isQuery()) {
                    sql.add(c.sql());
                }
            }
            int open = sql.indexOf(SessionDataSource.DETECT);
            assertThat(open).as("%s", sql).isGreaterThanOrEqualTo(0);
            assertThat(sql.subList(open, open + 3)).containsExactly(SessionDataSource.DETECT,
                    "SET SESSION TRANSACTION READ ONLY", "START TRANSACTION READ ONLY");
            assertThat(sql.subList(open + 3, sql.size())).hasSize(2);
        }
    }

    private static void report(String mode, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("mysql dialect, MariaDB on loopback, mode %s, %d reads: p50 %d us, p90 %d us, p99 %d us%n",
                mode, sorted.length, sorted[sorted.length / 2] / 1000, sorted[sorted.length * 9 / 10] / 1000,
                sorted[sorted.length * 99 / 100] / 1000);
    }
}
