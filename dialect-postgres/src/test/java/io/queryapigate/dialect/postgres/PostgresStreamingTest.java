package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.failure;
import static io.queryapigate.dialect.postgres.Calls.number;
import static io.queryapigate.dialect.postgres.Calls.run;
import static io.queryapigate.dialect.postgres.Calls.stream;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.DialectError;
import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.testkit.CountingSocket.Counter;
import io.queryapigate.dialect.testkit.CountingSocket.Snapshot;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.sql.JDBCType;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Streaming reads (exports): a read-only transaction, a cursor, fetch_size rows per round trip, ROLLBACK. */
class PostgresStreamingTest {

    private static final String SCHEMA = TestingPostgresServer.schemaName("streaming");
    private static final AtomicInteger TAGS = new AtomicInteger();
    private static TestingPostgresServer server;
    private PostgresDialect dialect;

    @BeforeAll
    static void createSchema() throws Exception {
        server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
        server.run("CREATE SEQUENCE " + SCHEMA + ".seq");
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

    private Counter dialect(QueryMode mode, int fetchSize) {
        String tag = "streaming-" + TAGS.incrementAndGet();
        dialect = server.dialect(SCHEMA, 1, Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, mode.pgjdbcValue(),
                PostgresDialectConfig.FETCH_SIZE, Integer.toString(fetchSize)), PgCountingSocketFactory.urlParameters(tag));
        run(dialect, Calls.read("SELECT 1"));
        return PgCountingSocketFactory.sessions(tag).get(0);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void twoHundredThousandRowsFlowInBatchesWhileTheQueryRuns(QueryMode mode) {
        Counter wire = dialect(mode, 500);
        long pid = number(dialect, "SELECT pg_backend_pid()");
        wire.resetMaximum();
        Snapshot before = wire.snapshot();
        class Sink implements RowSink {
            long rows;
            OffsetDateTime firstReceived;
            OffsetDateTime lastProduced;
            List<ColumnInfo> columns;

            @Override
            public void columns(List<ColumnInfo> columns) {
                this.columns = columns;
            }

            @Override
            public boolean row(Object[] values) {
                if (rows == 0) {
                    firstReceived = OffsetDateTime.now();
                }
                rows++;
                assertThat(((Number) values[0]).longValue()).isEqualTo(rows);
                lastProduced = (OffsetDateTime) values[1];
                return true;
            }
        }
        Sink sink = new Sink();
        QueryStats stats = dialect.execute(stream("SELECT g, clock_timestamp() AS produced FROM generate_series(1, ?) g",
                1_000_000, new Parameter("n", 200_000L, JDBCType.BIGINT)), sink);
        Snapshot call = wire.snapshot().minus(before);

        assertThat(stats).isEqualTo(QueryStats.read(200_000, false));
        assertThat(sink.rows).isEqualTo(200_000);
        assertThat(sink.columns).extracting(ColumnInfo::typeName).containsExactly("int8", "timestamptz");
        // the server computed the last row after the first one had reached the sink: rows flow, not a result set
        assertThat(sink.firstReceived).isBefore(sink.lastProduced);
        // 401 FETCHes (the first inside the opening message; the last one finds the end) and the ROLLBACK
        assertThat(call.roundTrips()).isEqualTo(402);
        // the client never received more than one batch at a time, while the whole export was megabytes
        assertThat(call.bytesIn()).isGreaterThan(5_000_000);
        assertThat(wire.maxBytesPerRoundTrip()).isLessThan(100_000);
        assertThat(number(dialect, "SELECT pg_backend_pid()")).isEqualTo(pid);
        assertThat(number(dialect, "SELECT count(*) FROM pg_cursors WHERE name = 'qag_stream'")).isZero();
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void theRowLimitStopsTheStreamAndReportsTruncation(QueryMode mode) {
        Counter wire = dialect(mode, 500);
        Snapshot before = wire.snapshot();
        RecordingSink sink = new RecordingSink();
        QueryStats stats = dialect.execute(stream("SELECT g FROM generate_series(1, 100000) g", 1234), sink);
        assertThat(stats).isEqualTo(QueryStats.read(1234, true));
        assertThat(sink.rows()).hasSize(1234);
        assertThat(sink.rows().get(1233)).containsExactly(1234);
        // 500 + 500 + 235 (one past the limit), then ROLLBACK
        assertThat(wire.snapshot().minus(before).roundTrips()).isEqualTo(4);

        RecordingSink exact = new RecordingSink();
        assertThat(dialect.execute(stream("SELECT g FROM generate_series(1, 1000) g", 1000), exact))
                .isEqualTo(QueryStats.read(1000, false));
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aSinkThatStopsEndsTheStreamAndTheSessionIsClean(QueryMode mode) {
        dialect(mode, 100);
        long pid = number(dialect, "SELECT pg_backend_pid()");
        RecordingSink ten = new RecordingSink(10);
        QueryStats stats = dialect.execute(stream("SELECT g FROM generate_series(1, 100000) g", 1_000_000), ten);
        assertThat(stats).isEqualTo(QueryStats.read(10, false));
        assertThat(number(dialect, "SELECT count(*) FROM pg_cursors WHERE name = 'qag_stream'")).isZero();
        assertThat(Calls.text(dialect, "SELECT current_setting('transaction_read_only')")).isEqualTo("on");
        assertThat(number(dialect, "SELECT pg_backend_pid()")).isEqualTo(pid);

        RecordingSink empty = new RecordingSink();
        assertThat(dialect.execute(stream("SELECT g AS n FROM generate_series(1, 0) g", 10), empty))
                .isEqualTo(QueryStats.read(0, false));
        assertThat(empty.columnNames()).containsExactly("n");
        assertThat(empty.columnsCalls()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void theTimeLimitCoversTheWholeStream(QueryMode mode) {
        dialect(mode, 100);
        long pid = number(dialect, "SELECT pg_backend_pid()");
        long start = System.nanoTime();
        // each FETCH is quick; together they would take 100 s
        DialectException e = failure(dialect, stream("SELECT g, pg_sleep(0.001) FROM generate_series(1, 100000) g",
                1_000_000).withTimeout(Duration.ofMillis(500)));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(e.error()).as(e.getMessage()).isEqualTo(DialectError.TIMEOUT);
        assertThat(millis).isBetween(400L, 3_000L);
        assertThat(number(dialect, "SELECT count(*) FROM pg_cursors WHERE name = 'qag_stream'")).isZero();
        assertThat(number(dialect, "SELECT pg_backend_pid()")).isEqualTo(pid);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aCallerThatGoesAwayCancelsTheStream(QueryMode mode) {
        dialect(mode, 100);
        RowSink leaving = new RowSink() {
            private Runnable cancel;
            private int rows;

            @Override
            public void columns(List<ColumnInfo> columns) {}

            @Override
            public boolean row(Object[] values) {
                if (++rows == 250) {
                    cancel.run(); // the service does this from another thread when the client disconnects
                }
                return true;
            }

            @Override
            public void onCancellable(Runnable cancel) {
                this.cancel = cancel;
            }
        };
        DialectException e = catchThrowableOfType(DialectException.class, () -> dialect.execute(
                stream("SELECT g FROM generate_series(1, 100000) g", 1_000_000), leaving));
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(DialectError.CANCELLED);
        assertThat(number(dialect, "SELECT 42")).isEqualTo(42);
    }

    @ParameterizedTest
    @EnumSource(QueryMode.class)
    void aStreamIsReadOnlyAndCannotHoldAWrite(QueryMode mode) {
        dialect(mode, 100);
        DialectException nextval = failure(dialect, stream("SELECT nextval('seq') FROM generate_series(1, 3)", 10));
        assertThat(nextval.error()).as(nextval.getMessage()).isEqualTo(DialectError.NOT_READ_ONLY);
        DialectException insert = failure(dialect, stream("INSERT INTO x VALUES (1) RETURNING *", 10));
        assertThat(insert.error()).as(insert.getMessage()).isEqualTo(DialectError.SYNTAX);
        DialectException cte = failure(dialect, stream("WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM d", 10));
        assertThat(cte.error()).as(cte.getMessage()).isIn(DialectError.SYNTAX);
        assertThat(number(dialect, "SELECT 7")).isEqualTo(7);
    }

    @Test
    void parametersOfEveryKindWorkInAStream() {
        for (QueryMode mode : QueryMode.values()) {
            dialect(mode, 3);
            RecordingSink sink = new RecordingSink();
            dialect.execute(stream("SELECT g, ?::text AS s FROM generate_series(1, 10) g WHERE g % ? = 0", 100,
                    new Parameter("s", "it's", JDBCType.VARCHAR), new Parameter("m", 2L, JDBCType.BIGINT)), sink);
            assertThat(sink.column("g")).as(mode.name()).containsExactly(2, 4, 6, 8, 10);
            assertThat(sink.column("s")).containsOnly("it's");
            dialect.close();
        }
        dialect = null;
    }
}
