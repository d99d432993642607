package io.queryapigate.dialect.genericjdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a call's time goes, against an HSQLDB file database: the driver's own connect, read and close, then whole
 * calls through the dialect, sequentially and from 8 threads, with pools of 1, 2 and 4. It prints medians and
 * checks only that every call read its row: timings on a shared machine are not a test's verdict. The figures in
 * {@code docs/dialects/jdbc.md} come from its output ({@code -Dtest=GenericJdbcCostTest}).
 */
class GenericJdbcCostTest {

    private static final int CALLS = 200;
    private static final String SQL = "SELECT id, name FROM t WHERE id = 1";

    @TempDir
    Path home;

    private String url;

    @BeforeEach
    void createDatabase() throws SQLException {
        url = "jdbc:hsqldb:file:" + home.resolve("cost") + ";sql.lowercase_ident=true";
        HsqldbPlugin.run(url, List.of("CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(20))",
                "INSERT INTO t VALUES (1, 'one'), (2, 'two')"));
        // a connection held open keeps the database open, as a busy service does
        holder = HsqldbPlugin.connect(url + ";ifexists=true");
    }

    private Connection holder;

    @AfterEach
    void shutDown() throws SQLException {
        try (Statement statement = holder.createStatement()) {
            statement.execute("SHUTDOWN");
        }
    }

    @Test
    void driverAlone() throws SQLException {
        double[] connect = new double[CALLS];
        double[] read = new double[CALLS];
        double[] close = new double[CALLS];
        for (int i = 0; i < CALLS; i++) {
            long t0 = System.nanoTime();
            Connection connection = HsqldbPlugin.connect(url + ";ifexists=true");
            long t1 = System.nanoTime();
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(SQL)) {
                assertThat(result.next()).isTrue();
                assertThat(result.getString(2)).isEqualTo("one");
            }
            connection.rollback();
            long t2 = System.nanoTime();
            connection.close();
            long t3 = System.nanoTime();
            connect[i] = (t1 - t0) / 1e6;
            read[i] = (t2 - t1) / 1e6;
            close[i] = (t3 - t2) / 1e6;
        }
        System.out.printf("cost: driver alone: connect %.2f ms, read %.2f ms, close %.2f ms (medians of %d)%n",
                median(connect), median(read), median(close), CALLS);
    }

    @Test
    void throughTheDialect() throws Exception {
        for (int poolSize : new int[] {1, 2, 4}) {
            try (Dialect dialect = HsqldbPlugin.create(url + ";ifexists=true", poolSize, home)) {
                calls(dialect, 20, 1); // warm-up
                double sequential = calls(dialect, CALLS, 1);
                double parallel = calls(dialect, CALLS, 8);
                System.out.printf("cost: dialect, pool %d: %.2f ms a call sequentially, %.2f ms a call (wall clock"
                        + " / calls) from 8 threads%n", poolSize, sequential, parallel);
            }
        }
    }

    /** Runs {@code calls} reads from {@code threads} threads; answers the median wall-clock time per call. */
    private static double calls(Dialect dialect, int calls, int threads) throws Exception {
        double[] perCall = new double[5];
        for (int round = 0; round < perCall.length; round++) {
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            long start = System.nanoTime();
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < calls / perCall.length; i++) {
                futures.add(executor.submit(() -> {
                    RecordingSink sink = RecordingSink.run(dialect,
                            QueryRequest.read(SQL, List.of(), Duration.ofSeconds(10), 10));
                    assertThat(sink.rows()).hasSize(1);
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            perCall[round] = (System.nanoTime() - start) / 1e6 / (calls / perCall.length);
            executor.shutdown();
        }
        return median(perCall);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
