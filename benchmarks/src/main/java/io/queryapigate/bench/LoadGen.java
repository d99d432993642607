package io.queryapigate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The soak's and the overload run's load generator: java.net.http on virtual threads, either closed-loop (N callers,
 * each sends its next request when the last is answered: what the gateway can do) or open-loop at a fixed rate per
 * phase (requests are sent on schedule whatever the answers do, and latency counts from the scheduled time, so a
 * stalled server shows as latency instead of as fewer requests). Answers are counted per second of their arrival
 * ({@link Window}); requests that would exceed {@code maxInFlight} are not sent and counted as {@code unsent}.
 */
final class LoadGen {
    /** One request: a GET of a path (with the key) or a POST of a JSON body. */
    record Req(String kind, String path, String key, String jsonBody) {}

    /** A phase of the open loop: this many requests per second for this many seconds. */
    record Phase(String name, double rate, int seconds) {}

    private final String baseUrl;
    private final HttpClient client;
    private final Duration timeout;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();

    LoadGen(String baseUrl, Duration timeout, int maxInFlight) {
        this.baseUrl = baseUrl;
        this.timeout = timeout;
        this.maxInFlight = maxInFlight;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    }

    /** Answers of one period: counts by status, latencies (µs) of all answers and of the 2xx ones. */
    static final class Window {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong unsent = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();       // no HTTP answer: I/O error, client time-out
        final AtomicLong refusalsWithoutRetryAfter = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> byKind = new ConcurrentHashMap<>();
        private long[] okMicros = new long[1024];
        private int okCount;
        private long maxMicros;

        synchronized void ok(long micros) {
            if (okCount == okMicros.length) {
                okMicros = Arrays.copyOf(okMicros, okCount * 2);
            }
            okMicros[okCount++] = micros;
        }

        synchronized void latency(long micros) {
            maxMicros = Math.max(maxMicros, micros);
        }

        long status(int s) {
            AtomicLong n = statuses.get(s);
            return n == null ? 0 : n.get();
        }

        long ok2xx() {
            long n = 0;
            for (Map.Entry<Integer, AtomicLong> e : statuses.entrySet()) {
                if (e.getKey() / 100 == 2) {
                    n += e.getValue().get();
                }
            }
            return n;
        }

        /** Answers that are not 2xx, plus requests without an answer. */
        long errors() {
            return answered.get() - ok2xx() + failed.get();
        }

        /** The q-quantile of the 2xx latencies in milliseconds (0 when none). */
        synchronized double okMs(double q) {
            if (okCount == 0) {
                return 0;
            }
            long[] sorted = Arrays.copyOf(okMicros, okCount);
            Arrays.sort(sorted);
            int i = (int) Math.min(okCount - 1, Math.max(0, Math.ceil(q * okCount) - 1));
            return Math.round(sorted[i] / 10.0) / 100.0;
        }

        synchronized double maxMs() {
            return Math.round(maxMicros / 10.0) / 100.0;
        }

        Map<Integer, Long> statusCounts() {
            Map<Integer, Long> out = new TreeMap<>();
            statuses.forEach((k, v) -> out.put(k, v.get()));
            return out;
        }

        /** This window and others summed (the latencies too). */
        static Window merge(List<Window> ws) {
            Window m = new Window();
            for (Window w : ws) {
                m.sent.addAndGet(w.sent.get());
                m.unsent.addAndGet(w.unsent.get());
                m.answered.addAndGet(w.answered.get());
                m.failed.addAndGet(w.failed.get());
                m.refusalsWithoutRetryAfter.addAndGet(w.refusalsWithoutRetryAfter.get());
                m.bytes.addAndGet(w.bytes.get());
                w.statuses.forEach((k, v) -> m.statuses.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v.get()));
                w.byKind.forEach((k, v) -> m.byKind.computeIfAbsent(k, x -> new AtomicLong()).addAndGet(v.get()));
                synchronized (w) {
                    for (int i = 0; i < w.okCount; i++) {
                        m.ok(w.okMicros[i]);
                    }
                    m.latency(w.maxMicros);
                }
            }
            return m;
        }
    }

    /** Windows of one second each, by the second (since the run's start) an answer arrived in. */
    static final class Seconds {
        private final long start = System.nanoTime();
        private final List<Window> windows = new ArrayList<>();

        synchronized Window at(long nanoTime) {
            int i = (int) Math.max(0, (nanoTime - start) / 1_000_000_000L);
            while (windows.size() <= i) {
                windows.add(new Window());
            }
            return windows.get(i);
        }

        synchronized List<Window> all() {
            return new ArrayList<>(windows);
        }

        long start() {
            return start;
        }
    }

    /** Sends one request and counts its answer into the window of the second it arrived in. */
    void send(Req r, long scheduledNanos, Seconds into) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + r.path())).timeout(timeout);
        if (r.key() != null) {
            b.header("X-API-Key", r.key());
        }
        if (r.jsonBody() != null) {
            b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(r.jsonBody()));
        }
        int status = -1;
        String retryAfter = null;
        long bytes = 0;
        try {
            HttpResponse<InputStream> resp = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            status = resp.statusCode();
            retryAfter = resp.headers().firstValue("Retry-After").orElse(null);
            try (InputStream in = resp.body()) {
                byte[] buf = new byte[16384];
                for (int n; (n = in.read(buf)) >= 0; ) {
                    bytes += n;
                }
            }
        } catch (IOException e) {
            status = status > 0 ? -status : -1; // an answer cut short counts as no answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        long now = System.nanoTime();
        Window w = into.at(now);
        long micros = (now - scheduledNanos) / 1000;
        w.byKind.computeIfAbsent(r.kind(), k -> new AtomicLong()).incrementAndGet();
        if (status < 0) {
            w.failed.incrementAndGet();
            return;
        }
        w.answered.incrementAndGet();
        w.bytes.addAndGet(bytes);
        w.statuses.computeIfAbsent(status, k -> new AtomicLong()).incrementAndGet();
        w.latency(micros);
        if (status / 100 == 2) {
            if (!r.kind().equals("export")) { // a whole export's seconds are reported apart, not in p99
                w.ok(micros);
            }
        } else if ((status == 429 || status == 503) && retryAfter == null) {
            w.refusalsWithoutRetryAfter.incrementAndGet();
        }
    }

    /** Closed loop: {@code callers} each send their next request when the last one is answered. */
    Seconds closed(int callers, int seconds, Supplier<Req> mix) throws InterruptedException {
        Seconds into = new Seconds();
        long end = into.start() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
                    long t = System.nanoTime();
                    into.at(t).sent.incrementAndGet();
                    send(mix.get(), t, into);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return into;
    }

    /**
     * Open loop: each phase's rate for its seconds, one after the other; returns once every request sent was
     * answered or failed (at most the client's time-out after the last phase).
     */
    Seconds open(List<Phase> phases, Supplier<Req> mix) throws InterruptedException {
        Seconds into = new Seconds();
        AtomicInteger pending = new AtomicInteger();
        long phaseStart = into.start();
        for (Phase p : phases) {
            long phaseEnd = phaseStart + p.seconds() * 1_000_000_000L;
            double perNano = p.rate() / 1e9;
            long issued = 0;
            for (long now = System.nanoTime(); now < phaseEnd; now = System.nanoTime()) {
                long due = (long) ((now - phaseStart) * perNano);
                while (issued < due) {
                    long scheduled = phaseStart + (long) (issued / perNano);
                    issued++;
                    Window w = into.at(scheduled);
                    if (inFlight.get() >= maxInFlight) {
                        w.unsent.incrementAndGet();
                        continue;
                    }
                    w.sent.incrementAndGet();
                    Req r = mix.get();
                    inFlight.incrementAndGet();
                    pending.incrementAndGet();
                    Thread.ofVirtual().start(() -> {
                        try {
                            send(r, scheduled, into);
                        } finally {
                            inFlight.decrementAndGet();
                            pending.decrementAndGet();
                        }
                    });
                }
                LockSupport.parkNanos(200_000);
            }
            phaseStart = phaseEnd;
        }
        long until = System.nanoTime() + timeout.toNanos() + 5_000_000_000L;
        while (pending.get() > 0 && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        return into;
    }

    /** A request sent on its own virtual thread now (an export in between), counted into {@code into}. */
    Thread sendAside(Req r, Seconds into) {
        return Thread.ofVirtual().start(() -> {
            long t = System.nanoTime();
            into.at(t).sent.incrementAndGet();
            send(r, t, into);
        });
    }

    int inFlight() {
        return inFlight.get();
    }
}
