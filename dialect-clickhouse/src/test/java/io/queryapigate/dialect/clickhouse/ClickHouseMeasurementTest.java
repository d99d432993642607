package io.queryapigate.dialect.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.QueryStats;
import io.queryapigate.dialect.spi.RowSink;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.JDBCType;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The numbers in docs/adr/0001-clickhouse-over-http.md: per-call latency of a point query (dialect and a bare
 * java.net.http POST of the same statement, to show what the dialect adds) and rows per second of a 1M-row read.
 * Printed to the test output ({@code target/surefire-reports/...ClickHouseMeasurementTest-output.txt}); the
 * assertions are only loose sanity bounds, so that a slow CI machine does not fail on them.
 */
class ClickHouseMeasurementTest {
    private static final String TABLE = "qag_ch_point";
    private static final int WARM_UP = 300;
    private static final int CALLS = 2000;

    @BeforeAll
    static void fixture() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + TABLE);
        TestingClickHouse.exec("CREATE TABLE " + TABLE + " (id UInt32, name String, amount Decimal(12, 2))"
                + " ENGINE = MergeTree ORDER BY id");
        TestingClickHouse.exec("INSERT INTO " + TABLE + " SELECT toUInt32(number), concat('name-', toString(number)),"
                + " toDecimal64(number / 100, 2) FROM system.numbers LIMIT 100000");
    }

    @AfterAll
    static void drop() {
        TestingClickHouse.exec("DROP TABLE IF EXISTS " + TABLE);
    }

    private static final RowSink DISCARD = new RowSink() {
        @Override
        public void columns(List<ColumnInfo> columns) {}

        @Override
        public boolean row(Object[] values) {
            return true;
        }
    };

    @Test
    void pointQueryLatency() throws Exception {
        try (Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), 1), Map.of())) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            long[] dialect = new long[CALLS];
            long[] bare = new long[CALLS];
            // alternating, so that both see the same machine load
            for (int i = 0; i < WARM_UP + CALLS; i++) {
                long id = i * 7919L % 100_000;
                QueryRequest request = QueryRequest.read("SELECT id, name, amount FROM " + TABLE + " WHERE id = ?",
                        List.of(new Parameter("id", id, JDBCType.BIGINT)), Duration.ofSeconds(5), 100);
                long start = System.nanoTime();
                QueryStats stats = d.execute(request, DISCARD);
                long t = System.nanoTime() - start;
                assertThat(stats.rows()).isEqualTo(1);

                // the same URL settings, query_id, header and body the dialect sends: what is left is its own work
                String sql = "SELECT id, name, amount FROM " + TABLE + " WHERE id =  " + id
                        + " \nFORMAT TabSeparatedWithNamesAndTypes";
                HttpRequest r = HttpRequest.newBuilder(URI.create(TestingClickHouse.url() + "/?readonly=1&max_execution_time=5"
                                + "&max_result_rows=101&result_overflow_mode=break&extremes=0&database=default&query_id=qag-"
                                + java.util.UUID.randomUUID()))
                        .header("X-ClickHouse-User", TestingClickHouse.user())
                        .header("Content-Type", "text/plain; charset=UTF-8")
                        .POST(HttpRequest.BodyPublishers.ofString(sql)).build();
                long startBare = System.nanoTime();
                HttpResponse<byte[]> response = client.sendAsync(r, HttpResponse.BodyHandlers.ofByteArray()).get();
                long tBare = System.nanoTime() - startBare;
                assertThat(response.statusCode()).isEqualTo(200);
                if (i >= WARM_UP) {
                    dialect[i - WARM_UP] = t;
                    bare[i - WARM_UP] = tBare;
                }
            }
            System.out.println("point query, " + CALLS + " sequential calls after " + WARM_UP + " warm-up, 1 connection each,"
                    + " alternating:");
            System.out.println("  dialect.execute      " + percentiles(dialect));
            System.out.println("  bare HttpClient POST " + percentiles(bare) + " (same request, no parsing)");
            Arrays.sort(dialect);
            assertThat(dialect[CALLS / 2]).as("p50 (ns)").isLessThan(50_000_000L);
        }
    }

    @Test
    void millionRowReadThroughput() {
        try (Dialect d = new ClickHouseDialectFactory().create(TestingClickHouse.context(TestingClickHouse.url(), 1), Map.of())) {
            for (String sql : List.of(
                    "SELECT number FROM system.numbers LIMIT 1000000",
                    "SELECT number, toString(number) AS s, toDate(number % 40000) AS d, toDecimal64(number, 2) AS amount,"
                            + " toNullable(toFloat64(number) / 3) AS f FROM system.numbers LIMIT 1000000")) {
                long best = Long.MAX_VALUE;
                for (int run = 0; run < 3; run++) {
                    long start = System.nanoTime();
                    QueryStats stats = d.execute(QueryRequest.read(sql, List.of(), Duration.ofSeconds(60), 2_000_000), DISCARD);
                    best = Math.min(best, System.nanoTime() - start);
                    assertThat(stats.rows()).isEqualTo(1_000_000);
                }
                System.out.printf("1M rows (%s): best of 3 %d ms = %,d rows/s%n",
                        sql.substring(7, Math.min(sql.length(), 60)) + "...", best / 1_000_000,
                        1_000_000L * 1_000_000_000L / best);
                assertThat(best).isLessThan(60_000_000_000L);
            }
        }
    }

    private static String percentiles(long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        return String.format("p50 %d µs, p90 %d µs, p99 %d µs, max %d µs", s[s.length / 2] / 1000,
                s[s.length * 9 / 10] / 1000, s[s.length * 99 / 100] / 1000, s[s.length - 1] / 1000);
    }
}
