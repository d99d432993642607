package io.queryapigate.dialect.postgres;

import static io.queryapigate.dialect.postgres.Calls.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.postgres.PostgresDialectConfig.QueryMode;
import io.queryapigate.dialect.spi.ColumnInfo;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.spi.RowSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-call latency of a read, simple against extended mode, on loopback and through a proxy that adds about 0.5
 * ms per round trip (best and median of interleaved rounds: the best filters out other work on the machine), with
 * the design ADR 0027 replaced (BEGIN READ ONLY, SET LOCAL, the query, ROLLBACK: four
 * round trips, on a plain pgjdbc connection) for comparison. The figures go to standard
 * output and {@code target/postgres-latency.txt} (they are quoted in docs/dialects/postgres.md); the assertions only
 * check the floors the proxy sets: at least its delay per round trip.
 */
class PostgresLatencyTest {

    private static final String SCHEMA = TestingPostgresServer.schemaName("latency");
    private static final String QUERY = "SELECT id, name, amount FROM accounts WHERE id = ?";
    private static TestingPostgresServer server;

    @BeforeAll
    static void createSchema() throws Exception {
        server = TestingPostgresServer.get();
        server.createSchema(SCHEMA);
        server.run("CREATE TABLE " + SCHEMA + ".accounts (id bigint PRIMARY KEY, name text, amount numeric(12,2))",
                "INSERT INTO " + SCHEMA + ".accounts SELECT g, 'name ' || g, g * 1.5 FROM generate_series(1, 1000) g",
                "ANALYZE " + SCHEMA + ".accounts");
    }

    @AfterAll
    static void dropSchema() throws Exception {
        server.dropSchema(SCHEMA);
    }

    @Test
    void measuresSimpleAgainstExtended() throws Exception {
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "%-38s %22s %22s", "variant: us per call, best / median of 7",
                "loopback (600 calls)", "+0.5 ms RTT (60 calls)"));
        Map<String, double[]> loopback = measure(null, 600, 7);
        Map<String, double[]> network;
        try (TcpProxy proxy = new TcpProxy(server.address())) {
            proxy.delay(Duration.ofMillis(0).plusNanos(250_000));
            network = measure(proxy, 60, 7);
        }
        for (String variant : loopback.keySet()) {
            report.add(String.format(Locale.ROOT, "%-38s %10.0f / %-9.0f %10.0f / %-9.0f", variant,
                    best(loopback.get(variant)), median(loopback.get(variant)), best(network.get(variant)),
                    median(network.get(variant))));
        }
        report.forEach(System.out::println);
        Path out = Path.of("target", "postgres-latency.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, report, StandardCharsets.UTF_8);

        // floors set by the proxy (0.25 ms each way per round trip); timings above them depend on the machine's load
        assertThat(median(network.get("dialect read, extended (1 RT)"))).isGreaterThanOrEqualTo(480);
        assertThat(median(network.get("dialect read, simple (1 RT)"))).isGreaterThanOrEqualTo(480);
        assertThat(median(network.get("legacy BEGIN/SET/query/ROLLBACK (4)"))).isGreaterThanOrEqualTo(4 * 480);
    }

    /** Microseconds per call, one value per round, per variant; interleaved. */
    private Map<String, double[]> measure(TcpProxy proxy, int calls, int rounds) throws Exception {
        String url = proxy == null ? server.url() : "jdbc:postgresql://127.0.0.1:" + proxy.port() + server.databasePath();
        url = TestingPostgresServer.withParameters(url, "currentSchema=" + SCHEMA);
        Map<String, double[]> results = new java.util.LinkedHashMap<>();
        String ext = "dialect read, extended (1 RT)";
        String simple = "dialect read, simple (1 RT)";
        String bare = "bare query, plain pgjdbc (1 RT)";
        String legacy = "legacy BEGIN/SET/query/ROLLBACK (4)";
        String message = "the dialect's message, plain pgjdbc";
        String compact = "set_config prelude, plain pgjdbc";
        for (String v : List.of(ext, simple, bare, legacy, message, compact)) {
            results.put(v, new double[rounds]);
        }
        try (PostgresDialect extended = (PostgresDialect) new PostgresDialectFactory().create(server.context(url, 1), Map.of());
                PostgresDialect simpleMode = (PostgresDialect) new PostgresDialectFactory().create(server.context(url, 1),
                        Map.of(PostgresDialectConfig.PREFER_QUERY_MODE, "simple"));
                Connection plain = server.connect(url)) {
            for (int round = -1; round < rounds; round++) { // round -1 warms up
                int n = round < 0 ? Math.min(calls, 200) : calls;
                double e = time(n, i -> extended.execute(request(i), Discard.INSTANCE));
                double s = time(n, i -> simpleMode.execute(request(i), Discard.INSTANCE));
                double b = time(n, i -> bare(plain, i));
                double l = time(n, i -> legacy(plain, i));
                double m = time(n, i -> message(plain, DIALECT_MESSAGE, i));
                double c = time(n, i -> message(plain, COMPACT_MESSAGE, i));
                if (round >= 0) {
                    results.get(message)[round] = m;
                    results.get(compact)[round] = c;
                    results.get(ext)[round] = e;
                    results.get(simple)[round] = s;
                    results.get(bare)[round] = b;
                    results.get(legacy)[round] = l;
                }
            }
            assertThat(extended.config().queryMode()).isEqualTo(QueryMode.EXTENDED);
        }
        return results;
    }

    private static QueryRequest request(int i) {
        return read(QUERY, new Parameter("id", (long) (i % 1000 + 1), JDBCType.BIGINT));
    }

    private static void bare(Connection connection, int i) throws Exception {
        try (PreparedStatement s = connection.prepareStatement(QUERY)) {
            s.setLong(1, i % 1000 + 1);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    r.getObject(1);
                }
            }
        }
    }

    private static final String DIALECT_MESSAGE = PostgresSessionStrategy.message(
            PostgresSessionStrategy.withDefaults().plan(read(QUERY)).before(), QUERY, List.of());
    // the alternative proposed in docs/dialects/postgres.md: the same settings through set_config in one SELECT,
    // which the extended protocol runs without the three "can only be used in transaction blocks" warnings
    private static final String COMPACT_MESSAGE = "RESET ALL; RESET SESSION AUTHORIZATION; SELECT set_config("
            + "'transaction_read_only', 'on', true), set_config('DateStyle', 'ISO', true), set_config("
            + "'statement_timeout', '30000', true), pg_advisory_unlock_all(); " + QUERY;

    private static void message(Connection connection, String message, int i) throws Exception {
        try (PreparedStatement s = connection.prepareStatement(message)) {
            s.setLong(1, i % 1000 + 1);
            boolean result = s.execute();
            while (result || s.getUpdateCount() != -1) {
                if (result) {
                    try (ResultSet r = s.getResultSet()) {
                        while (r.next()) {
                            r.getObject(1);
                        }
                    }
                }
                result = s.getMoreResults();
            }
        }
    }

    private static void legacy(Connection connection, int i) throws Exception {
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            s.execute("SET TRANSACTION READ ONLY");
            s.execute("SET LOCAL statement_timeout = 30000");
            bare(connection, i);
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }

    private interface Call {
        void run(int i) throws Exception;
    }

    private static double time(int calls, Call call) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            call.run(i);
        }
        return (System.nanoTime() - start) / 1000.0 / calls;
    }

    private static double best(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private enum Discard implements RowSink {
        INSTANCE;

        @Override
        public void columns(List<ColumnInfo> columns) {}

        @Override
        public boolean row(Object[] values) {
            return true;
        }
    }
}
