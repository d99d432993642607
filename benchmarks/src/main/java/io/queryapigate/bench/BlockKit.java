package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.testkit.Processes;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the blocks kept in classes of their own ({@link PostgresBlock}, {@link NetworkBlock}) share with the
 * {@link Runner}: the run's settings, the load generator, the customers drawn, the PostgreSQL copy (whether it is
 * there, its monitor connection, its server's CPU placement), and the measurement of one cell, as wrk against a
 * gateway or as the JDBC client, written as the same cell lines as the Runner's (plus whatever {@link Probe}s count
 * around it).
 */
final class BlockKit implements AutoCloseable {
    final BenchSettings s;
    final PgSettings pg;
    final Runner.Options o;
    final CostOptions cost;
    final Results results;
    final Path work;
    final Path jar;
    final Wrk wrk;
    final List<Workload.Call> uniform;
    final long dbPid;
    final int warehouses;
    private final Map<String, Path> urlFiles = new HashMap<>();
    private final PgData pgData;
    private String pgProblem;          // why the PostgreSQL copy cannot be measured, or null
    private Connection pgMonitor;
    private long postmasterPid = -1;
    private String pgAffinityBefore;   // set once the PostgreSQL server was pinned

    BlockKit(BenchSettings s, PgSettings pg, Runner.Options o, CostOptions cost, Results results, Path work, Path jar,
            Wrk wrk, List<Workload.Call> uniform, long dbPid, int warehouses) {
        this.s = s;
        this.pg = pg;
        this.o = o;
        this.cost = cost;
        this.results = results;
        this.work = work;
        this.jar = jar;
        this.wrk = wrk;
        this.uniform = uniform;
        this.dbPid = dbPid;
        this.warehouses = warehouses;
        this.pgData = new PgData(pg, s);
        boolean wanted = o.blocks().contains("postgres") || o.blocks().contains("network");
        if (wanted) {
            int w = pgData.warehouses();
            if (w == 0) {
                pgProblem = "no PostgreSQL copy of the data in database " + pg.database() + " at " + pg.host() + ":"
                        + pg.port() + ": run setup (without --no-postgres), or setup --postgres-only";
            } else if (w != warehouses) {
                pgProblem = "the PostgreSQL copy holds " + w + " warehouses and MariaDB " + warehouses
                        + ": run setup --postgres-only to load the same";
            }
        }
    }

    /** Why PostgreSQL is not measured in this run, or null when it is. */
    String pgProblem() {
        return pgProblem;
    }

    /** The six queries, or (in --smoke) customer only: the smoke proves the code paths, it doesn't measure. */
    List<Workload.Query> measured(List<Workload.Query> six) {
        return o.smoke() ? six.stream().filter(q -> base(q).equals("customer")).toList() : six;
    }

    /** The workload's six queries saved again under another name (pg_customer, ...), SQL unchanged. */
    static List<Workload.Query> renamed(List<Workload.Query> six, String prefix, String what) {
        List<Workload.Query> out = new ArrayList<>();
        for (Workload.Query q : six) {
            out.add(new Workload.Query(prefix + q.name(), q.sql(), q.parameters(), q.description() + " (" + what + ")",
                    q.cacheTtl()));
        }
        return out;
    }

    /** The items in round-robin order: round r starts with the r-th (so no query is always measured first). */
    static <T> List<T> rotate(List<T> items, int round) {
        List<T> out = new ArrayList<>(items);
        if (!out.isEmpty()) {
            java.util.Collections.rotate(out, -((round - 1) % out.size()));
        }
        return out;
    }

    /** The base name of a renamed query (pg_customer: customer). */
    static String base(Workload.Query q) {
        for (String n : Workload.QUERY_NAMES) {
            if (q.name().endsWith(n)) {
                return n;
            }
        }
        return q.name();
    }

    // ---- PostgreSQL -------------------------------------------------------------------------------------------------

    /** The administrator's connection to the benchmark's PostgreSQL database (for its backends' CPU time). */
    Connection pgMonitor() throws SQLException {
        if (pgMonitor == null) {
            pgMonitor = pg.adminConnection();
        }
        return pgMonitor;
    }

    /**
     * Pins the PostgreSQL server (the postmaster and every process it has forked; backends forked later inherit it)
     * to the database's CPUs, as MariaDB is, unless the run leaves database servers alone (--smoke, --no-pin-db).
     */
    void pinPostgres() {
        if (!o.pinDb() || pgAffinityBefore != null) {
            return;
        }
        postmasterPid = pgData.postmasterPid();
        if (postmasterPid <= 0) {
            return;
        }
        pgAffinityBefore = Procs.affinity(postmasterPid);
        for (long pid : Procs.tree(postmasterPid)) {
            Procs.pin(pid, o.dbCpus());
        }
    }

    /** The PostgreSQL server's affinity as before (every online CPU when it was exactly ours: another run's pin). */
    private void restorePostgres() {
        if (pgAffinityBefore == null || pgAffinityBefore.isEmpty() || postmasterPid <= 0) {
            return;
        }
        String target = pgAffinityBefore.equals(o.dbCpus())
                ? "0-" + (Integer.parseInt(Processes.run(5, "nproc", "--all").out().trim()) - 1) : pgAffinityBefore;
        for (long pid : Procs.tree(postmasterPid)) {
            Procs.pin(pid, target);
        }
        pgAffinityBefore = null;
    }

    /** What results.jsonl's first line says about PostgreSQL and the network block. */
    void describe(ObjectNode env, List<Workload.Query> six) {
        if (o.blocks().contains("postgres") || o.blocks().contains("network")) {
            ObjectNode p = env.putObject("postgres");
            if (pgProblem != null) {
                p.put("problem", pgProblem);
            } else {
                try {
                    p.putPOJO("server", pgData.server());
                    p.put("database", pg.database());
                    p.put("reader_role", pg.readerUser());
                    p.putPOJO("tables", pgData.tableSizes());
                    p.put("pid", pgData.postmasterPid());
                } catch (SQLException e) {
                    p.put("problem", "describing PostgreSQL: " + e.getMessage());
                }
            }
            Map<String, Object> sql = new LinkedHashMap<>();
            boolean same = true;
            for (Workload.Query q : renamed(six, "pg_", "PostgreSQL")) {
                sql.put(q.name(), q.sql());
                same &= q.sql().equals(Workload.byName(six, base(q)).sql());
            }
            // the MariaDB SQL is env.queries; the PostgreSQL SQL is kept too, even while it is the same text
            p.putPOJO("queries", sql);
            p.put("sql_same_as_mariadb", same);
        }
        if (o.blocks().contains("network")) {
            ObjectNode n = env.putObject("network");
            n.put("delay_us_each_way", o.networkDelayUs());
            n.put("how", "the testkit's TcpProxy in the harness's JVM: every chunk is written delay after it arrived,"
                    + " per connection and per direction (no reordering, connections don't wait for each other)");
        }
    }

    // ---- cells ------------------------------------------------------------------------------------------------------

    /** Something counted around a measured period, e.g. round trips on a wire counter or PostgreSQL's CPU. */
    interface Probe {
        void start() throws Exception;

        /** Adds its fields to the cell or count line; calls is what was measured (requests, calls). */
        void finish(ObjectNode line, long calls) throws Exception;
    }

    /** CPU seconds of the PostgreSQL backends of the benchmark's database, as cpu_s.pg. */
    Probe pgCpu() {
        PgData.Cpu cpu = new PgData.Cpu();
        return new Probe() {
            @Override
            public void start() throws SQLException {
                cpu.start(pgMonitor(), pg.database());
            }

            @Override
            public void finish(ObjectNode line, long calls) throws SQLException {
                ((ObjectNode) line.get("cpu_s")).put("pg", Tpcc.round3(cpu.since(pgMonitor(), pg.database())));
            }
        };
    }

    /** Round trips on a PostgreSQL wire counter: per call, by kind and by what they carried. */
    static Probe wire(PgWireCounter w) {
        return new Probe() {
            private long trips;
            private Map<String, Long> kinds;
            private Map<String, Long> batches;
            private Map<String, Long> messages;

            @Override
            public void start() {
                trips = w.roundTrips();
                kinds = w.kinds();
                batches = w.batches();
                messages = w.messages();
            }

            @Override
            public void finish(ObjectNode line, long calls) {
                line.put("round_trips_per_call", Tpcc.round3((w.roundTrips() - trips) / (double) Math.max(1, calls)));
                line.putPOJO("round_trips_by_kind", PgWireCounter.minus(w.kinds(), kinds));
                line.putPOJO("round_trips_by_batch", PgWireCounter.minus(w.batches(), batches));
                line.putPOJO("client_messages", PgWireCounter.minus(w.messages(), messages));
            }
        };
    }

    /** Round trips (commands) on a MariaDB wire counter: per call and by kind. */
    static Probe wire(WireCounter w) {
        return new Probe() {
            private long commands;
            private Map<String, Long> kinds;

            @Override
            public void start() {
                commands = w.commands();
                kinds = w.kinds();
            }

            @Override
            public void finish(ObjectNode line, long calls) {
                line.put("round_trips_per_call", Tpcc.round3((w.commands() - commands) / (double) Math.max(1,
                        calls)));
                line.putPOJO("round_trips_by_kind", PgWireCounter.minus(w.kinds(), kinds));
            }
        };
    }

    ObjectNode cell(String block, int round, String config, String db, Workload.Query q, int callers) {
        ObjectNode c = Results.line("cell");
        c.put("block", block);
        c.put("round", round);
        c.put("config", config);
        c.put("db", db);
        c.put("query", base(q));
        c.put("saved_query", q.name());
        c.put("callers", callers);
        c.put("dist", "uniform");
        c.put("loadavg1", Procs.loadavg()[0]);
        return c;
    }

    /** The URL file of a saved query (uniform customers), written once. */
    Path urls(Workload.Query q) throws Exception {
        Path f = urlFiles.get(q.name());
        if (f == null) {
            f = Workload.writeUrlFile(work, q, "uniform", uniform);
            urlFiles.put(q.name(), f);
        }
        return f;
    }

    /** One wrk cell against a gateway (after the run's per-cell warm-up), with CPU, RSS and the probes around it. */
    ObjectNode wrkCell(String block, int round, Servers.Server g, String config, String db, Workload.Query q,
            int callers, int seconds, List<Probe> probes) throws Exception {
        Path urls = urls(q);
        if (o.warmup() > 0) {
            wrk.run(g.baseUrl(), urls, g.readerKey(), callers, o.warmup(), false);
        }
        settle(g);
        for (Probe p : probes) {
            p.start();
        }
        Memory.Probe mem = Memory.start(g);
        double g0 = g.cpuSeconds();
        double db0 = Procs.cpuSeconds(dbPid);
        double h0 = Procs.cpuSeconds(Procs.selfPid());
        long w0 = System.nanoTime();
        Wrk.Result r = wrk.run(g.baseUrl(), urls, g.readerKey(), callers, seconds, false);
        double window = (System.nanoTime() - w0) / 1e9;
        ObjectNode c = cell(block, round, config, db, q, callers);
        r.writeTo(c);
        ObjectNode cpu = c.putObject("cpu_s");
        cpu.put("gateway", Tpcc.round3(g.cpuSeconds() - g0));
        cpu.put("db", Tpcc.round3(Procs.cpuSeconds(dbPid) - db0));
        cpu.put("load", Tpcc.round3(r.cpuSeconds()));
        cpu.put("harness", Tpcc.round3(Procs.cpuSeconds(Procs.selfPid()) - h0));
        cpu.put("wall", Tpcc.round3(window));
        for (Probe p : probes) {
            p.finish(c, r.requests());
        }
        c.put("gateway_rss_mib", g.rssMiB());
        mem.finish(c, r.requests());
        results.write(c);
        progress(c);
        if (r.errors() > 0 || r.non2xx() > 0) {
            results.error(block, round, config, q.name(), new IllegalStateException(r.errors() + " socket errors, "
                    + r.non2xx() + " non-2xx answers"));
        }
        return c;
    }

    /**
     * Waits (at most 5 s) until the gateway has no request in flight: when wrk stops, the calls its connections had
     * sent still run in the gateway, and would otherwise be counted (round trips, CPU) in the next cell.
     */
    static void settle(Servers.Server g) throws Exception {
        if (g instanceof Servers.JavaGateway j) {
            long until = System.nanoTime() + 5_000_000_000L;
            while (j.activeRequests() > 0 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
        }
    }

    /**
     * One cell of the JDBC client (after the per-cell warm-up): threads closed-loop connections of d, for seconds.
     * The caller pins the harness to the gateway's CPU first ({@link #pinClient}), as the direct block does.
     */
    ObjectNode directCell(String block, int round, String config, String db, Direct d, Workload.Query q,
            int threads, int seconds, List<Probe> probes) throws Exception {
        if (o.warmup() > 0) {
            d.run(q, uniform, threads, o.warmup());
        }
        for (Probe p : probes) {
            p.start();
        }
        double db0 = Procs.cpuSeconds(dbPid);
        Direct.Result r = d.run(q, uniform, threads, seconds);
        ObjectNode c = cell(block, round, config, db, q, threads);
        r.writeTo(c);
        ObjectNode cpu = c.putObject("cpu_s");
        cpu.put("db", Tpcc.round3(Procs.cpuSeconds(dbPid) - db0));
        cpu.put("load", Tpcc.round3(r.cpuSeconds()));
        cpu.put("wall", Tpcc.round3(r.seconds()));
        for (Probe p : probes) {
            p.finish(c, r.calls());
        }
        results.write(c);
        progress(c);
        if (r.errors() > 0) {
            results.error(block, round, config, q.name(), new IllegalStateException(r.errors() + " failed calls"));
        }
        return c;
    }

    /** The harness's JVM on the gateway's CPU for the JDBC client's cells (and back with {@link #unpinClient}). */
    void pinClient() {
        Procs.pin(Procs.selfPid(), o.gatewayCpus());
    }

    void unpinClient() {
        Procs.pin(Procs.selfPid(), o.loadCpus());
    }

    static void progress(ObjectNode c) {
        System.err.printf("   %-8s %-10s %-8s %-14s x%-2d %10.1f/s  p50 %.3f ms%s%n", c.path("block").asText(),
                c.path("config").asText(), c.path("db").asText(), c.path("query").asText(), c.path("callers").asInt(),
                c.path("rps").asDouble(), c.path("p50_ms").asDouble(), c.has("round_trips_per_call")
                        ? "  round trips/call " + c.path("round_trips_per_call").asText() : "");
    }

    // ---- gateways ---------------------------------------------------------------------------------------------------

    /** A QueryAPIGate start with these connections, as block 2's: metadata cache 5s, virtual threads. */
    Servers.JavaGateway startGateway(String label, List<Servers.GatewayConnection> connections) throws Exception {
        return new Servers.JavaGateway(jar, work, new Servers.JavaOptions(label, "5s", true, null, null, o.poolSize(),
                o.gatewayCpus()), connections);
    }

    /** After a start: the server line, every query answers 200, then the warm-up over the queries given. */
    void checkAndWarm(String block, int round, Servers.JavaGateway g, List<Workload.Query> all,
            List<Workload.Query> warmWith) throws Exception {
        describe(block, round, g);
        sanity(g, all);
        warm(block, g, warmWith);
    }

    /** The server line of a start: its details (and for QueryAPIGate its collector). */
    void describe(String block, int round, Servers.Server g) {
        ObjectNode d = Results.line("server");
        d.put("block", block);
        d.put("round", round);
        d.put("config", g.label());
        d.put("pid", g.pid());
        d.putPOJO("details", g.describe());
        if (g instanceof Servers.JavaGateway j) {
            try {
                d.put("gc", j.gc());
            } catch (Exception e) {
                d.put("gc", "?");
            }
        }
        results.write(d);
    }

    /** Every saved query answers 200 with rows, before anything is measured. */
    void sanity(Servers.Server g, List<Workload.Query> qs) throws Exception {
        Workload.Call first = uniform.get(0);
        for (Workload.Query q : qs) {
            Http.Reply r = Http.get(g.baseUrl() + "/q/" + q.name() + "?" + first.query(q), g.readerKey());
            if (r.status() != 200) {
                throw new IllegalStateException(g.label() + ": /q/" + q.name() + " answered " + r.status() + ": "
                        + Http.abbreviate(r.body()));
            }
        }
    }

    /**
     * A QueryAPIGate start warmed until its throughput is stable ({@link Warmup}: the mixed workload of these
     * queries, at least --start-warmup seconds), written as a warmup line.
     */
    Warmup.Result warm(String block, Servers.Server g, List<Workload.Query> warmWith) throws Exception {
        Path mixed = Warmup.writeMixedUrlFile(work, g.label(), warmWith, uniform, Math.min(o.urls(), 20_000));
        Warmup.Result warm = Warmup.untilStable(wrk, g, mixed, Runner.CALLERS, o.startWarmup(), cost);
        ObjectNode w = warm.toJson(Results.line("warmup"), o.startWarmup(), cost);
        w.put("config", g.label());
        w.put("block", block);
        w.put("startup_s", ((Number) g.describe().getOrDefault("startup_seconds", -1)).doubleValue());
        results.write(w);
        System.err.printf("   warm-up  %-22s %.0f s, %s%n", g.label(), warm.seconds(), warm.stabilised() ? "stable"
                : "never stabilised within " + cost.startWarmupMax() + " s");
        return warm;
    }

    /** The gateway's counters, RSS and CPU at the end of the run, then its end. */
    void end(Servers.JavaGateway g) {
        serverEnd(results, g);
        g.close();
    }

    /** The server_end line of a QueryAPIGate start: its counters, RSS and CPU seconds. */
    static void serverEnd(Results results, Servers.JavaGateway g) {
        try {
            ObjectNode m = Results.line("server_end");
            m.put("config", g.label());
            m.set("counters", g.metrics().path("counters"));
            m.put("rss_mib", g.rssMiB());
            m.put("cpu_s", Tpcc.round3(g.cpuSeconds()));
            results.write(m);
        } catch (Exception e) {
            System.err.println("server_end " + g.label() + ": " + e);
        }
    }

    /** Writes that a block (or a part of one) was skipped, and why. */
    void skipped(String block, String reason) {
        ObjectNode sk = Results.line("skipped");
        sk.put("block", block);
        sk.put("reason", reason);
        results.write(sk);
        System.err.println("   " + block + ": skipped: " + reason);
    }

    /**
     * The most PostgreSQL connections the run holds at once (the gateways' pools for the whole run: the postgres
     * block's two, the network block's one; 32 direct ones for a few cells at a time; the monitor), against what
     * the server has free; refuses to start when fewer than 15 would stay free for everybody else.
     */
    void checkPgConnections(ObjectNode env) throws SQLException {
        boolean postgres = o.blocks().contains("postgres");
        boolean network = o.blocks().contains("network");
        if (pgProblem != null || !postgres && !network) {
            return;
        }
        int planned = (postgres ? o.poolSize() + 2 : 0) + (network ? o.poolSize() : 0) + Runner.CALLERS + 1;
        long max;
        long used;
        try (Statement st = pgMonitor().createStatement()) {
            try (ResultSet rs = st.executeQuery("SHOW max_connections")) {
                rs.next();
                max = Long.parseLong(rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pg_stat_activity WHERE backend_type ="
                    + " 'client backend'")) {
                rs.next();
                used = rs.getLong(1);
            }
        }
        ObjectNode p = env.has("postgres") ? (ObjectNode) env.get("postgres") : env.putObject("postgres");
        p.put("max_connections", max);
        p.put("connections_at_start", used);
        p.put("planned_peak_connections", planned);
        if (planned > max - used - 15) {
            throw new IllegalStateException("this run would hold up to " + planned + " PostgreSQL connections, and"
                    + " max_connections is " + max + " with " + used + " in use: leaving fewer than 15 for others."
                    + " Lower --pool-size or --blocks");
        }
    }

    @Override
    public void close() {
        restorePostgres();
        if (pgMonitor != null) {
            try {
                pgMonitor.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
