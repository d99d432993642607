package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The overload run: the capacity of a fresh gateway measured with the mix, then {@code high} times it open-loop for
 * {@code highSeconds}, then {@code low} times it for {@code lowSeconds}. Per second: requests sent, 2xx, 429, 503,
 * other answers and unanswered ones, p99 of the 2xx, RSS; over the run: the highest RSS, whether every 429/503
 * carried Retry-After, and the seconds from the drop of the load until the gateway is back at full speed (the first
 * of three seconds in a row that each answer at least 99% of what was sent in them with 2xx, with a 2xx p99 within
 * three times the median of the low phase's last five seconds, or 100 ms). Exit 1 when a refusal lacks Retry-After, a request went
 * unanswered (time-out, reset) or the gateway was not back at full speed within {@code recoveryBound} seconds.
 */
final class Overload {
    record Options(LoadRuns.Options run, double high, int highSeconds, double low, int lowSeconds,
            int recoveryBound) {}

    private final BenchSettings s;
    private final Options o;

    Overload(BenchSettings s, Options o) {
        this.s = s;
        this.o = o;
    }

    int run() throws Exception {
        ObjectNode report = Http.JSON.createObjectNode();
        List<String> failures = new ArrayList<>();
        try (LoadRuns.Prepared p = LoadRuns.prepare(s, o.run(), "overload", 20_000)) {
            Servers.JavaGateway g = p.gateway();
            LoadGen gen = p.gen();
            double capacity = p.capacity();
            System.err.printf(Locale.ROOT, "overload: capacity %.0f requests/s; %.1fx for %d s, then %.1fx for %d s%n",
                    capacity, o.high(), o.highSeconds(), o.low(), o.lowSeconds());
            double[] maxRss = {g.rssMiB()};
            boolean[] running = {true};
            List<Double> rssPerSecond = new ArrayList<>();
            Thread sampler = Thread.ofPlatform().daemon().start(() -> {
                while (running[0]) {
                    double rss = g.rssMiB();
                    maxRss[0] = Math.max(maxRss[0], rss);
                    synchronized (rssPerSecond) {
                        rssPerSecond.add(rss);
                    }
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            LoadGen.Seconds secs = gen.open(List.of(new LoadGen.Phase("high", capacity * o.high(), o.highSeconds()),
                    new LoadGen.Phase("low", capacity * o.low(), o.lowSeconds())), p.mix());
            running[0] = false;
            sampler.join();
            long overloaded = LoadRuns.metric(g, "calls.overloaded");
            boolean alive = Http.get(g.baseUrl() + "/health", null).status() == 200;

            List<LoadGen.Window> ws = secs.all();
            int seconds = o.highSeconds() + o.lowSeconds();
            ArrayNode rows = report.putArray("seconds");
            long refusals = 0;
            long withoutRetryAfter = 0;
            long unanswered = 0;
            for (int i = 0; i < ws.size(); i++) {
                LoadGen.Window w = ws.get(i);
                ObjectNode r = rows.addObject();
                r.put("second", i + 1);
                r.put("phase", i < o.highSeconds() ? "high" : i < seconds ? "low" : "after");
                r.put("sent", w.sent.get());
                r.put("unsent", w.unsent.get());
                r.put("ok", w.ok2xx());
                r.put("s429", w.status(429));
                r.put("s503", w.status(503));
                r.put("other", w.answered.get() - w.ok2xx() - w.status(429) - w.status(503));
                r.put("unanswered", w.failed.get());
                r.put("p99_ok_ms", w.okMs(0.99));
                synchronized (rssPerSecond) {
                    r.put("rss_mib", rssPerSecond.isEmpty() ? -1 : rssPerSecond.get(Math.min(i, rssPerSecond.size() - 1)));
                }
                refusals += w.status(429) + w.status(503);
                withoutRetryAfter += w.refusalsWithoutRetryAfter.get();
                unanswered += w.failed.get();
            }
            int recovery = recoverySeconds(ws);
            report.put("capacity_rps", Tpcc.round3(capacity));
            report.put("high", o.high());
            report.put("low", o.low());
            report.put("pool_size", o.run().poolSize());
            report.put("extra_yaml", o.run().extraYaml());
            report.put("max_rss_mib", maxRss[0]);
            report.put("refusals", refusals);
            report.put("refusals_without_retry_after", withoutRetryAfter);
            report.put("unanswered", unanswered);
            report.put("overloaded_meter", overloaded);
            report.put("recovery_s", recovery);
            report.put("alive_after", alive);
            report.put("loadavg1", Procs.loadavg()[0]);
            if (withoutRetryAfter > 0) {
                failures.add(withoutRetryAfter + " refusals without Retry-After");
            }
            if (unanswered > 0) {
                failures.add(unanswered + " requests unanswered (time-out or reset)");
            }
            if (recovery < 0 || recovery > o.recoveryBound()) {
                failures.add(recovery < 0 ? "never back at full speed in the low phase"
                        : "back at full speed only " + recovery + " s after the drop (bound " + o.recoveryBound()
                                + " s)");
            }
            if (!alive) {
                failures.add("/health does not answer after the run");
            }
            report.putPOJO("failures", failures);
            String md = markdown(report);
            Files.writeString(o.run().out().resolve("overload.md"), md);
            Files.writeString(o.run().out().resolve("overload.json"),
                    Http.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            System.out.println(md);
        }
        System.err.println(failures.isEmpty() ? "overload: shed cleanly and recovered" : "overload: FAILED: "
                + failures);
        return failures.isEmpty() ? 0 : 1;
    }

    /** Seconds after the drop until full speed (see the class comment), or -1. */
    private int recoverySeconds(List<LoadGen.Window> ws) {
        int from = o.highSeconds();
        int to = Math.min(ws.size(), o.highSeconds() + o.lowSeconds());
        if (to - from < 6) {
            return -1;
        }
        List<Double> tail = new ArrayList<>();
        for (int i = to - 5; i < to; i++) {
            tail.add(ws.get(i).okMs(0.99));
        }
        tail.sort(Double::compare);
        double bound = Math.max(3 * tail.get(2), 100);
        int run = 0;
        for (int i = from; i < to; i++) {
            LoadGen.Window w = ws.get(i);
            boolean full = w.sent.get() > 0 && w.ok2xx() >= 0.99 * w.sent.get() && w.okMs(0.99) <= bound;
            run = full ? run + 1 : 0;
            if (run == 3) {
                return i - 2 - from;
            }
        }
        return -1;
    }

    static String markdown(ObjectNode r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Overload: capacity %.0f requests/s; %.1fx then %.1fx; pool %d; %s;"
                + " load average %.1f%n%n", r.path("capacity_rps").asDouble(), r.path("high").asDouble(),
                r.path("low").asDouble(), r.path("pool_size").asInt(), r.path("extra_yaml").asText().isBlank()
                        ? "default limits" : r.path("extra_yaml").asText().trim().replace("\n", " "),
                r.path("loadavg1").asDouble()));
        b.append("| s | phase | sent | not sent | 2xx | 429 | 503 | other | unanswered | p99 2xx ms | RSS MiB |\n"
                + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (var w : r.path("seconds")) {
            b.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %d | %d | %d | %d | %d | %.1f | %.0f |%n",
                    w.path("second").asInt(), w.path("phase").asText(), w.path("sent").asLong(),
                    w.path("unsent").asLong(), w.path("ok").asLong(), w.path("s429").asLong(),
                    w.path("s503").asLong(), w.path("other").asLong(), w.path("unanswered").asLong(),
                    w.path("p99_ok_ms").asDouble(), w.path("rss_mib").asDouble()));
        }
        b.append(String.format(Locale.ROOT, "%nMax RSS %.0f MiB; %d refusals, %d without Retry-After; %d unanswered;"
                + " calls.overloaded %d; back at full speed %s after the drop; /health after: %s%n",
                r.path("max_rss_mib").asDouble(), r.path("refusals").asLong(),
                r.path("refusals_without_retry_after").asLong(), r.path("unanswered").asLong(),
                r.path("overloaded_meter").asLong(), r.path("recovery_s").asInt() < 0 ? "never"
                        : r.path("recovery_s").asInt() + " s", r.path("alive_after").asBoolean() ? "200" : "no"));
        for (var f : r.path("failures")) {
            b.append("- FAILED: ").append(f.asText()).append('\n');
        }
        return b.toString();
    }
}
