package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import io.queryapigate.dialect.testkit.TestServers;
import io.queryapigate.testing.Http;
import java.io.InputStream;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Streams on the packaged jar with a 128 MiB heap: 5,000,000 DuckDB rows as CSV complete with the exact byte count,
 * and a client that goes away mid-stream gets its PostgreSQL query cancelled on the server.
 */
class StreamingIT {
    private static final String KEY = "streaming-admin-key-0123456789";
    private static final TestServers.Server PG = TestServers.postgres();
    private static Process server;
    private static Path home;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        home = Files.createTempDirectory("qag-streaming-");
        Path repo = Path.of(System.getProperty("qag.repo", "..")).toAbsolutePath().normalize();
        try (ServerSocket a = new ServerSocket(0); ServerSocket b = new ServerSocket(0)) {
            port = a.getLocalPort();
            Files.writeString(home.resolve("config.yml"), "home: " + home + "\nauth:\n  adminKey: " + KEY + "\n"
                    + "connections:\n"
                    + "  demo:\n    dialect: duckdb\n    url: demo.duckdb\n    properties:\n"
                    + "      duckdb.read_only: \"true\"\n"
                    + "      duckdb.init_script: " + repo.resolve("config/demo/demo-duckdb.sql") + "\n"
                    + "  pg:\n    dialect: postgres\n    url: " + PG.url() + "\n    user: " + PG.user()
                    + "\n    password: " + PG.password() + "\n"
                    + "server:\n  applicationConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: "
                    + port + "\n  adminConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: "
                    + b.getLocalPort() + "\n  requestLog:\n    appenders: []\n"
                    + "logging:\n  level: WARN\n");
        }
        Path jar = Path.of(System.getProperty("qag.jar", "target/queryapigate.jar")).toAbsolutePath();
        server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "server",
                home.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(home.resolve("server.log").toFile()).start();
        Http http = new Http("http://127.0.0.1:" + port);
        http.awaitHealth(server, home.resolve("server.log"));
    }

    @AfterAll
    static void stop() throws Exception {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }

    private static HttpRequest stream(String connection, String sql) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/execute_sql?stream=true&format=csv"))
                .header("X-API-Key", KEY).header("Content-Type", "application/json").timeout(Duration.ofMinutes(5))
                .POST(HttpRequest.BodyPublishers.ofString(Http.json(Map.of("sql", sql, "connection_name",
                        connection)))).build();
    }

    @Test
    void fiveMillionRowsStreamThroughA128MiBHeap() throws Exception {
        int n = 5_000_000;
        HttpResponse<InputStream> r = HttpClient.newHttpClient().send(stream("demo",
                "SELECT range AS n FROM range(" + n + ")"), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        long bytes = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = r.body()) {
            int k;
            while ((k = in.read(buf)) >= 0) {
                bytes += k;
            }
        }
        long expected = "n\r\n".length();
        for (long i = 0; i < n; i++) {
            expected += Long.toString(i).length() + 2;
        }
        assertThat(bytes).isEqualTo(expected);
        assertThat(server.isAlive()).as("no OutOfMemoryError").isTrue();
    }

    @Test
    void aClientThatGoesAwayCancelsTheQuery() throws Exception {
        String marker = "qag_stream_cancel_" + System.nanoTime();
        HttpResponse<InputStream> r = HttpClient.newHttpClient().send(stream("pg",
                "SELECT a.x * 100000 + b.y AS g, '" + marker + "' AS m FROM generate_series(1, 5000) AS a(x),"
                        + " generate_series(1, 100000) AS b(y)"),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        try (InputStream in = r.body()) {
            assertThat(in.readNBytes(200_000)).hasSize(200_000);
        }
        try (Connection c = DriverManager.getConnection(PG.url(), PG.user(), PG.password());
                Statement s = c.createStatement()) {
            // well inside the 30 s time limit, so the limit cannot be what ended it
            long deadline = System.currentTimeMillis() + 10_000;
            boolean running = true;
            while (running && System.currentTimeMillis() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                        + " AND query LIKE '%" + marker + "%' AND pid <> pg_backend_pid()")) {
                    rs.next();
                    running = rs.getInt(1) > 0;
                }
                if (running) {
                    Thread.sleep(200);
                }
            }
            assertThat(running).as("the stream's query was cancelled on PostgreSQL").isFalse();
        }
    }
}
