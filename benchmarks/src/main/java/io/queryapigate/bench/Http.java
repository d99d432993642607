package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small JSON-over-HTTP client for the management APIs, /metrics and the counted calls. */
final class Http {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Http() {}

    record Reply(int status, String body, java.net.http.HttpHeaders headers) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON (" + status + "): " + abbreviate(body), e);
            }
        }

        String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    static Reply get(String url, String key) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
        if (key != null) {
            b.header("X-API-Key", key);
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body(), r.headers());
    }

    static Reply post(String url, String key, Object body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (key != null) {
            b.header("X-API-Key", key);
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body(), r.headers());
    }

    static Reply require(Reply r, int... ok) {
        for (int s : ok) {
            if (r.status() == s) {
                return r;
            }
        }
        throw new IllegalStateException("HTTP " + r.status() + ": " + abbreviate(r.body()));
    }

    static String abbreviate(String s) {
        return s == null ? "" : s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }

    /** Waits until GET url answers 200, or the process dies, or the time is up. */
    static boolean waitUp(String url, Process p, long seconds) throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < until) {
            if (p != null && !p.isAlive()) {
                return false;
            }
            try {
                if (get(url, null).status() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not yet
            }
            Thread.sleep(100);
        }
        return false;
    }
}
