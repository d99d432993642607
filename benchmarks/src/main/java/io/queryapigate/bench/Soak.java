package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The soak: the capacity of a fresh gateway measured with the mix ({@link LoadMix}, closed loop), then 75% of it held
 * open-loop for the soak's length, with a streamed export every {@code exportEvery} seconds. Per window (a minute by
 * default): requests, errors, p50/p99 of the 2xx answers, and at its end RSS, heap after a full GC, JVM threads, the
 * gateway's MariaDB sessions. At the end the event log is counted (after the event queue flushed) against the
 * requests answered. The verdicts: no error, p99 of the last window within {@code p99Factor} of the first (plus 5 ms),
 * RSS and heap after GC flat (within a bound of the first window), no thread growth, sessions never above the pool,
 * events recorded == requests answered; any failure makes the command exit 1.
 */
final class Soak {
    record Options(LoadRuns.Options run, int seconds, int windowSeconds, double load, int exportEvery,
            double p99Factor, double rssGrowthMiB, double heapGrowthMiB, int threadGrowth) {}

    /** The state of the gateway at the end of a window. */
    record Sample(double rssMiB, double heapAfterGcMiB, int threads, int sessions) {}

    private final BenchSettings s;
    private final Options o;

    Soak(BenchSettings s, Options o) {
        this.s = s;
        this.o = o;
    }

    int run() throws Exception {
        ObjectNode report = Http.JSON.createObjectNode();
        List<String> failures = new ArrayList<>();
        try (LoadRuns.Prepared p = LoadRuns.prepare(s, o.run(), "soak", 4000);
                Connection admin = s.adminConnection()) {
            Servers.JavaGateway g = p.gateway();
            LoadGen gen = p.gen();
            LoadMix mix = p.mix();
            int warehouses = p.warehouses();
            double capacity = p.capacity();
            double rate = Math.max(1, capacity * o.load());
            System.err.printf(Locale.ROOT, "soak: capacity %.0f requests/s (closed loop, %d callers); holding %.0f/s"
                    + " for %d s%n", capacity, LoadRuns.CALLERS, rate, o.seconds());
            long events0 = LoadRuns.eventsAfterFlush(g);
            long overloaded0 = Math.max(0, LoadRuns.metric(g, "calls.overloaded"));

            List<Sample> samples = new ArrayList<>();
            List<Thread> exports = new ArrayList<>();
            LoadGen.Seconds[] secondsHolder = new LoadGen.Seconds[1];
            Thread load = Thread.ofPlatform().name("soak-load").start(() -> {
                try {
                    secondsHolder[0] = gen.open(List.of(new LoadGen.Phase("soak", rate, o.seconds())), mix);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            LoadGen.Seconds exportsInto = new LoadGen.Seconds();
            long t0 = System.nanoTime();
            int windows = Math.max(1, o.seconds() / o.windowSeconds());
            int maxSessions = 0;
            for (int w = 1; w <= windows; w++) {
                long windowEnd = t0 + w * (long) o.windowSeconds() * 1_000_000_000L;
                long nextExport = o.exportEvery() > 0 ? System.nanoTime() : Long.MAX_VALUE;
                while (System.nanoTime() < windowEnd) {
                    if (System.nanoTime() >= nextExport && System.nanoTime() < t0 + (o.seconds() - 5) * 1_000_000_000L) {
                        exports.add(gen.sendAside(mix.export(), exportsInto));
                        nextExport = System.nanoTime() + o.exportEvery() * 1_000_000_000L;
                    }
                    maxSessions = Math.max(maxSessions, LoadRuns.sessions(admin, s));
                    Thread.sleep(Math.max(1, Math.min(1000, (windowEnd - System.nanoTime()) / 1_000_000)));
                }
                Sample sample = new Sample(g.rssMiB(), LoadRuns.heapAfterGcMiB(g), LoadRuns.threads(g),
                        LoadRuns.sessions(admin, s));
                samples.add(sample);
                System.err.printf(Locale.ROOT, "soak: window %d/%d: RSS %.0f MiB, heap after GC %.1f MiB, %d threads,"
                        + " %d MariaDB sessions%n", w, windows, sample.rssMiB(), sample.heapAfterGcMiB(),
                        sample.threads(), sample.sessions());
            }
            load.join();
            for (Thread e : exports) {
                e.join();
            }
            LoadGen.Seconds secs = secondsHolder[0];
            List<LoadGen.Window> perSecond = secs.all();
            LoadGen.Window exportAll = LoadGen.Window.merge(exportsInto.all());
            long events1 = LoadRuns.eventsAfterFlush(g);
            long dropped = LoadRuns.metric(g, "events.dropped");
            long overloaded = Math.max(0, LoadRuns.metric(g, "calls.overloaded")) - overloaded0;

            ArrayNode rows = report.putArray("windows");
            List<LoadGen.Window> byWindow = new ArrayList<>();
            for (int w = 0; w < windows; w++) {
                int from = w * o.windowSeconds();
                // the last window takes the answers that arrived after the load stopped, too
                int to = w == windows - 1 ? perSecond.size() : Math.min(perSecond.size(), from + o.windowSeconds());
                LoadGen.Window win = LoadGen.Window.merge(from < to ? perSecond.subList(from, to) : List.of());
                byWindow.add(win);
                Sample sm = samples.get(w);
                ObjectNode r = rows.addObject();
                r.put("window", w + 1);
                r.put("requests", win.answered.get() + win.failed.get());
                r.put("errors", win.errors() + win.unsent.get());
                r.put("p50_ms", win.okMs(0.50));
                r.put("p99_ms", win.okMs(0.99));
                r.put("max_ms", win.maxMs());
                r.put("rss_mib", sm.rssMiB());
                r.put("heap_after_gc_mib", sm.heapAfterGcMiB());
                r.put("threads", sm.threads());
                r.put("mariadb_sessions", sm.sessions());
                r.putPOJO("statuses", win.statusCounts());
            }
            LoadGen.Window all = LoadGen.Window.merge(perSecond);
            long answered = all.answered.get() + exportAll.answered.get();
            long recorded = events1 - events0;
            long errors = all.errors() + all.unsent.get() + exportAll.errors();
            report.put("capacity_rps", Tpcc.round3(capacity));
            report.put("rate_rps", Tpcc.round3(rate));
            report.put("seconds", o.seconds());
            report.put("warehouses", warehouses);
            report.put("pool_size", o.run().poolSize());
            report.put("requests_answered", answered);
            report.put("events_recorded", recorded);
            report.put("events_dropped", dropped);
            report.put("errors", errors);
            report.put("overloaded_refusals", overloaded);
            report.put("exports", exportAll.answered.get());
            report.put("export_bytes", exportAll.bytes.get());
            report.put("export_max_s", Tpcc.round3(exportAll.maxMs() / 1000));
            report.putPOJO("by_kind", all.byKind);
            report.put("max_mariadb_sessions", maxSessions);
            report.put("loadavg1", Procs.loadavg()[0]);

            Sample first = samples.get(0);
            Sample last = samples.get(samples.size() - 1);
            double p99First = byWindow.get(0).okMs(0.99);
            double p99Last = byWindow.get(byWindow.size() - 1).okMs(0.99);
            check(failures, errors == 0, "errors: " + errors + " (" + all.statusCounts() + ", " + all.failed.get()
                    + " unanswered, " + all.unsent.get() + " not sent, exports " + exportAll.statusCounts() + ")");
            check(failures, p99Last <= p99First * o.p99Factor() + 5, String.format(Locale.ROOT,
                    "p99 stable: last window %.2f ms vs first %.2f ms (bound x%.1f + 5 ms)", p99Last, p99First,
                    o.p99Factor()));
            check(failures, last.rssMiB() <= first.rssMiB() + o.rssGrowthMiB(), String.format(Locale.ROOT,
                    "RSS flat: %.0f -> %.0f MiB (bound +%.0f)", first.rssMiB(), last.rssMiB(), o.rssGrowthMiB()));
            check(failures, last.heapAfterGcMiB() <= first.heapAfterGcMiB() + o.heapGrowthMiB(),
                    String.format(Locale.ROOT, "heap after GC flat: %.1f -> %.1f MiB (bound +%.0f)",
                            first.heapAfterGcMiB(), last.heapAfterGcMiB(), o.heapGrowthMiB()));
            check(failures, last.threads() <= first.threads() + o.threadGrowth(), "threads: " + first.threads()
                    + " -> " + last.threads() + " (bound +" + o.threadGrowth() + ")");
            check(failures, maxSessions <= o.run().poolSize() && last.sessions() <= first.sessions()
                    + o.run().poolSize(), "MariaDB sessions: at most " + maxSessions + " (pool " + o.run().poolSize()
                    + "), " + first.sessions() + " -> " + last.sessions());
            check(failures, recorded == answered && dropped == 0, "events recorded " + recorded + " == requests"
                    + " answered " + answered + " (dropped " + dropped + ")");
            report.putPOJO("verdicts", verdicts);
            String md = markdown(report);
            Files.writeString(o.run().out().resolve("soak.md"), md);
            Files.writeString(o.run().out().resolve("soak.json"),
                    Http.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            System.out.println(md);
        }
        System.err.println(failures.isEmpty() ? "soak: every verdict holds" : "soak: FAILED: " + failures);
        return failures.isEmpty() ? 0 : 1;
    }

    private final List<String> verdicts = new ArrayList<>();

    private void check(List<String> failures, boolean ok, String what) {
        verdicts.add((ok ? "ok: " : "FAILED: ") + what);
        if (!ok) {
            failures.add(what);
        }
    }

    /** The per-window table and the verdicts, as docs/RELIABILITY.md shows them. */
    static String markdown(ObjectNode r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Soak: %d s at %.0f requests/s (%.0f%% of the %.0f/s measured just"
                + " before), %d warehouse(s), pool %d, load average %.1f%n%n", r.path("seconds").asInt(),
                r.path("rate_rps").asDouble(), 100 * r.path("rate_rps").asDouble() / r.path("capacity_rps")
                        .asDouble(), r.path("capacity_rps").asDouble(), r.path("warehouses").asInt(),
                r.path("pool_size").asInt(), r.path("loadavg1").asDouble()));
        b.append("| window | requests | errors | p50 ms | p99 ms | max ms | RSS MiB | heap after GC MiB | JVM threads"
                + " | MariaDB sessions |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (var w : r.path("windows")) {
            b.append(String.format(Locale.ROOT, "| %d | %d | %d | %.2f | %.2f | %.0f | %.0f | %.1f | %d | %d |%n",
                    w.path("window").asInt(), w.path("requests").asLong(), w.path("errors").asLong(),
                    w.path("p50_ms").asDouble(), w.path("p99_ms").asDouble(), w.path("max_ms").asDouble(),
                    w.path("rss_mib").asDouble(), w.path("heap_after_gc_mib").asDouble(), w.path("threads").asInt(),
                    w.path("mariadb_sessions").asInt()));
        }
        b.append(String.format(Locale.ROOT, "%nRequests answered %d, events recorded %d (dropped %d); %d streamed"
                + " exports (%.1f MB, longest %.1f s); by kind %s%n%n", r.path("requests_answered").asLong(),
                r.path("events_recorded").asLong(), r.path("events_dropped").asLong(), r.path("exports").asLong(),
                r.path("export_bytes").asLong() / 1e6, r.path("export_max_s").asDouble(), r.path("by_kind")));
        for (var v : r.path("verdicts")) {
            b.append("- ").append(v.asText()).append('\n');
        }
        return b.toString();
    }
}
