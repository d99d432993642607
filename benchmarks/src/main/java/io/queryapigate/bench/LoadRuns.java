package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * What the soak and the overload run share: a QueryAPIGate start on the benchmark's MariaDB data (the mix's queries
 * published, the YAML's {@code limits} and {@code events} as given), the capacity measured closed-loop with the mix,
 * and the gateway's state read from outside: RSS (/proc), heap after a full GC (the admin task {@code gc}, then the
 * heap gauge), JVM threads (gauge), its MariaDB sessions (PROCESSLIST of its user), its event log (the SQLite store).
 */
final class LoadRuns {
    /** Closed-loop callers of the capacity measurement (the harness's usual 32). */
    static final int CALLERS = Runner.CALLERS;

    private LoadRuns() {}

    /** Options of a soak or overload run, from the command line. */
    record Options(Path jar, Path out, String gatewayCpus, int poolSize, int capacitySeconds, String extraYaml) {}

    /** A gateway for the mix: virtual threads (as the quickstart), pool {@code poolSize}, and the extra YAML. */
    static Servers.JavaGateway start(BenchSettings s, Options o, String label) throws Exception {
        Files.createDirectories(o.out());
        Path jar = o.out().resolve("queryapigate.jar");
        if (!Files.exists(jar)) {
            Files.copy(o.jar(), jar); // a rebuild by someone else mid-run cannot change what is measured
        }
        Servers.GatewayConnection c = new Servers.GatewayConnection("bench", "mysql", s.readerUrl(), s.readerUser(),
                s.readerPassword(), o.poolSize(), LoadMix.queries(s));
        return new Servers.JavaGateway(jar, o.out(), new Servers.JavaOptions(label, "5s", true, null, null,
                o.poolSize(), o.gatewayCpus()), List.of(c), o.extraYaml());
    }

    /** A started gateway for the mix, its load generator, and its capacity measured. */
    record Prepared(Servers.JavaGateway gateway, LoadGen gen, LoadMix mix, int warehouses, double capacity)
            implements AutoCloseable {
        @Override
        public void close() {
            gateway.close();
        }
    }

    /**
     * Checks the data is there, starts a gateway ({@link #start}), and measures its capacity with the mix; the
     * generator lets at most {@code maxInFlight} requests be outstanding.
     */
    static Prepared prepare(BenchSettings s, Options o, String label, int maxInFlight) throws Exception {
        int warehouses = new Tpcc(s).warehouses();
        if (warehouses == 0) {
            throw new IllegalStateException("no data: run `setup` first");
        }
        Servers.JavaGateway g = start(s, o, label);
        try {
            LoadGen gen = new LoadGen(g.baseUrl(), Duration.ofSeconds(40), maxInFlight);
            LoadMix mix = LoadMix.on(g, s, warehouses);
            // two streamed exports first, so their path is compiled before anything is measured (a cold one held
            // the single gateway core for seconds at the start of a soak)
            LoadGen.Seconds warm = new LoadGen.Seconds();
            for (int i = 0; i < 2; i++) {
                gen.sendAside(mix.export(), warm).join();
            }
            return new Prepared(g, gen, mix, warehouses, capacity(gen, mix, o.capacitySeconds()));
        } catch (Exception | Error e) {
            g.close();
            throw e;
        }
    }

    /** Requests per second answered 2xx, closed loop with the mix (after a few seconds of warm-up not counted). */
    static double capacity(LoadGen gen, LoadMix mix, int seconds) throws InterruptedException {
        gen.closed(CALLERS, Math.max(3, seconds / 2), mix); // warm-up
        LoadGen.Seconds s = gen.closed(CALLERS, seconds, mix);
        List<LoadGen.Window> ws = s.all();
        // whole seconds only: the last window holds the stragglers of the stop
        LoadGen.Window all = LoadGen.Window.merge(ws.subList(0, Math.min(ws.size(), seconds)));
        if (all.errors() > 0) {
            throw new IllegalStateException("the capacity run had " + all.errors() + " errors: "
                    + all.statusCounts());
        }
        return all.ok2xx() / (double) Math.min(ws.size(), seconds);
    }

    /** The heap in MiB after a full GC (Dropwizard's admin task), or -1. */
    static double heapAfterGcMiB(Servers.JavaGateway g) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(g.adminUrl()
                    + "/tasks/gc")).timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return -1;
            }
            JsonNode v = g.metrics().path("gauges").path("jvm.memory.heap.used").path("value");
            return v.isNumber() ? Tpcc.round3(v.asDouble() / 1048576.0) : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The JVM's threads (the gauge: platform threads; virtual ones are not threads of the OS), or -1. */
    static int threads(Servers.JavaGateway g) {
        try {
            return g.metrics().path("gauges").path("jvm.threads.count").path("value").asInt(-1);
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** A counter or gauge of the gateway (counters first), or -1. */
    static long metric(Servers.JavaGateway g, String name) throws IOException, InterruptedException {
        JsonNode m = g.metrics();
        JsonNode c = m.path("counters").path(name).path("count");
        if (c.isNumber()) {
            return c.asLong();
        }
        JsonNode v = m.path("gauges").path(name).path("value");
        if (v.isNumber()) {
            return v.asLong();
        }
        JsonNode meter = m.path("meters").path(name).path("count");
        return meter.isNumber() ? meter.asLong() : -1;
    }

    /** The server-side sessions of the gateway's MariaDB user (its pool's connections). */
    static int sessions(Connection admin, BenchSettings s) throws SQLException {
        try (PreparedStatement ps = admin.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = ?")) {
            ps.setString(1, s.readerUser());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /**
     * Waits until the gateway's event queue is empty and its written count stopped moving, then counts the events
     * in its store: what was recorded.
     */
    static long eventsAfterFlush(Servers.JavaGateway g) throws Exception {
        long until = System.nanoTime() + 30_000_000_000L;
        long last = -2;
        while (System.nanoTime() < until) {
            long queued = metric(g, "events.queued");
            long written = metric(g, "events.written");
            if (queued == 0 && written == last) {
                break;
            }
            last = written;
            Thread.sleep(1_000);
        }
        return storedEvents(g);
    }

    /** The rows of the store's event log. */
    static long storedEvents(Servers.JavaGateway g) throws SQLException {
        // the driver itself: the shaded jar's java.sql.Driver services file names only one driver
        try (Connection c = new org.sqlite.JDBC().connect("jdbc:sqlite:file:" + g.store() + "?mode=ro",
                new java.util.Properties()); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM events")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
