package io.queryapigate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Reading {@code GET /api/v1/alerts} and {@code /api/v1/instances} answers in tests, and waiting for a condition. */
public final class TestingAlerts {
    private TestingAlerts() {}

    /** The alerts as {@code who} sees them (fails unless the answer is 200). */
    public static JsonNode alerts(Http http, String who) {
        Http.Reply r = http.get("/api/v1/alerts", who);
        if (r.status() != 200) {
            throw new AssertionError("/api/v1/alerts answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** The ids of the alerts {@code who} sees. */
    public static List<String> ids(Http http, String who) {
        List<String> out = new ArrayList<>();
        alerts(http, who).get("items").forEach(a -> out.add(a.get("id").asText()));
        return out;
    }

    /** The alert with this id, if {@code who} sees it. */
    public static Optional<JsonNode> alert(Http http, String who, String id) {
        for (JsonNode a : alerts(http, who).get("items")) {
            if (a.get("id").asText().equals(id)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** Asks again (every 200 ms, up to {@code seconds}) until the ids satisfy {@code condition}; returns them. */
    public static List<String> awaitIds(Http http, String who, int seconds, Predicate<List<String>> condition)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        List<String> ids = ids(http, who);
        while (!condition.test(ids)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the alerts never became as expected within " + seconds + " s: " + ids);
            }
            Thread.sleep(200);
            ids = ids(http, who);
        }
        return ids;
    }
}
