package io.queryapigate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.testing.Http;
import io.queryapigate.testing.Http.Reply;
import io.queryapigate.testing.TestingConfig;
import io.queryapigate.testing.TestingSse;
import io.queryapigate.testing.TestingSse.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /events} on a real store (the SQLite and the PostgreSQL subclasses): who sees which calls (a key its own,
 * an administrator its workspace, tried across keys and workspaces), what an event says and never says, the
 * filters, resuming after {@code Last-Event-ID} without gaps or repeats, heartbeats, a client hanging up, a revoked
 * key's stream ending, and the stream limit.
 */
abstract class LiveEventsContract {
    static final String ADMIN = TestingConfig.ADMIN_KEY;
    static final Duration WAIT = Duration.ofSeconds(15);
    /** {@code events.live} for the instances under test: fast heartbeats and rechecks, 40 streams at most. */
    static final String LIVE = "  live:\n    pollInterval: %s\n    heartbeat: 300ms\n    recheck: 300ms\n"
            + "    maxStreams: 40\n";
    private static final AtomicInteger NAMES = new AtomicInteger();

    /** The instance under test. */
    abstract String base();

    /** How many streams it holds open. */
    abstract IntSupplier streams();

    /** Its metrics. */
    abstract com.codahale.metrics.MetricRegistry metrics();

    Http http() {
        return new Http(base());
    }

    TestingSse open(String path, String key, String... headers) {
        return TestingSse.open(base(), path, key, headers);
    }

    /** A key that may call {@code film}: its name and secret. */
    String[] filmKey() {
        String name = "live-" + NAMES.incrementAndGet();
        return new String[] {name, http().key(name, Map.of("queries", List.of("film")))};
    }

    /** Calls {@code film} with {@code key} under a request id of its own, which it returns. */
    String film(String key, int id) {
        return film(http(), key, id);
    }

    static String film(Http http, String key, int id) {
        String requestId = "rq-" + UUID.randomUUID().toString().substring(0, 13);
        Reply r = http.request("GET", "/q/film?film_id=" + id, key, null, "X-Request-Id", requestId);
        assertThat(r.status()).as(r.body()).isIn(200, 400);
        return requestId;
    }

    static List<String> requestIds(List<Event> events) {
        return events.stream().map(e -> e.data().get("entry").get("request_id").asText()).toList();
    }

    /** The events of {@code stream} that are these calls', in order, once all of them came. */
    static List<Event> awaitCalls(TestingSse stream, List<String> requestIds) throws InterruptedException {
        List<Event> mine = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (mine.size() < requestIds.size()) {
            Event e = stream.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            assertThat(e).as("the events of " + requestIds + "; got " + requestIds(mine)).isNotNull();
            if (requestIds.contains(e.data().get("entry").get("request_id").asText())) {
                mine.add(e);
            }
        }
        return mine;
    }

    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void aKeySeesItsOwnCallsOnlyAndTheBreakGlassKeySeesEveryCall() throws Exception {
        String[] one = filmKey();
        String[] two = filmKey();
        try (TestingSse first = open("/events", one[1]); TestingSse second = open("/events", two[1]);
                TestingSse all = open("/events", ADMIN)) {
            assertThat(first.status()).as(first.errorBody()).isEqualTo(200);
            assertThat(first.contentType()).startsWith("text/event-stream");
            List<String> firsts = List.of(film(one[1], 7), film(one[1], 8));
            List<String> seconds = List.of(film(two[1], 9));

            List<Event> seen = first.take(2, WAIT);
            assertThat(requestIds(seen)).isEqualTo(firsts);
            assertThat(requestIds(second.take(1, WAIT))).isEqualTo(seconds);
            List<String> everyone = new ArrayList<>(firsts);
            everyone.addAll(seconds);
            assertThat(requestIds(awaitCalls(all, everyone))).isEqualTo(everyone);

            JsonNode event = seen.get(0).data();
            assertThat(event.get("type").asText()).isEqualTo("query.run");
            assertThat(event.get("kind").asText()).isEqualTo("saved");
            assertThat(event.get("query").asText()).isEqualTo("film");
            assertThat(event.get("version").asInt()).isEqualTo(1);
            assertThat(event.get("occurred_at").asText()).isNotEmpty();
            JsonNode entry = event.get("entry");
            assertThat(entry.get("key_name").asText()).isEqualTo(one[0]);
            assertThat(entry.get("status").asText()).isEqualTo("success");
            assertThat(entry.get("rows").asLong()).isEqualTo(1);
            assertThat(entry.get("http_status").asInt()).isEqualTo(200);
            assertThat(entry.has("duration_ms")).isTrue();
            assertThat(seen.get(1).id()).isGreaterThan(seen.get(0).id());
            for (Event e : seen) {
                assertThat(e.data().toString()).as("no parameter, SQL or row ever")
                        .doesNotContain("film_id").doesNotContain("SELECT").doesNotContain("rental_rate")
                        .doesNotContain("title");
            }

            Thread.sleep(500);
            assertThat(first.drain()).as("never another key's calls").isEmpty();
            assertThat(second.drain()).isEmpty();
        }
    }

    @Test
    void anAdministratorSeesTheWorkspaceItActsInAndNoOther() throws Exception {
        Http http = http();
        String suffix = "-" + NAMES.incrementAndGet();
        String a = "wa" + suffix;
        String b = "wb" + suffix;
        http.workspaceWithQuery(a);
        http.workspaceWithQuery(b);
        String aKey = created(http.post("/w/" + a + "/api/v1/api-keys", ADMIN, Http.json(Map.of("name", a + "_key",
                "queries", "*"))));
        String bKey = created(http.post("/w/" + b + "/api/v1/api-keys", ADMIN, Http.json(Map.of("name", b + "_key",
                "queries", "*"))));
        assertThat(http.post("/api/v1/administrators", ADMIN, "{\"name\": \"" + a + "-owner\", \"role\": null}")
                .status()).isEqualTo(201);
        assertThat(http.request("PUT", "/api/v1/workspaces/" + a + "/members/" + a + "-owner", ADMIN,
                "{\"role\": \"developer\"}").status()).isEqualTo(200);
        String member = created(http.post("/api/v1/administrators/" + a + "-owner/tokens", ADMIN, "{}"));

        try (TestingSse theirs = open("/w/" + a + "/events", member);
                TestingSse other = open("/w/" + b + "/events", member);
                TestingSse unnamed = open("/events", member);
                TestingSse onlyB = open("/w/" + b + "/events", ADMIN);
                TestingSse all = open("/events", ADMIN)) {
            assertThat(theirs.status()).as(theirs.errorBody()).isEqualTo(200);
            assertThat(other.status()).as("a workspace it is no member of").isEqualTo(404);
            assertThat(other.errorBody()).contains("workspace_not_found");
            assertThat(unnamed.status()).as("no role in the default workspace").isEqualTo(403);
            String inA = "rq-a" + suffix;
            String inB = "rq-b" + suffix;
            assertThat(http.request("GET", "/q/" + a + "_q", aKey, null, "X-Request-Id", inA).status())
                    .isEqualTo(200);
            assertThat(http.request("GET", "/q/" + b + "_q", bKey, null, "X-Request-Id", inB).status())
                    .isEqualTo(200);

            assertThat(requestIds(awaitCalls(all, List.of(inA, inB)))).containsExactly(inA, inB);
            assertThat(requestIds(awaitCalls(onlyB, List.of(inB)))).containsExactly(inB);
            assertThat(requestIds(awaitCalls(theirs, List.of(inA)))).containsExactly(inA);
            Thread.sleep(500);
            assertThat(requestIds(theirs.drain())).as("never workspace B's").doesNotContain(inB);
            assertThat(requestIds(onlyB.drain())).as("never workspace A's").doesNotContain(inA);
        }
    }

    private static String created(Reply r) {
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        return r.json().get("secret").asText();
    }

    @Test
    void filtersNarrowTheStreamAndABadOneIsNamed() throws Exception {
        try (TestingSse bad = open("/events?status=bogus&kind=weird", ADMIN)) {
            assertThat(bad.status()).isEqualTo(400);
            JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(bad.errorBody());
            assertThat(body.get("code").asText()).isEqualTo("invalid_filter");
            assertThat(body.get("errors").has("status")).isTrue();
            assertThat(body.get("errors").has("kind")).isTrue();
            assertThat(body.has("request_id")).isTrue();
        }
        String[] key = filmKey();
        try (TestingSse errors = open("/events?status=error&query=film", key[1]);
                TestingSse refused = open("/events?status=400", key[1]);
                TestingSse adhoc = open("/events?kind=adhoc", key[1])) {
            film(key[1], 1);
            String failed = film(key[1], 0); // below the parameter's min: 400
            assertThat(requestIds(errors.take(1, WAIT))).containsExactly(failed);
            assertThat(requestIds(refused.take(1, WAIT))).containsExactly(failed);
            Thread.sleep(500);
            assertThat(errors.drain()).isEmpty();
            assertThat(adhoc.drain()).isEmpty();
        }
    }

    @Test
    void aStreamResumesAfterLastEventIdWithoutGapsOrRepeats() throws Exception {
        String[] key = filmKey();
        List<String> calls = new ArrayList<>();
        List<Event> before;
        try (TestingSse first = open("/events", key[1])) {
            for (int i = 1; i <= 3; i++) {
                calls.add(film(key[1], i));
            }
            before = first.take(3, WAIT);
            assertThat(requestIds(before)).isEqualTo(calls);
        }
        for (int i = 4; i <= 6; i++) { // while no stream is open
            calls.add(film(key[1], i));
        }
        Thread.sleep(300); // some written before the stream opens, some perhaps after: exactly once either way
        try (TestingSse resumed = open("/events", key[1], "Last-Event-ID", String.valueOf(before.get(2).id()));
                TestingSse byParameter = open("/events?last_event_id=" + before.get(0).id(), key[1]);
                TestingSse garbage = open("/events", key[1], "Last-Event-ID", "abc")) {
            for (int i = 7; i <= 8; i++) {
                calls.add(film(key[1], i));
            }
            List<Event> after = resumed.take(5, WAIT);
            assertThat(requestIds(after)).isEqualTo(calls.subList(3, 8));
            List<Event> fromParameter = byParameter.take(7, WAIT);
            assertThat(requestIds(fromParameter)).isEqualTo(calls.subList(1, 8));
            for (int i = 1; i < fromParameter.size(); i++) {
                assertThat(fromParameter.get(i).id()).isGreaterThan(fromParameter.get(i - 1).id());
            }
            assertThat(requestIds(garbage.take(2, WAIT))).as("not a number: live only").isEqualTo(calls.subList(6, 8));
            Thread.sleep(500);
            assertThat(resumed.drain()).as("nothing twice").isEmpty();
            assertThat(byParameter.drain()).isEmpty();
            assertThat(garbage.drain()).isEmpty();
        }
    }

    @Test
    void heartbeatsKeepAnIdleStreamTalking() throws Exception {
        try (TestingSse idle = open("/events?query=nothing-is-called-this", ADMIN)) {
            await("two heartbeats", () -> idle.comments() >= 2);
            assertThat(idle.retry()).isEqualTo(3000);
            assertThat(idle.ended()).isFalse();
        }
    }

    @Test
    void withNoStreamOpenTheTailReadsNoEvent() throws Exception {
        await("the other tests' streams gone", () -> streams().getAsInt() == 0);
        String[] key = filmKey();
        long written = metrics().counter("events.written").getCount();
        long tailed = metrics().counter("events.live.tailed").getCount();
        film(key[1], 1);
        film(key[1], 2);
        await("both calls written", () -> metrics().counter("events.written").getCount() >= written + 2);
        Thread.sleep(500); // several checks of the tail (NOTIFY on PostgreSQL, a 100 ms poll on SQLite)
        assertThat(metrics().counter("events.live.tailed").getCount()).as("rows the tail read for nobody")
                .isEqualTo(tailed);
        try (TestingSse stream = open("/events", key[1])) {
            await("subscribed", () -> streams().getAsInt() == 1);
            awaitCalls(stream, List.of(film(key[1], 3)));
        }
        assertThat(metrics().counter("events.live.tailed").getCount()).as("read for a stream").isGreaterThan(tailed);
    }

    @Test
    void aClientThatHangsUpLeavesNoSubscriberBehind() throws Exception {
        await("the other tests' streams gone", () -> streams().getAsInt() == 0);
        List<TestingSse> open = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            open.add(open("/events", ADMIN));
        }
        await("five subscribers", () -> streams().getAsInt() == 5);
        open.forEach(TestingSse::close);
        await("none once their clients hung up", () -> streams().getAsInt() == 0);
    }

    @Test
    void aRevokedKeysStreamEnds() throws Exception {
        String[] key = filmKey();
        try (TestingSse stream = open("/events", key[1])) {
            assertThat(stream.status()).isEqualTo(200);
            Thread.sleep(700);
            assertThat(stream.ended()).as("still valid: still open").isFalse();
            assertThat(http().delete("/api/v1/api-keys/" + key[0], ADMIN).status()).isIn(200, 204);
            await("the stream ended after its key was deleted", stream::ended);
        }
        try (TestingSse nobody = open("/events", null); TestingSse wrong = open("/events", "not-a-key")) {
            assertThat(nobody.status()).isEqualTo(401);
            assertThat(wrong.status()).isEqualTo(401);
        }
    }

    @Test
    void anInstanceHoldsNoMoreStreamsThanItMay() throws Exception {
        await("the other tests' streams gone", () -> streams().getAsInt() == 0);
        List<TestingSse> open = new ArrayList<>();
        try {
            TestingSse refused = null;
            while (refused == null && open.size() < 100) {
                TestingSse s = open("/events", ADMIN);
                if (s.status() == 200) {
                    open.add(s);
                    int n = open.size();
                    await("subscribed", () -> streams().getAsInt() == n);
                } else {
                    refused = s;
                }
            }
            assertThat(open).hasSize(40);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.errorBody()).contains("too_many_streams");
        } finally {
            open.forEach(TestingSse::close);
        }
        await("closed", () -> streams().getAsInt() == 0);
        try (TestingSse again = open("/events", ADMIN)) {
            assertThat(again.status()).as("room again").isEqualTo(200);
        }
    }

    static int gauge(io.dropwizard.core.setup.Environment environment) {
        return ((Number) environment.metrics().getGauges().get("events.live.streams").getValue()).intValue();
    }

    static String live(String pollInterval) {
        return String.format(LIVE, pollInterval);
    }

}
