package io.queryapigate.bench;

import io.queryapigate.dialect.testkit.TestServers;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code main} that starts the packaged service jar with {@code -Xmx256m} and
 * compares streamed CSV exports ({@code POST /execute_sql?stream=true&format=csv}) with a direct JDBC read of the same
 * rows in this JVM, for DuckDB and PostgreSQL, at 1M and 10M rows, in 3 interleaved rounds. Reports rows/s (median,
 * min-max), the gateway/direct ratio and the gateway's peak RSS per cell (VmHWM, reset through
 * {@code /proc/<pid>/clear_refs} before each export). See docs/exports-benchmark.md.
 *
 * <p>System properties: {@code qag.jar} (default {@code service/target/queryapigate.jar}), {@code qag.bench.rounds}
 * (3), {@code qag.bench.budgetSeconds} (540: the 10M PostgreSQL cell is dropped when a round would exceed it). Run
 * it from the repository root as benchmarks/README.md shows.
 */
public final class ExportBenchmark {
    private static final String KEY = "bench-admin-key-0123456789abcdef";
    private static final int ROUNDS = Integer.getInteger("qag.bench.rounds", 3);
    private static final long BUDGET_MS = Long.getLong("qag.bench.budgetSeconds", 540) * 1000;

    private ExportBenchmark() {}

    record Cell(String engine, long rows) {
        String name() {
            return engine + " " + (rows / 1_000_000) + "M";
        }
    }

    static final class Samples {
        final List<Double> gateway = new ArrayList<>();
        final List<Double> direct = new ArrayList<>();
        final List<Double> ratio = new ArrayList<>();
        final List<Long> rssKb = new ArrayList<>();
        long bytes;
    }

    private static Process server;
    private static int port;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    public static void main(String[] args) throws Exception {
        String load = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.println("nproc=" + Runtime.getRuntime().availableProcessors() + " loadavg at start: " + load);
        System.out.println("java=" + System.getProperty("java.version"));
        TestServers.Server pg = TestServers.postgres();
        Path home = Files.createTempDirectory("qag-bench-");
        Path jar = Path.of(System.getProperty("qag.jar", "service/target/queryapigate.jar")).toAbsolutePath();
        start(home, jar, pg);
        long t0 = System.currentTimeMillis();
        try {
            // warm-up, not counted
            gateway("duck", "SELECT range AS n, range * 2 AS m, 'row ' || range AS s FROM range(1000000)");
            gateway("pg", pgSql(1_000_000));
            direct(new Cell("duckdb", 1_000_000), pg);
            direct(new Cell("postgres", 1_000_000), pg);

            List<Cell> cells = List.of(new Cell("duckdb", 1_000_000), new Cell("duckdb", 10_000_000),
                    new Cell("postgres", 1_000_000), new Cell("postgres", 10_000_000));
            Map<Cell, Samples> results = new LinkedHashMap<>();
            for (Cell c : cells) {
                results.put(c, new Samples());
            }
            List<String> skipped = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                long roundStart = System.currentTimeMillis();
                for (Cell c : cells) {
                    long elapsed = System.currentTimeMillis() - t0;
                    if (c.engine().equals("postgres") && c.rows() == 10_000_000 && round > 1
                            && elapsed + (System.currentTimeMillis() - roundStart) > BUDGET_MS * round / ROUNDS) {
                        skipped.add(c.name() + " round " + round + " (time budget)");
                        continue;
                    }
                    Samples s = results.get(c);
                    // alternate the order inside a cell too, so neither side always runs first
                    double g;
                    double d;
                    if (round % 2 == 1) {
                        g = gatewayCell(c, s);
                        d = direct(c, pg);
                    } else {
                        d = direct(c, pg);
                        g = gatewayCell(c, s);
                    }
                    s.gateway.add(g);
                    s.direct.add(d);
                    s.ratio.add(g / d);
                    System.out.printf(Locale.ROOT, "round %d %-12s gateway %,.0f rows/s  direct %,.0f rows/s"
                            + "  ratio %.2f  peak RSS %,d KB  (%,d s elapsed)%n", round, c.name(), g, d, g / d,
                            s.rssKb.get(s.rssKb.size() - 1), (System.currentTimeMillis() - t0) / 1000);
                }
            }
            System.out.println();
            System.out.println("| Cell | gateway rows/s, median (min-max) | direct JDBC rows/s, median (min-max) "
                    + "| gateway/direct, median (min-max) | gateway peak RSS, median (min-max) | CSV bytes | rounds |");
            System.out.println("|---|---|---|---|---|---|---|");
            for (Map.Entry<Cell, Samples> e : results.entrySet()) {
                Samples s = e.getValue();
                if (s.gateway.isEmpty()) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %,d | %d |%n", e.getKey().name(),
                        rate(s.gateway), rate(s.direct), ratio(s.ratio), rss(s.rssKb), s.bytes, s.gateway.size());
            }
            System.out.println();
            System.out.println("skipped: " + (skipped.isEmpty() ? "none" : String.join(", ", skipped)));
            System.out.println("total " + (System.currentTimeMillis() - t0) / 1000 + " s; loadavg at end: "
                    + Files.readString(Path.of("/proc/loadavg")).strip());
        } finally {
            server.destroy();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static String pgSql(long rows) {
        return "SELECT (a.x - 1) * 1000 + (b.y - 1) AS n, ((a.x - 1) * 1000 + (b.y - 1)) * 2 AS m,"
                + " 'row ' || ((a.x - 1) * 1000 + (b.y - 1)) AS s FROM generate_series(1::bigint, " + (rows / 1000)
                + "::bigint) AS a(x), generate_series(1::bigint, 1000::bigint) AS b(y)";
    }

    private static String duckSql(long rows) {
        return "SELECT range AS n, range * 2 AS m, 'row ' || range AS s FROM range(" + rows + ")";
    }

    private static double gatewayCell(Cell c, Samples s) throws Exception {
        resetPeak();
        long start = System.nanoTime();
        long bytes = c.engine().equals("duckdb") ? gateway("duck", duckSql(c.rows())) : gateway("pg", pgSql(c.rows()));
        double secs = (System.nanoTime() - start) / 1e9;
        s.rssKb.add(peakRssKb());
        s.bytes = bytes;
        return c.rows() / secs;
    }

    /** Streams one CSV export and returns the body's byte count. */
    private static long gateway(String connection, String sql) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/execute_sql?stream=true&format=csv"))
                .header("X-API-Key", KEY).header("Content-Type", "application/json").timeout(Duration.ofMinutes(10))
                .POST(HttpRequest.BodyPublishers.ofString(Http.JSON.writeValueAsString(Map.of("sql", sql,
                        "connection_name", connection)))).build();
        HttpResponse<InputStream> r = CLIENT.send(req, HttpResponse.BodyHandlers.ofInputStream());
        long bytes;
        try (InputStream in = r.body()) {
            bytes = in.transferTo(OutputStream.nullOutputStream());
        }
        if (r.statusCode() != 200) {
            throw new IllegalStateException("status " + r.statusCode() + " for " + sql);
        }
        return bytes;
    }

    /** Reads every column of every row over JDBC in this JVM; returns rows/s. */
    private static double direct(Cell c, TestServers.Server pg) throws Exception {
        long start = System.nanoTime();
        long rows = 0;
        long check = 0;
        if (c.engine().equals("duckdb")) {
            try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
                    Statement st = conn.createStatement();
                    ResultSet rs = st.executeQuery(duckSql(c.rows()))) {
                while (rs.next()) {
                    check += rs.getLong(1) + rs.getLong(2) + rs.getString(3).length();
                    rows++;
                }
            }
        } else {
            try (Connection conn = DriverManager.getConnection(pg.url(), pg.user(), pg.password())) {
                conn.setAutoCommit(false);
                try (Statement st = conn.createStatement()) {
                    st.setFetchSize(10_000);
                    try (ResultSet rs = st.executeQuery(pgSql(c.rows()))) {
                        while (rs.next()) {
                            check += rs.getLong(1) + rs.getLong(2) + rs.getString(3).length();
                            rows++;
                        }
                    }
                }
                conn.commit();
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        if (rows != c.rows() || check == 0) {
            throw new IllegalStateException("direct read of " + c.name() + " gave " + rows + " rows");
        }
        return rows / secs;
    }

    private static void resetPeak() {
        try {
            Files.writeString(Path.of("/proc/" + server.pid() + "/clear_refs"), "5");
        } catch (Exception e) {
            System.out.println("cannot reset VmHWM (" + e + "); peak RSS is then since start");
        }
    }

    private static long peakRssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + server.pid() + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static String rate(List<Double> v) {
        List<Double> s = sorted(v);
        return String.format(Locale.ROOT, "%.2f M (%.2f - %.2f)", median(s) / 1e6, s.get(0) / 1e6,
                s.get(s.size() - 1) / 1e6);
    }

    private static String ratio(List<Double> v) {
        List<Double> s = sorted(v);
        return String.format(Locale.ROOT, "**%.2f** (%.2f - %.2f)", median(s), s.get(0), s.get(s.size() - 1));
    }

    private static String rss(List<Long> kb) {
        List<Double> s = sorted(kb.stream().map(Long::doubleValue).toList());
        return String.format(Locale.ROOT, "%.0f MB (%.0f - %.0f)", median(s) / 1024, s.get(0) / 1024,
                s.get(s.size() - 1) / 1024);
    }

    private static List<Double> sorted(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s;
    }

    private static double median(List<Double> s) {
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static void start(Path home, Path jar, TestServers.Server pg) throws Exception {
        try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
            port = a.getLocalPort();
            Files.writeString(home.resolve("config.yml"), "home: " + home + "\nauth:\n  adminKey: " + KEY + "\n"
                    + "limits:\n  queryTimeout: 600s\n"
                    + "connections:\n"
                    + "  duck:\n    dialect: duckdb\n    url: " + home.resolve("bench.duckdb") + "\n"
                    + "    properties:\n      duckdb.read_only: \"false\"\n"
                    + "  pg:\n    dialect: postgres\n    url: " + pg.url() + "\n    user: " + pg.user()
                    + "\n    password: " + pg.password() + "\n"
                    + "server:\n  applicationConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: "
                    + port + "\n  adminConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: "
                    + b.getLocalPort() + "\n  requestLog:\n    appenders: []\n"
                    + "logging:\n  level: WARN\n");
        }
        server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "server",
                home.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(home.resolve("server.log").toFile()).start();
        if (!Http.waitUp("http://127.0.0.1:" + port + "/health", server, 90)) {
            throw new IllegalStateException(Files.readString(home.resolve("server.log")));
        }
        System.out.println("gateway pid " + server.pid() + " on port " + port + ", home " + home);
    }
}
