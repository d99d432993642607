package io.queryapigate.bench;

import io.queryapigate.dialect.spi.AccessMode;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.HttpRequests;
import io.queryapigate.dialect.testkit.RecordingSink;
import io.queryapigate.dialect.testkit.TcpProxy;
import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.dialect.trino.TrinoDialectFactory;
import io.trino.jdbc.TrinoDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-call cost of the Trino session strategies on the real test Trino: {@code SELECT 1} calls, median and 90th
 * percentile of {@value #CALLS} calls after {@value #WARMUP} warm-up calls, plus the HTTP requests each call makes
 * (counted by the testkit's {@link TcpProxy} with an {@link HttpRequests} tap). Run it by hand, as
 * benchmarks/README.md shows, and update the figures in docs/dialects/trino.md. Trino's latency on a shared 2-core machine is noisy:
 * compare the rows of one run, not runs.
 */
public final class TrinoSessionBenchmark {
    private static final int CALLS = 40;
    private static final int WARMUP = 10;
    private static final AtomicLong REQUESTS = new AtomicLong();

    private TrinoSessionBenchmark() {}

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    /**
     * Runs the comparison.
     *
     * @param args ignored
     * @throws Exception when Trino fails
     */
    public static void main(String[] args) throws Exception {
        TestServers.Server trino = TestServers.trino();
        try (TcpProxy proxy = TcpProxy.to(trino.address())
                .tap(() -> new HttpRequests(REQUESTS::incrementAndGet)).start()) {
            String url = "jdbc:trino://" + proxy.hostPort();
            TrinoDriver driver = new TrinoDriver();
            Properties p = new Properties();
            p.setProperty("user", trino.user());
            p.setProperty("explicitPrepare", "false");

            int connects = 20_000;
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < connects; i++) {
                    driver.connect(url, p).close();
                }
                System.out.printf("trino-jdbc connect + close (no network): %.1f µs%n",
                        (System.nanoTime() - t0) / 1e3 / connects);
            }

            try (Connection reused = driver.connect(url, p)) {
                measure(proxy, "A. one reused connection, auto-commit (unsafe baseline)", () -> selectOne(reused));
            }
            measure(proxy, "B. fresh connection per call, auto-commit", () -> {
                try (Connection c = driver.connect(url, p)) {
                    selectOne(c);
                }
            });
            measure(proxy, "C. fresh connection, READ ONLY transaction, ROLLBACK inline", () -> {
                try (Connection c = driver.connect(url, p)) {
                    c.setAutoCommit(false);
                    c.setReadOnly(true);
                    selectOne(c);
                    c.rollback();
                }
            });
            measure(proxy, "D. fresh connection, explicitPrepare=true, 1 parameter, auto-commit", () -> {
                Properties explicit = new Properties();
                explicit.putAll(p);
                explicit.setProperty("explicitPrepare", "true");
                try (Connection c = driver.connect(url, explicit); var ps = c.prepareStatement("SELECT ?")) {
                    ps.setLong(1, 1);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
            });
            driver.close();

            DialectContext context = new DialectContext("trino-bench", url, Optional.of(trino.user()), Optional.empty(),
                    Duration.ofSeconds(30), 10_000, 4, Path.of(System.getProperty("java.io.tmpdir")));
            try (Dialect d = new TrinoDialectFactory().create(context, Map.of())) {
                QueryRequest read = QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(30), 10);
                measure(proxy, "E. TrinoDialect read (what ships; ROLLBACK after the call returns)",
                        () -> d.execute(read, new RecordingSink()));
                QueryRequest parameter = QueryRequest.read("SELECT ?", List.of(new Parameter("x", 1L, JDBCType.BIGINT)),
                        Duration.ofSeconds(30), 10);
                measure(proxy, "F. TrinoDialect read with 1 parameter (EXECUTE IMMEDIATE)",
                        () -> d.execute(parameter, new RecordingSink()));
                measure(proxy, "G. TrinoDialect write call (auto-commit, no transaction)",
                        () -> d.execute(read.withMode(AccessMode.WRITE), new RecordingSink()));
            }
        }
    }

    private static void selectOne(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
        }
    }

    private static void measure(TcpProxy proxy, String label, Call call) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        Thread.sleep(200); // background ROLLBACKs of the warm-up finish
        long[] millis = new long[CALLS];
        long[] requests = new long[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long r0 = REQUESTS.get();
            long t0 = System.nanoTime();
            call.run();
            millis[i] = System.nanoTime() - t0;
            Thread.sleep(100); // let a background ROLLBACK land in this call's request count
            requests[i] = REQUESTS.get() - r0;
        }
        Arrays.sort(millis);
        Arrays.sort(requests);
        System.out.printf("%-75s median %5.1f ms, p90 %5.1f ms; HTTP requests median %d (min %d, max %d)%n", label,
                millis[CALLS / 2] / 1e6, millis[CALLS * 9 / 10] / 1e6, requests[CALLS / 2], requests[0],
                requests[CALLS - 1]);
    }
}
