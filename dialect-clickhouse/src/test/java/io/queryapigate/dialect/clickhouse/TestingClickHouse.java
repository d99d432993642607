package io.queryapigate.dialect.clickhouse;

import io.queryapigate.dialect.spi.DialectContext;
import io.queryapigate.dialect.testkit.TestServers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real ClickHouse server the tests run against, and the tests' own access to it (plain HTTP, never the
 * dialect, so that a dialect bug cannot hide in a fixture or a check).
 *
 * <p>Found by the testkit's {@link TestServers#clickhouse()}: {@code QAG_CLICKHOUSE_URL}, else the local port 8123
 * ({@code scripts/test-services.sh start} starts Debian's clickhouse-server there), else a container where Docker
 * runs (never under {@code CI=true}). Nothing is skipped: without a server every test fails, saying how to start one.
 */
final class TestingClickHouse {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private TestingClickHouse() {}

    /** Fails the test when no server was found. */
    static void require() {
        TestServers.clickhouse();
    }

    /** The server's base URL, such as {@code http://127.0.0.1:8123}. */
    static String url() {
        return TestServers.clickhouse().url();
    }

    /** The test user (the server's {@code default}, no password). */
    static String user() {
        return TestServers.clickhouse().user();
    }

    /** The server's address, for a proxy in front of it. */
    static InetSocketAddress address() {
        return TestServers.clickhouse().address();
    }

    /** Runs one statement; fails on any error. */
    static String exec(String sql) {
        return exec(Map.of(), sql);
    }

    /** Runs one statement in {@code database}; fails on any error. */
    static String execIn(String database, String sql) {
        return exec(Map.of("database", database), sql);
    }

    /** Runs one statement with URL settings; fails on any error. Returns the body. */
    static String exec(Map<String, String> settings, String sql) {
        HttpResponse<String> r = send(settings, sql);
        if (r.statusCode() != 200) {
            throw new AssertionError("ClickHouse refused " + sql + ": HTTP " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** Sends one statement; returns the response, whatever its status. */
    static HttpResponse<String> send(Map<String, String> settings, String sql) {
        require();
        StringBuilder q = new StringBuilder();
        settings.forEach((k, v) -> q.append(q.isEmpty() ? "?" : "&").append(k).append('=')
                .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/" + q))
                            .timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("ClickHouse at " + url() + " (" + TestServers.clickhouse().source()
                    + ") did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The single value of a one-row, one-column query, as text. */
    static String value(String sql) {
        return exec(sql + "\nFORMAT TabSeparated").strip();
    }

    /** The queries running on the server whose id starts with {@code prefix}. */
    static List<String> running(String prefix) {
        String out = exec("SELECT query_id FROM system.processes WHERE startsWith(query_id, "
                + ClickHouseLiterals.quote(prefix) + ") FORMAT TabSeparated");
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    /** Waits until no query whose id starts with {@code prefix} runs; returns how long it took, or fails. */
    static Duration awaitGone(String prefix, Duration atMost) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + atMost.toNanos();
        while (true) {
            List<String> left = running(prefix);
            if (left.isEmpty()) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            if (System.nanoTime() > deadline) {
                // clean up so that later tests do not pay for it, then fail
                exec("KILL QUERY WHERE startsWith(query_id, " + ClickHouseLiterals.quote(prefix) + ") ASYNC");
                throw new AssertionError("still running on the server after " + atMost + ": " + left);
            }
            Thread.sleep(20);
        }
    }

    /** A context for the dialect with the test user. */
    static DialectContext context(String url, int poolSize) {
        return context(url, Optional.of(user()), Optional.empty(), poolSize);
    }

    /** A context for the dialect. */
    static DialectContext context(String url, Optional<String> user, Optional<String> password, int poolSize) {
        return new DialectContext("ch-test", url, user, password, Duration.ofSeconds(30), 10_000, poolSize,
                Path.of(System.getProperty("java.io.tmpdir")));
    }
}
