package io.queryapigate.bench;

import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.spi.QueryRequest;
import io.queryapigate.dialect.duckdb.DuckDbDialectFactory;
import io.queryapigate.dialect.testkit.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.duckdb.DuckDBConnection;

/**
 * Per-call cost of the session strategies considered for DuckDB: 10,000 {@code SELECT 1} calls each, best of three
 * rounds after a warm-up. Run it by hand, as benchmarks/README.md shows, and update the figures in
 * docs/dialects/duckdb.md.
 */
public final class DuckDbSessionBenchmark {
    private static final int CALLS = 10_000;
    private static long sum;

    private DuckDbSessionBenchmark() {}

    /**
     * Runs the comparison.
     *
     * @param args ignored
     * @throws Exception when DuckDB fails
     */
    public static void main(String[] args) throws Exception {
        Path home = Files.createTempDirectory("qag-duckdb-bench");
        Path file = home.resolve("bench.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT range AS id FROM range(1000)");
        }
        Properties locked = new Properties();
        locked.setProperty("duckdb.read_only", "true");
        locked.setProperty("enable_external_access", "false");
        locked.setProperty("lock_configuration", "true");
        locked.setProperty("jdbc_stream_results", "true");
        try (DuckDBConnection root = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file, locked);
                Connection shared = root.duplicate()) {
            measure("A one reused connection, no reset (unsafe baseline)", () -> selectOne(shared));
            measure("B duplicate() per call, closed after (raw JDBC)", () -> {
                try (Connection c = root.duplicate()) {
                    selectOne(c);
                }
            });
            measure("C reused connection + minimal reset (2 statements)", () -> {
                selectOne(shared);
                try (Statement s = shared.createStatement()) {
                    s.execute("RESET search_path");
                    s.execute("RESET VARIABLE qag_probe");
                }
            });
        }
        DialectContext context = new DialectContext("bench", file.toString(), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(30), 1000, 4, home);
        QueryRequest request = QueryRequest.read("SELECT 1", List.of(), Duration.ofSeconds(30), 1000);
        try (Dialect dialect = new DuckDbDialectFactory().create(context, Map.of())) {
            measure("D DuckDbDialect.execute (B + permit, time limit, filter, sink)", () -> {
                RecordingSink sink = new RecordingSink();
                dialect.execute(request, sink);
                sum += ((Number) sink.singleValue()).longValue();
            });
        }
        try (Dialect dialect = new DuckDbDialectFactory().create(context, Map.of("duckdb.read_only", "false"))) {
            measure("E same, writable database (BEGIN READ ONLY ... ROLLBACK)", () -> {
                RecordingSink sink = new RecordingSink();
                dialect.execute(request, sink);
                sum += ((Number) sink.singleValue()).longValue();
            });
        }
        System.out.println("(checksum " + sum + ", " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " cpus)");
    }

    private static void selectOne(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                sum += rs.getInt(1);
            }
        }
    }

    private static void measure(String name, Call call) throws Exception {
        for (int i = 0; i < 2_000; i++) {
            call.run();
        }
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                call.run();
            }
            best = Math.min(best, System.nanoTime() - start);
        }
        System.out.printf("%-66s %7.1f µs/call%n", name, best / 1_000.0 / CALLS);
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

}
