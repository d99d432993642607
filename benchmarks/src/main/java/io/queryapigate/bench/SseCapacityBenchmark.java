package io.queryapigate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many {@code GET /events} streams one gateway holds, and what each costs: starts the packaged service jar
 * (SQLite store, the demo DuckDB connection, virtual threads, {@code -Xmx1g}), opens streams from one NIO selector
 * thread in steps (1,000, 5,000, 10,000, then as far as the file-descriptor limit allows), and at each step measures
 * the server's RSS and its heap after a full GC ({@code jcmd}), makes one call and waits until every stream received
 * its event: the time from the call to the first and to the last stream's delivery, and the median of 200
 * sequential calls while the streams are open (a call must not cost more because streams are open). Prints one table
 * row per step.
 *
 * <pre>
 * java -cp "$CP" io.queryapigate.bench.SseCapacityBenchmark [service/target/queryapigate.jar] [1000,5000,10000,19000]
 * </pre>
 */
public final class SseCapacityBenchmark {
    private static final String KEY = "bench-admin-key-0123456789";
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

    private final Selector selector = Selector.open();
    private final List<Stream> streams = new ArrayList<>();
    private int port;
    private Process server;

    /** One stream's client side: what it has read (the tail only) and whether it saw the marker. */
    private static final class Stream {
        final SocketChannel channel;
        final StringBuilder tail = new StringBuilder();
        boolean open;
        long sawAt;

        Stream(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private SseCapacityBenchmark() throws IOException {}

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "service/target/queryapigate.jar").toAbsolutePath();
        String steps = args.length > 1 ? args[1] : "1000,5000,10000,19000";
        SseCapacityBenchmark b = new SseCapacityBenchmark();
        b.start(jar);
        try {
            System.out.printf(Locale.ROOT, "java=%s cpus=%d%n", System.getProperty("java.version"),
                    Runtime.getRuntime().availableProcessors());
            long rss0 = b.rssKb();
            long heap0 = b.heapKb();
            double idleMedian = b.medianCallMs();
            System.out.printf(Locale.ROOT, "idle: RSS %d MiB, heap after GC %d MiB, median call %.2f ms%n",
                    rss0 / 1024, heap0 / 1024, idleMedian);
            System.out.println("| streams | RSS MiB | heap after GC MiB | RSS KiB/stream | heap KiB/stream |"
                    + " call to first delivery ms | call to last delivery ms | median call ms | open |");
            System.out.println("|---|---|---|---|---|---|---|---|---|");
            int call = 0;
            for (String step : steps.split(",")) {
                int n = Integer.parseInt(step.strip());
                String failure = b.openUpTo(n);
                long rss = b.rssKb();
                long heap = b.heapKb();
                int open = (int) b.streams.stream().filter(s -> s.open).count();
                long[] delivery = b.deliver("bench-" + (++call));
                double median = b.medianCallMs();
                b.deliver("drained-" + call); // the median's events read by every stream before the next step
                System.out.printf(Locale.ROOT, "| %,d | %d | %d | %.1f | %.1f | %d | %d | %.2f | %,d |%n", n,
                        rss / 1024, heap / 1024, (rss - rss0) / (double) open, (heap - heap0) / (double) open,
                        delivery[0], delivery[1], median, open);
                if (failure != null) {
                    System.out.println("stopped: " + failure);
                    break;
                }
            }
        } finally {
            b.server.destroy();
            b.server.waitFor();
        }
    }

    private void start(Path jar) throws Exception {
        Path home = Files.createTempDirectory("qag-sse-bench-");
        int admin;
        try (ServerSocket a = new ServerSocket(0); ServerSocket c = new ServerSocket(0)) {
            port = a.getLocalPort();
            admin = c.getLocalPort();
        }
        Path demo = Path.of("config/demo/demo-duckdb.sql").toAbsolutePath();
        Files.writeString(home.resolve("config.yml"), "home: " + home + "\nauth:\n  adminKey: " + KEY + "\n"
                + "events:\n  live:\n    maxStreams: 100000\n"
                + "connections:\n  demo:\n    dialect: duckdb\n    url: demo.duckdb\n    properties:\n"
                + "      duckdb.read_only: \"true\"\n      duckdb.init_script: " + demo + "\n"
                + "seedQueries:\n  - name: film\n    connection: demo\n"
                + "    sql: SELECT film_id, title FROM film WHERE film_id = :film_id\n"
                + "    parameters:\n      film_id: {type: int, min: 1}\n"
                + "server:\n  enableVirtualThreads: true\n  applicationConnectors:\n    - type: http\n"
                + "      bindHost: 127.0.0.1\n      port: " + port + "\n      acceptQueueSize: 4096\n"
                + "  adminConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: " + admin
                + "\n  requestLog:\n    appenders: []\n"
                + "logging:\n  level: WARN\n");
        server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "--enable-native-access=ALL-UNNAMED", "-jar", jar.toString(), "server",
                home.resolve("config.yml").toString())
                .redirectErrorStream(true).redirectOutput(home.resolve("server.log").toFile()).start();
        if (!Http.waitUp("http://127.0.0.1:" + port + "/health", server, 120)) {
            throw new IllegalStateException(Files.readString(home.resolve("server.log")));
        }
        System.out.println("gateway pid " + server.pid() + " on port " + port + ", home " + home);
    }

    /** Opens streams until {@code n} are open (each has its headers and {@code retry:}); the reason it stopped. */
    private String openUpTo(int n) throws IOException {
        byte[] request = ("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + KEY
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        while (streams.size() < n) {
            int batch = Math.min(500, n - streams.size());
            for (int i = 0; i < batch; i++) {
                SocketChannel c;
                try {
                    c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                } catch (IOException e) {
                    return "client could not open stream " + (streams.size() + 1) + ": " + e;
                }
                c.write(ByteBuffer.wrap(request));
                c.configureBlocking(false);
                Stream s = new Stream(c);
                c.register(selector, SelectionKey.OP_READ, s);
                streams.add(s);
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (streams.stream().anyMatch(s -> !s.open) && System.nanoTime() < deadline) {
                poll(100, null, 0);
            }
            long refused = streams.stream().filter(s -> !s.open).count();
            if (refused > 0) {
                return refused + " of " + streams.size() + " streams not open within 60 s";
            }
        }
        return null;
    }

    /** Makes one call and waits until every open stream has its event: ms to the first and to the last. */
    private long[] deliver(String requestId) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/q/film?film_id=1")).header("X-API-Key", KEY)
                .header("X-Request-Id", requestId).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the call answered " + r.statusCode() + ": " + r.body());
        }
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (streams.stream().anyMatch(s -> s.open && s.sawAt < start) && System.nanoTime() < deadline) {
            poll(100, requestId, start);
        }
        long first = Long.MAX_VALUE;
        long last = 0;
        for (Stream s : streams) {
            if (s.open) {
                if (s.sawAt < start) {
                    throw new IllegalStateException("a stream never received " + requestId);
                }
                first = Math.min(first, s.sawAt);
                last = Math.max(last, s.sawAt);
            }
        }
        return new long[] {(first - start) / 1_000_000, (last - start) / 1_000_000};
    }

    /**
     * The median of 200 sequential calls, while the selector keeps reading the streams (their events and
     * heartbeats); the first 50 calls warm up.
     */
    private double medianCallMs() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/film?film_id=2"))
                .header("X-API-Key", KEY).build();
        long[] nanos = new long[200];
        for (int i = -50; i < nanos.length; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("the call answered " + r.statusCode());
            }
            if (i >= 0) {
                nanos[i] = System.nanoTime() - start;
            }
            poll(0, null, 0);
        }
        java.util.Arrays.sort(nanos);
        return nanos[nanos.length / 2] / 1e6;
    }

    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);

    private void poll(long millis, String marker, long since) throws IOException {
        if (millis > 0) {
            selector.select(millis);
        } else {
            selector.selectNow();
        }
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            Stream s = (Stream) key.attachment();
            buffer.clear();
            int read = s.channel.read(buffer);
            if (read < 0) {
                s.open = false;
                key.cancel();
                s.channel.close();
                continue;
            }
            s.tail.append(new String(buffer.array(), 0, read, StandardCharsets.US_ASCII));
            if (!s.open && s.tail.indexOf("retry: ") >= 0) {
                s.open = s.tail.indexOf("HTTP/1.1 200") >= 0;
            }
            if (marker != null && s.sawAt < since && s.tail.indexOf(marker) >= 0) {
                s.sawAt = System.nanoTime();
            }
            if (s.tail.length() > 4096) {
                s.tail.delete(0, s.tail.length() - 256);
            }
        }
    }

    private long rssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + server.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
    }

    private long heapKb() throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        new ProcessBuilder(jcmd, String.valueOf(server.pid()), "GC.run").redirectErrorStream(true).start().waitFor();
        Process p = new ProcessBuilder(jcmd, String.valueOf(server.pid()), "GC.heap_info").redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        Matcher m = HEAP_USED.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no heap figure in: " + out);
        }
        return Long.parseLong(m.group(1));
    }
}
