package io.queryapigate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Server-Sent Events client for tests ({@code GET /events}): reads the stream on a virtual thread as a browser's
 * EventSource would (fields {@code id}, {@code data}, {@code retry}, comment lines, an event per blank line), and
 * hangs up on {@link #close()}.
 */
public final class TestingSse implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One event: its {@code id:} and its {@code data:} as JSON. */
    public record Event(long id, JsonNode data) {}

    private final HttpClient client;
    private final int status;
    private final String contentType;
    private final String errorBody;
    private final InputStream body;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final AtomicInteger comments = new AtomicInteger();
    private volatile int retry = -1;
    private volatile boolean ended;

    private TestingSse(HttpClient client, HttpResponse<InputStream> response) throws IOException {
        this.client = client;
        this.status = response.statusCode();
        this.contentType = response.headers().firstValue("Content-Type").orElse(null);
        this.body = response.body();
        if (status != 200) {
            this.errorBody = new String(body.readAllBytes(), StandardCharsets.UTF_8);
            this.ended = true;
        } else {
            this.errorBody = null;
            Thread.ofVirtual().name("sse-reader").start(this::read);
        }
    }

    /**
     * Opens {@code base + path} with {@code key} in {@code X-API-Key} (null: none) and more headers (name, value, ...).
     */
    public static TestingSse open(String base, String path, String key, String... headers) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", "text/event-stream");
        if (key != null) {
            b.header("X-API-Key", key);
        }
        if (headers.length > 0) {
            b.headers(headers);
        }
        try {
            return new TestingSse(client, client.send(b.GET().build(), HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            long id = -1;
            StringBuilder data = null;
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(id, MAPPER.readTree(data.toString())));
                    }
                    data = null;
                } else if (line.startsWith(":")) {
                    comments.incrementAndGet();
                } else if (line.startsWith("id: ")) {
                    id = Long.parseLong(line.substring(4));
                } else if (line.startsWith("retry: ")) {
                    retry = Integer.parseInt(line.substring(7));
                } else if (line.startsWith("data: ")) {
                    data = data == null ? new StringBuilder(line.substring(6)) : data.append('\n')
                            .append(line.substring(6));
                } else {
                    throw new AssertionError("not an event-stream line: " + line);
                }
            }
        } catch (IOException closed) {
            // closed by close(), or the server went away
        } finally {
            ended = true;
        }
    }

    public int status() {
        return status;
    }

    public String contentType() {
        return contentType;
    }

    /** The body of a refusal (not 200). */
    public String errorBody() {
        return errorBody;
    }

    /** The next event, or null after {@code timeout}. */
    public Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next {@code n} events; fails when they do not all come within {@code timeout}. */
    public List<Event> take(int n, Duration timeout) throws InterruptedException {
        List<Event> out = new ArrayList<>(n);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < n) {
            Event e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new AssertionError("only " + out.size() + " of " + n + " events within " + timeout + ": " + out);
            }
            out.add(e);
        }
        return out;
    }

    /** Every event received and not taken yet. */
    public List<Event> drain() {
        List<Event> out = new ArrayList<>();
        events.drainTo(out);
        return out;
    }

    /** Comment lines received (heartbeats). */
    public int comments() {
        return comments.get();
    }

    /** The {@code retry:} the server suggested, or -1. */
    public int retry() {
        return retry;
    }

    /** Whether the server ended the stream (or it was closed). */
    public boolean ended() {
        return ended;
    }

    /** Hangs up. */
    @Override
    public void close() {
        try {
            body.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        client.shutdownNow();
    }
}
