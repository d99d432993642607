package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A gateway's memory around one measured cell: its RSS sampled every 100 ms while the load runs (the highest value
 * seen, the end-of-cell value is the cell's {@code gateway_rss_mib}), and for QueryAPIGate its JVM's own gauges from
 * the admin port ({@code /metrics/json}) read just before and just after the cell: {@code jvm.allocated.bytes} (heap
 * bytes allocated by all threads since the start, so its difference over the cell divided by the calls is the
 * allocation per call, one metrics scrape included) and the heap and non-heap pools at the end of the cell. The
 * scrapes happen outside the window whose CPU seconds are counted.
 */
final class Memory {
    /** The gauges kept at the end of a cell: results.jsonl field name to Dropwizard gauge name. */
    static final Map<String, String> GAUGES = gauges();

    private Memory() {}

    private static Map<String, String> gauges() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("heap_used", "jvm.memory.heap.used");
        m.put("heap_committed", "jvm.memory.heap.committed");
        m.put("heap_max", "jvm.memory.heap.max");
        m.put("non_heap_used", "jvm.memory.non-heap.used");
        m.put("non_heap_committed", "jvm.memory.non-heap.committed");
        m.put("total_used", "jvm.memory.total.used");
        m.put("total_committed", "jvm.memory.total.committed");
        m.put("metaspace_used", "jvm.memory.pools.Metaspace.used");
        m.put("code_cache_used", "jvm.memory.pools.CodeCache.used");
        m.put("direct_buffers", "jvm.buffers.direct.used");
        return m;
    }

    /** The kept gauges in MiB (threads as a count); a gauge the build doesn't have is left out. */
    static ObjectNode jvm(JsonNode metrics) {
        ObjectNode out = Http.JSON.createObjectNode();
        JsonNode g = metrics.path("gauges");
        GAUGES.forEach((field, name) -> {
            JsonNode v = g.path(name).path("value");
            if (v.isNumber() && v.asDouble() >= 0) {
                out.put(field + "_mib", Tpcc.round3(v.asDouble() / 1048576.0));
            }
        });
        JsonNode threads = g.path("jvm.threads.count").path("value");
        if (threads.isNumber()) {
            out.put("threads", threads.asInt());
        }
        return out;
    }

    /** The jvm.allocated.bytes gauge, or -1 when this build has none. */
    static long allocatedBytes(JsonNode metrics) {
        JsonNode v = metrics.path("gauges").path("jvm.allocated.bytes").path("value");
        return v.isNumber() ? v.asLong() : -1;
    }

    /** Started just before a cell's load; finish() right after the cell's CPU seconds are read. */
    static final class Probe {
        private final Servers.Server g;
        private final long allocated0;
        private final Thread sampler;
        private volatile boolean running = true;
        private volatile double maxRss;

        private Probe(Servers.Server g, long allocated0) {
            this.g = g;
            this.allocated0 = allocated0;
            this.sampler = new Thread(this::sample, "rss-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void sample() {
            while (running) {
                maxRss = Math.max(maxRss, g.rssMiB());
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Adds the cell's memory fields: gateway_rss_max_mib, and for QueryAPIGate jvm and allocation. */
        void finish(ObjectNode cell, long requests) throws InterruptedException {
            running = false;
            sampler.interrupt();
            sampler.join();
            cell.put("gateway_rss_max_mib", Math.max(maxRss, g.rssMiB()));
            if (g instanceof Servers.JavaGateway j) {
                try {
                    JsonNode m = j.metrics();
                    cell.set("jvm", jvm(m));
                    long a1 = allocatedBytes(m);
                    if (allocated0 >= 0 && a1 >= 0) {
                        cell.put("allocated_bytes", a1 - allocated0);
                        cell.put("allocated_bytes_per_call", Math.round((a1 - allocated0) / (double) Math.max(1,
                                requests)));
                    }
                } catch (Exception e) {
                    cell.put("jvm_error", String.valueOf(e));
                }
            }
        }
    }

    /** Reads the allocation counter (QueryAPIGate only) and starts sampling the RSS. */
    static Probe start(Servers.Server g) {
        long a0 = -1;
        if (g instanceof Servers.JavaGateway j) {
            try {
                a0 = allocatedBytes(j.metrics());
            } catch (Exception e) {
                a0 = -1;
            }
        }
        return new Probe(g, a0);
    }
}
