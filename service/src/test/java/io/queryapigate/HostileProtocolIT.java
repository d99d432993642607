package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.DropwizardTestSupport;
import io.queryapigate.testing.TestingConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hostile input at the protocol level against a running gateway, over raw sockets where an HTTP client would refuse
 * to send the bytes: every case must be answered with a 4xx in the error envelope (or the connection closed where
 * HTTP allows no answer), never a 5xx, while two bystanders keep calling a saved query and are answered throughout.
 * Prints a table per case: attempts, outcomes, the bystanders' calls, failures and p99 during the case, and the heap
 * after a GC before and after it (docs/RELIABILITY.md, section hostile).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileProtocolIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = TestingConfig.ADMIN_KEY;
    private static final int FLOOD = Integer.getInteger("hostile.flood", 3000);
    private static final int PER_ADDRESS = 100;
    private static DropwizardTestSupport<GatewayConfiguration> app;
    private static int port;
    private static Bystanders bystanders;
    private static final List<String> TABLE = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() throws Exception {
        Path config = TestingConfig.write(TestingConfig.demoConnection(), TestingConfig.filmSeed()
                + System.getProperty("hostile.limits", "limits:\n  headerTimeout: 2s\n  minRequestBodyRate: 64B\n"
                + "  maxConnectionsPerAddress: " + PER_ADDRESS + "\n"));
        app = new DropwizardTestSupport<>(GatewayApplication.class, config.toString());
        app.before();
        port = app.getLocalPort();
        bystanders = new Bystanders(port, 2);
        bystanders.phase("warm-up");
        Thread.sleep(3000);
        bystanders.phase("baseline");
        Thread.sleep(3000);
    }

    @AfterAll
    static void stop() throws Exception {
        if (bystanders != null) {
            bystanders.close();
            System.out.println("\nHostileProtocolIT\n| case | tried | outcomes | bystander calls | bystander failed"
                    + " | bystander p99 ms | heap MB before -> after |\n|---|---|---|---|---|---|---|");
            TABLE.forEach(System.out::println);
            System.out.println("| baseline | - | - | " + bystanders.summary("baseline") + " | - |");
        }
        if (app != null) {
            app.after();
        }
    }

    /** One attack: its name, its attempts' outcomes, what the bystanders saw during it, the heap around it. */
    private static final class Case implements AutoCloseable {
        final String name;
        final Map<String, Integer> outcomes = new TreeMap<>();
        int tried;
        final long heapBefore;

        Case(String name) {
            this.name = name;
            this.heapBefore = heapAfterGc();
            bystanders.phase(name);
        }

        /** Records an answer and checks it: the expected status, in the envelope unless {@code status} is 0. */
        void expect(Answer a, int... allowed) {
            tried++;
            String label = a.status == 0 ? "closed" : String.valueOf(a.status);
            outcomes.merge(label, 1, Integer::sum);
            List<Integer> ok = new ArrayList<>();
            for (int s : allowed) {
                ok.add(s);
            }
            assertThat(ok).as(name + ": " + a).contains(a.status);
            if (a.status >= 400) {
                JsonNode body = a.json();
                if (a.status >= 500) { // only where allowed: the database's own refusal, never an internal error
                    assertThat(body.path("code").asText()).as(name + ": " + a).isEqualTo("query_failed");
                }
                assertThat(body.path("code").asText()).as(name + ": " + a).isNotEmpty();
                assertThat(body.path("error").asText()).as(name + ": " + a).isNotEmpty();
                assertThat(body.path("request_id").asText()).as(name + ": " + a).matches("[A-Za-z0-9._:-]{1,64}");
            }
            assertThat(a.raw).as(name).doesNotContain("at io.queryapigate").doesNotContain("Exception");
        }

        @Override
        public void close() throws InterruptedException {
            for (int i = 0; i < 100 && bystanders.calls(name) < 5; i++) { // a short case: let the bystanders call
                Thread.sleep(50);
            }
            long heapAfter = heapAfterGc();
            String by = bystanders.summary(name);
            TABLE.add("| " + name + " | " + tried + " | " + outcomes + " | " + by + " | "
                    + heapBefore / (1 << 20) + " -> " + heapAfter / (1 << 20) + " |");
            bystanders.phase("between");
            assertThat(bystanders.failed(name)).as(name + ": bystanders refused").isZero();
            assertThat(bystanders.calls(name)).as(name + ": bystanders answered").isPositive();
            assertThat(heapAfter - heapBefore).as(name + ": heap grew").isLessThan(64L << 20);
        }
    }

    @Test
    void slowHeadersAreCutOffByTheHeaderTimeout() throws Exception {
        try (Case c = new Case("slow headers (50 sockets, 1 byte/s)")) {
            dripAndExpect408(c, "GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-Slow: ", "a".repeat(100));
        }
    }

    @Test
    void slowBodiesAreCutOffByTheMinimumRate() throws Exception {
        try (Case c = new Case("slow bodies (50 sockets, 1 byte/s)")) {
            String body = "{\"params\": {\"film_id\": 1}}" + " ".repeat(200);
            dripAndExpect408(c, "POST /q/film HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n", body);
        }
    }

    /** 50 sockets send {@code head}, then {@code drip} a byte a second each; every one must get 408 within 12 s. */
    private static void dripAndExpect408(Case c, String head, String drip) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Socket s = open();
            s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            sockets.add(s);
        }
        long start = System.nanoTime();
        List<Socket> open = new ArrayList<>(sockets);
        for (int sent = 0; !open.isEmpty() && sent < drip.length() && System.nanoTime() - start < 12_000_000_000L;
                sent++) {
            for (var it = open.iterator(); it.hasNext();) {
                Socket s = it.next();
                try {
                    s.getOutputStream().write(drip.charAt(sent));
                    s.getOutputStream().flush();
                    if (s.getInputStream().available() > 0) {
                        it.remove();
                    }
                } catch (IOException closed) {
                    it.remove();
                }
            }
            Thread.sleep(1000);
        }
        for (Socket s : sockets) {
            c.expect(read(s, 2000), 408);
            s.close();
        }
        assertThat(open).as("sockets still sending after 12 s").isEmpty();
    }

    @Test
    void oversizedHeadersAndUrls() throws Exception {
        try (Case c = new Case("oversized header / URL / 100k query parameters")) {
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(64 * 1024)
                    + "\r\n\r\n"), 431, 400);
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\n" + "X-Many: b\r\n".repeat(5000) + "\r\n"),
                    431, 400);
            c.expect(raw("GET /q/" + "f".repeat(64 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414, 431, 400);
            StringBuilder params = new StringBuilder("/q/film?film_id=1");
            for (int i = 0; i < 100_000; i++) {
                params.append("&p").append(i).append("=1");
            }
            c.expect(raw("GET " + params + " HTTP/1.1\r\nHost: x\r\n\r\n"), 414, 431, 400);
            String form = params.substring("/q/film?".length());
            c.expect(raw("POST /q/film HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                    + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
                    + "\r\n\r\n" + form), 400, 413, 415);
        }
    }

    @Test
    void tenMegabyteBodies() throws Exception {
        try (Case c = new Case("10 MB bodies (declared and chunked)")) {
            byte[] big = ("{\"sql\": \"SELECT '" + "x".repeat(10 << 20) + "'\"}").getBytes();
            for (String path : new String[] {"/execute_sql", "/q/film", "/api/v1/queries", "/api/v1/api-keys"}) {
                c.expect(sendBody(path, big, false), 413, 0);
                c.expect(sendBody(path, big, true), 413, 0);
            }
        }
    }

    @Test
    void deepAndHugeJson() throws Exception {
        try (Case c = new Case("deep JSON (100k levels) and huge JSON")) {
            String deep = "{\"params\": {\"film_id\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}}";
            c.expect(sendBody("/q/film", deep.getBytes(), false), 400);
            String deepObj = "{\"params\": " + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000) + "}";
            c.expect(sendBody("/q/film", deepObj.getBytes(), false), 400);
            c.expect(sendBody("/api/v1/queries", deepObj.getBytes(), false), 400);
            StringBuilder keys = new StringBuilder("{\"params\": {\"film_id\": 1");
            for (int i = 0; i < 60_000; i++) {
                keys.append(",\"k").append(i).append("\":1");
            }
            keys.append("}}");
            c.expect(sendBody("/q/film", keys.toString().getBytes(), false), 200, 400);
            String longString = "{\"params\": {\"film_id\": \"" + "9".repeat(900_000) + "\"}}";
            c.expect(sendBody("/q/film", longString.getBytes(), false), 400);
            String longNumber = "{\"params\": {\"film_id\": " + "9".repeat(900_000) + "}}";
            c.expect(sendBody("/q/film", longNumber.getBytes(), false), 400);
            String longName = "{\"" + "n".repeat(900_000) + "\": 1}";
            c.expect(sendBody("/q/film", longName.getBytes(), false), 200, 400);
        }
    }

    @Test
    void invalidUtf8EverywhereAStringGoes() throws Exception {
        try (Case c = new Case("invalid UTF-8 (path, query, headers, JSON, SQL)")) {
            byte[] bad = {(byte) 0xff, (byte) 0xc3, (byte) 0x28, (byte) 0xed, (byte) 0xa0, (byte) 0x80};
            c.expect(rawBytes(concat("GET /q/fi".getBytes(), bad, "lm?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: "
                    .getBytes(), KEY.getBytes(), "\r\n\r\n".getBytes())), 400, 404);
            c.expect(raw("GET /q/fi%FF%C3%28lm?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY + "\r\n\r\n"),
                    400, 404);
            c.expect(rawBytes(concat("GET /q/film?film_id=".getBytes(), bad, (" HTTP/1.1\r\nHost: x\r\nX-API-Key: "
                    + KEY + "\r\n\r\n").getBytes())), 400);
            c.expect(raw("GET /q/film?film_id=%FF%C3%28 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY + "\r\n\r\n"),
                    400);
            c.expect(raw("GET /q/film?%FF%ED%A0%80=1&film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                    + "\r\n\r\n"), 200, 400);
            c.expect(rawBytes(concat("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: ".getBytes(), bad,
                    "\r\n\r\n".getBytes())), 400, 401);
            c.expect(rawBytes(concat(("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                    + "\r\nX-Request-Id: ").getBytes(), bad, "\r\nX-Other: ".getBytes(), bad, "\r\n\r\n".getBytes())),
                    200, 400);
            byte[] jsonString = concat("{\"params\": {\"film_id\": \"".getBytes(), bad, "\"}}".getBytes());
            c.expect(sendBody("/q/film", jsonString, false), 400);
            byte[] jsonName = concat("{\"params\": {\"".getBytes(), bad, "\": 1, \"film_id\": 1}}".getBytes());
            c.expect(sendBody("/q/film", jsonName, false), 400);
            byte[] sql = concat("{\"connection_name\": \"demo\", \"sql\": \"SELECT '".getBytes(), bad,
                    "' AS v\"}".getBytes());
            c.expect(sendBody("/execute_sql", sql, false), 400);
            byte[] management = concat("{\"name\": \"bad".getBytes(), bad,
                    "\", \"sql\": \"SELECT 1\", \"connection_name\": \"demo\"}".getBytes());
            c.expect(sendBody("/api/v1/queries", management, false), 400);
            byte[] lone = "{\"connection_name\": \"demo\", \"sql\": \"SELECT '\\ud800' AS v\"}".getBytes();
            c.expect(sendBody("/execute_sql", lone, false), 200, 400);
        }
    }

    @Test
    void crlfInTheRequestIdIsNeverEchoed() throws Exception {
        try (Case c = new Case("CRLF / control characters in X-Request-Id")) {
            String[] ids = {"abc\rInjected: 1", "abc\nInjected: 1", "abc%0d%0aInjected:%201",
                    "abc\r\n Injected: 1", "abc\u0000Injected", "abc\tInjected"};
            for (String id : ids) {
                Answer a = raw("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                        + "\r\nX-Request-Id: " + id + "\r\n\r\n");
                c.expect(a, 200, 400);
                assertThat(a.head.toLowerCase(Locale.ROOT)).as(id).doesNotContain("injected");
                if (a.status == 400) {
                    assertThat(a.json().path("request_id").asText()).matches("[0-9a-f]{16}");
                }
            }
        }
    }

    @Test
    void http10WithoutHostAndPipelinedGarbage() throws Exception {
        try (Case c = new Case("HTTP/1.0 without Host, HTTP/1.1 without Host, pipelined garbage")) {
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.0\r\nX-API-Key: " + KEY + "\r\n\r\n"), 200);
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.1\r\nX-API-Key: " + KEY + "\r\n\r\n"), 400);
            try (Socket s = open()) {
                s.getOutputStream().write(("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                        + "\r\n\r\n\u0000\u0001\u0002garbage \u00ff\r\n\r\nGET / HTTP/9.9\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                Answer first = read(s, 10_000);
                c.expect(first, 200);
                Answer second = read(s, 10_000);
                c.expect(second, 400, 0);
                assertThat(read(s, 2000).status).as("the connection closed after the garbage").isZero();
            }
            c.expect(raw("GARBAGE\r\n\r\n"), 400);
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6"
                    + "\r\n\r\nhello!"), 400);
            c.expect(raw("POST /q/film HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3"
                    + "\r\n\r\n0\r\n\r\n"), 400);
        }
    }

    @Test
    void oneMegabyteSql() throws Exception {
        try (Case c = new Case("1 MB SQL (and 900 KB, under the body limit)")) {
            String mb = "SELECT 1 " + "-".repeat(1 << 20);
            c.expect(sendBody("/execute_sql", ("{\"connection_name\": \"demo\", \"sql\": \"" + mb + "\"}")
                    .getBytes(), false), 413);
            String kb900 = "SELECT 1 AS v, '" + "x".repeat(900_000) + "' AS w";
            c.expect(sendBody("/execute_sql", ("{\"connection_name\": \"demo\", \"sql\": \"" + kb900 + "\"}")
                    .getBytes(), false), 413);
            String manyTerms = "SELECT " + "1+".repeat(30_000) + "1";
            c.expect(sendBody("/execute_sql", ("{\"connection_name\": \"demo\", \"sql\": \"" + manyTerms + "\"}")
                    .getBytes(), false), 200, 400, 500); // DuckDB: "Max expression depth limit of 1000 exceeded"
            c.expect(sendBody("/api/v1/queries", ("{\"name\": \"big\", \"connection_name\": \"demo\", \"sql\": \""
                    + kb900 + "\"}").getBytes(), false), 413);
        }
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: what it leaves behind shows in the check at its end, not in other cases
    void aConnectionFloodFromOneAddress() throws Exception {
        try (Case c = new Case("connection flood (" + FLOOD + " sockets held)")) {
            List<Socket> held = new ArrayList<>();
            int refused = 0;
            try {
                for (int i = 0; i < FLOOD; i++) {
                    try {
                        Socket s = new Socket("127.0.0.1", port);
                        s.setSoTimeout(20); // held sockets are read once each, after 3 s
                        held.add(s);
                    } catch (IOException e) {
                        refused++;
                    }
                }
                Thread.sleep(3000);
                int stillOpen = 0;
                for (Socket s : held) {
                    try {
                        int b = s.getInputStream().read();
                        c.outcomes.merge(b < 0 ? "closed by server" : "answered", 1, Integer::sum);
                    } catch (SocketTimeoutException open) {
                        stillOpen++;
                    } catch (IOException e) {
                        c.outcomes.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
                    }
                }
                c.tried = held.size() + refused;
                c.outcomes.put("held", stillOpen);
                c.outcomes.put("refused", refused);
                assertThat(stillOpen).as("held open beyond limits.maxConnectionsPerAddress")
                        .isLessThanOrEqualTo(PER_ADDRESS);
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
            Thread.sleep(500);
            c.expect(raw("GET /q/film?film_id=1 HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY + "\r\n\r\n"), 200);
        }
    }

    // raw HTTP

    private record Answer(int status, String head, String body, String raw) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + raw, e);
            }
        }

        @Override
        public String toString() {
            return raw.length() > 600 ? raw.substring(0, 600) + "..." : raw;
        }
    }

    private static Socket open() throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(15_000);
        return s;
    }

    private static Answer raw(String request) throws IOException {
        return rawBytes(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Answer rawBytes(byte[] request) throws IOException {
        try (Socket s = open()) {
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
            } catch (IOException refusedMidway) {
                // the server answered and closed before taking it all: read its answer
            }
            return read(s, 15_000);
        }
    }

    /** POSTs {@code body} as JSON with the admin key, with a Content-Length or chunked. */
    private static Answer sendBody(String path, byte[] body, boolean chunked) throws IOException {
        try (Socket s = open()) {
            OutputStream out = s.getOutputStream();
            String head = "POST " + path + " HTTP/1.1\r\nHost: x\r\nX-API-Key: " + KEY
                    + "\r\nContent-Type: application/json\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n")
                    + "\r\n";
            try {
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                if (chunked) {
                    for (int off = 0; off < body.length; off += 65536) {
                        int n = Math.min(65536, body.length - off);
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body, off, n);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } else {
                    out.write(body);
                }
                out.flush();
            } catch (IOException refusedMidway) {
                // answered and closed before the body was all sent
            }
            return read(s, 30_000);
        }
    }

    /** One response from {@code s}: status 0 when the connection closed (or stayed silent) without one. */
    private static Answer read(Socket s, int timeoutMillis) throws IOException {
        s.setSoTimeout(timeoutMillis);
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.write(b);
            }
        } catch (SocketTimeoutException | java.net.SocketException silent) {
            // nothing more
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        if (!h.startsWith("HTTP/1.")) {
            return new Answer(0, h, "", h);
        }
        int status = Integer.parseInt(h.substring(9, 12));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String lower = h.toLowerCase(Locale.ROOT);
        int cl = lower.indexOf("content-length:");
        try {
            if (cl >= 0) {
                int len = Integer.parseInt(lower.substring(cl + 15, lower.indexOf("\r\n", cl)).trim());
                body.write(in.readNBytes(len));
            } else if (lower.contains("transfer-encoding: chunked")) {
                while (true) {
                    String size = line(in);
                    int n = Integer.parseInt(size.trim(), 16);
                    if (n == 0) {
                        line(in);
                        break;
                    }
                    body.write(in.readNBytes(n));
                    line(in);
                }
            } else {
                body.write(in.readAllBytes());
            }
        } catch (SocketTimeoutException | java.net.SocketException cut) {
            // as much as came
        }
        String b = body.toString(StandardCharsets.UTF_8);
        return new Answer(status, h, b, h + b);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            sb.append((char) c);
        }
        return sb.toString();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Callers that keep calling a saved query while the attacks run, their latencies recorded per phase. */
    private static final class Bystanders implements AutoCloseable {
        private record Call(String phase, long nanos, boolean ok) {}

        private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        private volatile String phase = "baseline";

        Bystanders(int port, int n) {
            HttpClient client;
            try { // another address than the attacks' 127.0.0.1, as a caller elsewhere would be
                client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                        .localAddress(java.net.InetAddress.getByName("127.0.0.2")).build();
            } catch (java.net.UnknownHostException e) {
                throw new AssertionError(e);
            }
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/film?film_id=1"))
                    .header("X-API-Key", KEY).timeout(Duration.ofSeconds(30)).build();
            for (int i = 0; i < n; i++) {
                threads.add(Thread.ofPlatform().daemon().name("bystander-" + i).start(() -> {
                    while (running.get()) {
                        String p = phase;
                        long t0 = System.nanoTime();
                        boolean ok;
                        try {
                            ok = client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
                        } catch (IOException e) {
                            ok = false;
                        } catch (InterruptedException e) {
                            return;
                        }
                        calls.add(new Call(p, System.nanoTime() - t0, ok));
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
            }
        }

        void phase(String p) {
            phase = p;
        }

        long calls(String p) {
            return calls.stream().filter(c -> c.phase.equals(p)).count();
        }

        long failed(String p) {
            return calls.stream().filter(c -> c.phase.equals(p) && !c.ok).count();
        }

        String summary(String p) {
            List<Long> ms = calls.stream().filter(c -> c.phase.equals(p)).map(c -> c.nanos / 1_000_000).sorted()
                    .toList();
            long p99 = ms.isEmpty() ? -1 : ms.get(Math.min(ms.size() - 1, (int) Math.ceil(ms.size() * 0.99) - 1));
            return ms.size() + " | " + failed(p) + " | " + p99;
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(35_000);
            }
        }
    }
}
