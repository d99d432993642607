package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.dialect.testkit.PythonOriginal;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/** Runs the blocks, round by round (every block once per round, so the rounds interleave). */
final class Runner {
    static final List<String> BLOCKS = List.of("direct", "gateway", "counts", "threads", "skew", "network", "python",
            "postgres", "warmup");
    static final int CALLERS = 32;

    /** Everything a run is told on its command line. */
    record Options(int rounds, int duration, int singleDuration, int warmup, int startWarmup, Set<String> blocks,
            boolean smoke, boolean withPython, Path out, Path jar, Path venv, String gatewayCpus, String loadCpus,
            String dbCpus, boolean pinDb, int countCalls, int urls, int poolSize, List<Integer> threadPools,
            String commandLine, Path repo, int networkDelayUs) {}

    private final BenchSettings s;
    private final PgSettings pg;
    private final Options o;
    private final CostOptions cost;
    private final Results results;
    private final Path work;
    private final List<Workload.Query> queries;
    private int warehouses;
    private Wrk wrk;
    private Path jar;
    private long dbPid = -1;
    private String dbAffinityBefore;
    private final Map<String, Path> urlFiles = new LinkedHashMap<>();
    private final Map<String, List<Workload.Call>> draws = new LinkedHashMap<>();
    private Boolean responseCache;           // null: not checked yet
    private String pythonProblem;            // why the Python original is not measured, or null
    private Connection monitor;
    /** Gateways stay up for the whole run once started and warmed (idle while another one is measured). */
    private final Map<String, Servers.Server> live = new LinkedHashMap<>();
    /** The blocks kept in classes of their own, and what they share with this class. */
    private BlockKit kit;
    private PostgresBlock postgres;
    private NetworkBlock network;

    Runner(BenchSettings s, PgSettings pg, Options o, CostOptions cost, Results results) throws IOException {
        this.s = s;
        this.pg = pg;
        this.o = o;
        this.cost = cost;
        this.results = results;
        this.work = Files.createTempDirectory("qagb-run-");
        this.queries = Workload.queries(s.prefix(), 1000);
    }

    List<Workload.Query> six() {
        return queries.stream().filter(q -> Workload.QUERY_NAMES.contains(q.name())).toList();
    }

    /** Runs everything; returns the number of failures recorded. */
    int run() throws Exception {
        long t0 = System.nanoTime();
        // a SIGTERM or Ctrl-C still stops the gateways and gives mariadbd its CPUs back
        Thread hook = new Thread(() -> {
            for (Servers.Server g : List.copyOf(live.values())) {
                g.close();
            }
            closeBlocks();
            restoreDb();
        }, "bench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            prepare();
            for (int r = 1; r <= o.rounds(); r++) {
                System.err.printf("== round %d of %d (%.0f s in)%n", r, o.rounds(), (System.nanoTime() - t0) / 1e9);
                if (o.blocks().contains("direct")) {
                    block("direct", r, this::direct);
                }
                if (o.blocks().contains("gateway") || o.blocks().contains("skew") || o.blocks().contains("counts")
                        || o.blocks().contains("threads")) {
                    block("gateway", r, this::mainGateway);
                }
                if (o.blocks().contains("counts") && r == 1) {
                    block("counts", r, this::countsWithoutCache);
                }
                if (o.blocks().contains("threads")) {
                    block("threads", r, this::threads);
                }
                if (o.blocks().contains("skew")) {
                    block("skew", r, this::skewCached);
                }
                if (o.blocks().contains("postgres")) {
                    block("postgres", r, postgres::run);
                }
                if (o.blocks().contains("network")) {
                    block("network", r, network::run);
                }
                if (o.blocks().contains("python")) {
                    block("python", r, this::python);
                }
                if (o.blocks().contains("warmup")) {
                    block("warmup", r, this::warmupBlock);
                }
            }
            if (o.blocks().contains("gateway") && cost.profileSeconds() > 0) {
                block("profile", o.rounds(), this::profile);
            }
        } finally {
            for (Servers.Server g : live.values()) {
                if (g instanceof Servers.JavaGateway j) {
                    BlockKit.serverEnd(results, j);
                }
                g.close();
            }
            closeBlocks();
            restoreDb();
            ObjectNode end = Results.line("end");
            end.put("seconds", Tpcc.round3((System.nanoTime() - t0) / 1e9));
            end.put("errors", results.errors());
            double[] la = Procs.loadavg();
            end.putPOJO("loadavg", la);
            results.write(end);
            if (monitor != null) {
                monitor.close();
            }
            deleteTree(work);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // shutting down already: the hook runs
            }
        }
        return results.errors();
    }

    private void closeBlocks() {
        for (AutoCloseable c : new AutoCloseable[] {postgres, network, kit}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                System.err.println("closing " + c + ": " + e);
            }
        }
    }

    interface BlockBody {
        void run(int round) throws Exception;
    }

    private void block(String name, int round, BlockBody body) {
        ObjectNode b = Results.line("block");
        b.put("block", name);
        b.put("round", round);
        b.putPOJO("loadavg", Procs.loadavg());
        results.write(b);
        System.err.printf("-- %s (round %d), load average %s%n", name, round,
                java.util.Arrays.toString(Procs.loadavg()));
        try {
            body.run(round);
        } catch (Exception e) {
            results.error(name, round, "-", null, e);
        }
    }

    // ---- preparation -----------------------------------------------------------------------------------------------

    private void prepare() throws Exception {
        monitor = s.adminConnection();
        warehouses = countWarehouses();
        if (warehouses == 0) {
            throw new IllegalStateException("no data: run `setup` first");
        }
        wrk = new Wrk(work, o.loadCpus());
        String wrkVersion = Wrk.ensureInstalled();
        Procs.pin(Procs.selfPid(), o.loadCpus());
        // the gateway's jar is copied, so a rebuild by someone else mid-run cannot change what is measured
        jar = work.resolve("queryapigate.jar");
        Files.copy(o.jar(), jar);
        for (String dist : List.of("uniform", "zipf")) {
            draws.put(dist, Workload.draws(warehouses, dist, o.urls(), Tpcc.SEED));
        }
        for (Workload.Query q : queries) {
            urlFiles.put(q.name() + "/uniform", Workload.writeUrlFile(work, q, "uniform", draws.get("uniform")));
        }
        for (String name : List.of("order_status", Workload.cached("zipf"))) {
            urlFiles.put(name + "/zipf", Workload.writeUrlFile(work, Workload.byName(queries, name), "zipf",
                    draws.get("zipf")));
        }
        dbPid = Procs.findByComm("mariadbd");
        if (dbPid < 0) {
            dbPid = Procs.findByComm("mysqld");
        }
        if (dbPid > 0 && o.pinDb()) {
            dbAffinityBefore = Procs.affinity(dbPid);
            Procs.pin(dbPid, o.dbCpus());
        }
        if (o.blocks().contains("python")) {
            if (o.smoke() && !o.withPython()) {
                pythonProblem = "skipped in --smoke (add --with-python to include it)";
            } else {
                pythonProblem = PythonOriginal.ensure(o.venv());
            }
        }
        kit = new BlockKit(s, pg, o, cost, results, work, jar, wrk, draws.get("uniform"), dbPid, warehouses);
        postgres = new PostgresBlock(kit, six());
        network = new NetworkBlock(kit, six());
        ObjectNode env = environment(wrkVersion);
        kit.describe(env, six());
        trainAotCache();
        checkConnections(env);
        kit.checkPgConnections(env);
        results.write(env);
        estimate();
    }

    /**
     * As scripts/run.sh's first start does: a gateway that records the JDK AOT cache while it is warmed, written as
     * it exits; every start measured afterwards uses the cache, as every later start of run.sh does.
     */
    private void trainAotCache() throws Exception {
        Path cache = GatewayJvm.aotCache();
        if (cache == null || Files.isRegularFile(cache)) {
            return;
        }
        long t0 = System.nanoTime();
        System.err.println("== recording the gateway's AOT cache (a start warmed as block 2's, then stopped)");
        Servers.JavaGateway g = startJava("aot-training", "5s", true, null, null);
        try {
            kit.sanity(g, six());
            kit.warm("aot-training", g, six());
        } finally {
            g.closeWaiting(180);
        }
        ObjectNode line = Results.line("aot_cache");
        line.put("path", cache.toString());
        line.put("bytes", Files.isRegularFile(cache) ? Files.size(cache) : -1);
        line.put("seconds", Tpcc.round3((System.nanoTime() - t0) / 1e9));
        results.write(line);
        if (!Files.isRegularFile(cache)) {
            System.err.println("   no AOT cache was written (see " + g.dir().resolve("gateway.log")
                    + "); the gateways start without one");
            GatewayJvm.aotCache(null);
        }
    }

    private int countWarehouses() {
        try (Statement st = monitor.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + s.prefix() + "org.warehouse")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            return 0;
        }
    }

    /**
     * Puts mariadbd's affinity back. When it was already exactly our CPUs before (another run of this harness had
     * pinned it and may finish first), it gets every online CPU instead, so the shared server is never left pinned.
     */
    private void restoreDb() {
        if (dbPid > 0 && dbAffinityBefore != null && !dbAffinityBefore.isEmpty()) {
            String target = dbAffinityBefore.equals(o.dbCpus())
                    ? "0-" + (Integer.parseInt(Processes.run(5, "nproc", "--all").out().trim()) - 1) : dbAffinityBefore;
            Procs.pin(dbPid, target);
        }
    }

    private void estimate() {
        int cells = 0;
        int javaStarts = 1;
        if (o.blocks().contains("direct")) {
            cells += 12;
        }
        cells += 14;   // gateway: 6 x 32 callers, 6 single callers, 2 skew without the cache
        if (o.blocks().contains("threads")) {
            cells += 2 * o.threadPools().size();
            javaStarts += o.threadPools().size();
        }
        if (o.blocks().contains("counts")) {
            javaStarts += 1;
        }
        if (o.blocks().contains("postgres")) {
            cells += o.smoke() ? 4 : 24;   // 6 queries (customer in --smoke) x (direct 1, 32; gateway 1, 32)
            javaStarts += 1;
        }
        if (o.blocks().contains("network")) {
            cells += o.smoke() ? 4 : 48;   // the same for MariaDB and PostgreSQL across the delayed link
            javaStarts += 1;
        }
        boolean py = o.blocks().contains("python") && pythonProblem == null;
        if (py) {
            cells += 14;
        }
        double once = javaStarts * (10 + o.startWarmup()) + (py ? 3 * 6 : 0);
        double per = cells * (o.duration() + o.warmup());
        if (o.blocks().contains("warmup")) {
            per += 10 + cost.warmupBlockSeconds();    // a fresh gateway each round
        }
        if (o.blocks().contains("gateway") && cost.profileSeconds() > 0) {
            once += 2 * (cost.profileSeconds() + 3);   // the two profiles after the last round
        }
        System.err.printf("plan: %d Java gateway starts (once each) ~ %.1f min, then %d rounds x %d cells ~ %.1f min%n",
                javaStarts, once / 60, o.rounds(), cells, per * o.rounds() / 60.0);
    }

    private ObjectNode environment(String wrkVersion) throws Exception {
        ObjectNode e = Results.line("env");
        e.put("command", o.commandLine());
        e.put("clock_start", Instant.now().toString());
        e.put("timezone", ZoneId.systemDefault().getId());
        e.put("clocksource", read("/sys/devices/system/clocksource/clocksource0/current_clocksource"));
        e.put("hostname", InetAddress.getLocalHost().getHostName());
        e.put("nproc", Runtime.getRuntime().availableProcessors() + " (this JVM, after pinning), "
                + Processes.run(5, "nproc", "--all").out().trim() + " online");
        e.put("cpu_model", cpuModel());
        e.put("memory", memTotal());
        e.put("kernel", Processes.run(5, "uname", "-srm").out().trim());
        e.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.home") + ")");
        e.put("mariadb", scalar("SELECT CONCAT(VERSION(), ' ', @@version_comment)"));
        e.put("mariadb_buffer_pool_mib", Long.parseLong(scalar("SELECT @@innodb_buffer_pool_size")) / 1048576);
        e.put("mariadb_pid", dbPid);
        e.put("mariadb_affinity_before", dbAffinityBefore);
        e.put("wrk", wrkVersion);
        e.put("connector_j", com.mysql.cj.Constants.CJ_VERSION);
        e.put("git_commit", Processes.run(10, "git", "-C", o.repo().toString(), "rev-parse", "HEAD").out().trim());
        e.put("git_uncommitted_paths", Processes.run(10, "git", "-C", o.repo().toString(), "status", "--porcelain")
                .out().lines().count());
        e.put("gateway_jar", o.jar().toString());
        e.put("gateway_jar_mtime", Files.getLastModifiedTime(o.jar()).toInstant().toString());
        e.put("gateway_jar_sha256", sha256(jar));
        e.put("warehouses", warehouses);
        e.put("customers", Workload.population(warehouses));
        e.putPOJO("loadavg", Procs.loadavg());
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("gateway (QueryAPIGate or the Python original)", o.gatewayCpus());
        placement.put("load generator (wrk; the bench JVM)", o.loadCpus());
        placement.put("mariadbd", o.pinDb() ? o.dbCpus() + " (taskset -a; restored to " + dbAffinityBefore
                + " after the run)" : "not pinned");
        placement.put("direct JDBC client (block 1)", o.gatewayCpus() + " (the bench JVM, re-pinned for block 1)");
        e.putPOJO("placement", placement);
        Map<String, Object> opts = new LinkedHashMap<>();
        opts.put("rounds", o.rounds());
        opts.put("duration_s", o.duration());
        opts.put("single_duration_s", o.singleDuration());
        opts.put("warmup_s", o.warmup());
        opts.put("start_warmup_s", o.startWarmup());
        opts.put("start_warmup_max_s", cost.startWarmupMax());
        opts.put("stable_window_s", cost.windowSeconds());
        opts.put("stable_windows", cost.stableWindows());
        opts.put("stable_tolerance", cost.tolerance());
        opts.put("warmup_block_s", cost.warmupBlockSeconds());
        opts.put("profile_s", cost.profileSeconds());
        opts.put("gateway_jvm_opts", GatewayJvm.extra());
        opts.put("callers", CALLERS);
        opts.put("pool_size", o.poolSize());
        opts.put("count_calls", o.countCalls());
        opts.put("urls_per_file", o.urls());
        opts.put("blocks", o.blocks());
        opts.put("smoke", o.smoke());
        opts.put("thread_pools", o.threadPools());
        e.putPOJO("options", opts);
        e.putPOJO("gateway_jvm_options", GatewayJvm.options());
        if (o.blocks().contains("python")) {
            e.put("python", pythonProblem == null ? PythonOriginal.versions(o.venv()) : pythonProblem);
        }
        Map<String, Object> sql = new LinkedHashMap<>();
        for (Workload.Query q : queries) {
            sql.put(q.name(), q.sql());
        }
        e.putPOJO("queries", sql);
        e.putPOJO("tables", new Tpcc(s).tableSizes());
        e.put("other_connections_at_start", scalar("SELECT COUNT(*) FROM information_schema.processlist"
                + " WHERE user <> '" + s.readerUser() + "' AND id <> CONNECTION_ID()"));
        return e;
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst().map(l -> l.split(":", 2)[1].trim())
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String memTotal() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith("MemTotal")).findFirst()
                    .map(l -> Math.round(Long.parseLong(l.replaceAll("\\D", "")) / 1048576.0 * 10) / 10.0 + " GiB")
                    .orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String sha256(Path f) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(f)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private String scalar(String sql) throws SQLException {
        try (Statement st = monitor.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** MariaDB's global statement counters (each read adds 1 to Questions, itself). */
    Map<String, Long> dbStatus() throws SQLException {
        Map<String, Long> m = new LinkedHashMap<>();
        try (Statement st = monitor.createStatement(); ResultSet rs = st.executeQuery("SHOW GLOBAL STATUS WHERE"
                + " Variable_name IN ('Questions', 'Com_select', 'Com_rollback', 'Com_commit', 'Com_set_option',"
                + " 'Com_admin_commands', 'Com_stmt_execute', 'Com_stmt_prepare', 'Connections', 'Queries')")) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    static Map<String, Long> delta(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> d = new LinkedHashMap<>();
        b.forEach((k, v) -> d.put(k, v - a.getOrDefault(k, 0L)));
        return d;
    }

    // ---- block 1: MariaDB directly -------------------------------------------------------------------------------

    private void direct(int round) throws Exception {
        Procs.pin(Procs.selfPid(), o.gatewayCpus());
        try (Direct d = new Direct(s, CALLERS)) {
            for (Workload.Query q : BlockKit.rotate(six(), round)) {
                for (int threads : List.of(1, CALLERS)) {
                    try {
                        int secs = threads == 1 ? o.singleDuration() : o.duration();
                        if (o.warmup() > 0) {
                            d.run(q, draws.get("uniform"), threads, o.warmup());
                        }
                        double db0 = Procs.cpuSeconds(dbPid);
                        Map<String, Long> st0 = dbStatus();
                        Direct.Result r = d.run(q, draws.get("uniform"), threads, secs);
                        Map<String, Long> st = delta(st0, dbStatus());
                        ObjectNode c = cell("direct", round, "jdbc", q.name(), threads);
                        r.writeTo(c);
                        cpu(c, null, Procs.cpuSeconds(dbPid) - db0, r.cpuSeconds(), r.seconds());
                        c.put("questions_per_call", Tpcc.round3((st.get("Questions") - 1.0) / r.calls()));
                        results.write(c);
                        if (r.errors() > 0) {
                            results.error("direct", round, "jdbc", q.name(),
                                    new IllegalStateException(r.errors() + " failed calls"));
                        }
                        progress(c);
                    } catch (Exception e) {
                        results.error("direct", round, "jdbc", q.name(), e);
                    }
                }
            }
        } finally {
            Procs.pin(Procs.selfPid(), o.loadCpus());
        }
    }

    private ObjectNode cell(String block, int round, String config, String query, int callers) {
        ObjectNode c = Results.line("cell");
        c.put("block", block);
        c.put("round", round);
        c.put("config", config);
        c.put("query", query);
        c.put("callers", callers);
        c.put("loadavg1", Procs.loadavg()[0]);
        return c;
    }

    private void cpu(ObjectNode c, Double gateway, double db, double load, double seconds) {
        ObjectNode cpu = c.putObject("cpu_s");
        if (gateway != null) {
            cpu.put("gateway", Tpcc.round3(gateway));
        }
        cpu.put("db", Tpcc.round3(db));
        cpu.put("load", Tpcc.round3(load));
        cpu.put("wall", Tpcc.round3(seconds));
    }

    private static void progress(ObjectNode c) {
        System.err.printf("   %-8s %-22s %-20s x%-2d %10.1f/s  p50 %.3f ms%n", c.path("block").asText(),
                c.path("config").asText(), c.path("query").asText() + (c.has("dist") ? "/" + c.path("dist").asText()
                        : ""), c.path("callers").asInt(), c.path("rps").asDouble(), c.path("p50_ms").asDouble());
    }

    // ---- through a gateway ------------------------------------------------------------------------------------------

    private Servers.JavaGateway startJava(String label, String ttl, boolean virtual, Integer threads, String url)
            throws Exception {
        return new Servers.JavaGateway(jar, work, new Servers.JavaOptions(label, ttl, virtual, threads,
                url == null ? s.readerUrl() : url, poolFor(threads), o.gatewayCpus()), s, queries);
    }

    /**
     * The dialect keeps its whole pool open (HikariCP minimumIdle = poolSize), and the gateways stay up for the run,
     * on a MariaDB other people use too: a platform pool of N threads never runs more than N + 1 calls at once, so
     * it gets at most N + 2 connections.
     */
    private int poolFor(Integer threads) {
        return threads == null ? o.poolSize() : Math.min(o.poolSize(), threads + 2);
    }

    /** The most MariaDB connections this run holds at once (the direct block's 32 with every gateway up). */
    private int plannedConnections() {
        int java = o.poolSize() + 2;   // main, plus the monitor and a spare
        if (o.blocks().contains("threads")) {
            for (int n : o.threadPools()) {
                java += poolFor(n);
            }
        }
        if (o.blocks().contains("network")) {
            java += o.poolSize();   // its gateway's pool (its 32 direct connections come at the direct block's peak)
        }
        int peak = java + (o.blocks().contains("counts") ? o.poolSize() + 1 : 0);
        if (o.blocks().contains("direct") || o.blocks().contains("network")) {
            peak = Math.max(peak, java + CALLERS);
        }
        if (o.blocks().contains("python") && pythonProblem == null) {
            peak = Math.max(peak, java + 8 + 2 + 1);
        }
        if (o.blocks().contains("warmup")) {
            peak = Math.max(peak, java + o.poolSize());
        }
        return peak;
    }

    /** Refuses to start when the run would take more than what MariaDB has free, less 40 for everybody else. */
    private void checkConnections(ObjectNode env) throws SQLException {
        long max = Long.parseLong(scalar("SELECT @@max_connections"));
        long used = Long.parseLong(scalar("SELECT COUNT(*) FROM information_schema.processlist"));
        int planned = plannedConnections();
        env.put("mariadb_max_connections", max);
        env.put("mariadb_connections_at_start", used);
        env.put("planned_peak_connections", planned);
        if (planned > max - used - 40) {
            throw new IllegalStateException("this run would hold up to " + planned + " MariaDB connections, and"
                    + " max_connections is " + max + " with " + used + " in use: leaving fewer than 40 for others."
                    + " Lower --pool-size, --thread-pools or --blocks");
        }
    }

    interface Starter {
        Servers.Server start() throws Exception;
    }

    /** The gateway of this label: started, checked and warmed the first time, then reused round after round. */
    private Servers.Server server(String block, int round, String label, List<Workload.Query> warmWith,
            Starter starter) throws Exception {
        Servers.Server g = live.get(label);
        if (g != null) {
            return g;
        }
        g = starter.start();
        live.put(label, g);
        kit.describe(block, round, g);
        kit.sanity(g, warmWith);
        kit.warm(block, g, warmWith);
        return g;
    }

    /** JIT and pool warm-up after a start: start-warmup seconds spread over the queries. */
    private void startWarmup(Servers.Server g, List<Workload.Query> qs) throws Exception {
        // the JVM needs its JIT warm-up; the Python original only its pools and caches: 3 s at most
        int total = g instanceof Servers.PythonGateway ? Math.min(3, o.startWarmup()) : o.startWarmup();
        if (total <= 0) {
            return;
        }
        int each = Math.max(1, total / qs.size());
        for (Workload.Query q : qs) {
            wrk.run(g.baseUrl(), urlFiles.get(q.name() + "/uniform"), g.readerKey(), CALLERS, each, false);
        }
    }

    /** One measured wrk run against a gateway, with CPU, RSS and MariaDB counters around it. */
    private ObjectNode measure(String block, int round, Servers.Server g, String query, String dist, int callers,
            int seconds, boolean warm, boolean count, ActiveSampler sampler) throws Exception {
        Path urls = urlFiles.get(query + "/" + dist);
        if (warm && o.warmup() > 0) {
            wrk.run(g.baseUrl(), urls, g.readerKey(), callers, o.warmup(), count);
        }
        Map<String, Long> st0 = dbStatus();
        Memory.Probe mem = Memory.start(g);
        double g0 = g.cpuSeconds();
        double db0 = Procs.cpuSeconds(dbPid);
        long w0 = System.nanoTime();
        if (sampler != null) {
            sampler.start();
        }
        Wrk.Result r = wrk.run(g.baseUrl(), urls, g.readerKey(), callers, seconds, count);
        long maxActive = sampler == null ? -1 : sampler.stop();
        double gcpu = g.cpuSeconds() - g0;
        double dbcpu = Procs.cpuSeconds(dbPid) - db0;
        double window = (System.nanoTime() - w0) / 1e9;
        Map<String, Long> st = delta(st0, dbStatus());
        ObjectNode c = cell(block, round, g.label(), query, callers);
        c.put("dist", dist);
        r.writeTo(c);
        if (count) {
            c.put("cache_hits", r.cacheHits());
            c.put("cache_misses", r.cacheMisses());
        }
        if (maxActive >= 0) {
            c.put("max_active_requests", maxActive);
        }
        // CPU over the whole window (wrk's start and exit included: the gateway idles then); cores = CPU / window
        cpu(c, gcpu, dbcpu, r.cpuSeconds(), window);
        c.put("gateway_rss_mib", g.rssMiB());
        mem.finish(c, r.requests());
        c.put("questions_per_call", Tpcc.round3((st.get("Questions") - 1.0) / Math.max(1, r.requests())));
        c.putPOJO("db_status_delta", st);
        results.write(c);
        progress(c);
        if (r.errors() > 0 || r.non2xx() > 0) {
            results.error(block, round, g.label(), query, new IllegalStateException(r.errors() + " socket errors, "
                    + r.non2xx() + " non-2xx answers"));
        }
        return c;
    }

    private void mainGateway(int round) throws Exception {
        {
            Servers.Server g = server("gateway", round, "main", six(), () -> startJava("main", "5s", true, null, null));
            if (o.blocks().contains("gateway") || o.blocks().contains("threads")) {
                List<Workload.Query> qs = o.blocks().contains("gateway") ? six()
                        : List.of(Workload.byName(queries, "customer"), Workload.byName(queries, "stock_level"));
                for (Workload.Query q : BlockKit.rotate(qs, round)) {
                    try {
                        measure("gateway", round, g, q.name(), "uniform", CALLERS, o.duration(), true, false, null);
                        if (o.blocks().contains("gateway")) {
                            measure("gateway", round, g, q.name(), "uniform", 1, o.singleDuration(), true, false,
                                    null);
                        }
                    } catch (Exception e) {
                        results.error("gateway", round, g.label(), q.name(), e);
                    }
                }
            }
            if (o.blocks().contains("skew")) {
                for (String dist : BlockKit.rotate(List.of("uniform", "zipf"), round)) {
                    try {
                        measure("skew", round, g, "order_status", dist, CALLERS, o.duration(), true, true, null);
                    } catch (Exception e) {
                        results.error("skew", round, g.label(), "order_status/" + dist, e);
                    }
                }
            }
            if (o.blocks().contains("counts") && round == 1) {
                counts((Servers.JavaGateway) g, "5s", null);
            }
        }
    }

    // ---- the warmup block, and the profiles (per-call cost) -------------------------------------------------------

    /** A fresh gateway each round, loaded with customer from its first request on (WarmupBlock). */
    private void warmupBlock(int round) throws Exception {
        Workload.Query q = Workload.byName(queries, "customer");
        new WarmupBlock(results, wrk).run(round, () -> new Servers.JavaGateway(jar, work, new Servers.JavaOptions(
                "warmup", "5s", true, null, s.readerUrl(), o.poolSize(), o.gatewayCpus()), s, List.of(q)),
                urlFiles.get("customer/uniform"), CALLERS, cost.warmupBlockSeconds());
    }

    /** async-profiler on block 2's gateway after the last round, customer at 32 callers: CPU, then allocations. */
    private void profile(int round) throws Exception {
        if (!(live.get("main") instanceof Servers.JavaGateway g)) {
            return;
        }
        Path urls = urlFiles.get("customer/uniform");
        Profiler p = new Profiler(work, o.out());
        for (String kind : List.of("cpu", "alloc")) {
            ObjectNode n = p.profile(g, "customer", kind, secs -> wrk.run(g.baseUrl(), urls, g.readerKey(), CALLERS,
                    secs, false), cost.profileSeconds());
            n.put("round", round);
            results.write(n);
            System.err.printf("   profile  %-22s %-6s %s: %s%n", g.label(), kind, n.path("engine").asText(),
                    n.path("buckets"));
        }
    }

    // ---- block 4: round trips, statements and store reads per call ---------------------------------------------

    private void countsWithoutCache(int round) throws Exception {
        try (WireCounter wire = new WireCounter(s.host(), s.port());
                Servers.JavaGateway g = startJava("ttl0-wire", "0s", true, null, s.readerUrlVia(wire.port()))) {
            kit.describe("counts", round, g);
            kit.sanity(g, six());
            counts(g, "0s", wire);   // counting, not timing: no JIT warm-up needed
        }
        // MariaDB directly, through the same wire counter: the floor (1 statement per call)
        try (WireCounter wire = new WireCounter(s.host(), s.port())) {
            BenchSettings via = new BenchSettings(s.host(), wire.port(), s.adminUser(), s.adminPassword(),
                    s.prefix(), s.readerUser(), s.readerPassword(), s.loadThreads());
            try (Direct d = new Direct(via, 1)) {
                for (Workload.Query q : six()) {
                    d.calls(q, draws.get("uniform"), 20);
                    long w0 = wire.commands();
                    Map<String, Long> st0 = dbStatus();
                    d.calls(q, draws.get("uniform"), o.countCalls());
                    Map<String, Long> st = delta(st0, dbStatus());
                    ObjectNode c = Results.line("count");
                    c.put("block", "counts");
                    c.put("config", "jdbc");
                    c.put("query", q.name());
                    c.put("calls", o.countCalls());
                    c.put("wire_commands_per_call", Tpcc.round3((wire.commands() - w0) / (double) o.countCalls()));
                    perCall(c, st, o.countCalls());
                    results.write(c);
                }
            }
        }
    }

    /** countCalls sequential calls per query: MariaDB counters, store reads, and (with a proxy) the wire. */
    private void counts(Servers.JavaGateway g, String ttl, WireCounter wire) throws Exception {
        for (Workload.Query q : six()) {
            List<Workload.Call> calls = draws.get("uniform");
            // settle: a few calls first, so a pool's first connections are not counted
            for (int i = 0; i < 20; i++) {
                Http.get(g.baseUrl() + "/q/" + q.name() + "?" + calls.get(i).query(q), g.readerKey());
            }
            Thread.sleep(200);
            long reads0 = g.storeReads();
            long w0 = wire == null ? 0 : wire.commands();
            Map<String, Long> kinds0 = wire == null ? Map.of() : wire.kinds();
            Map<String, Long> st0 = dbStatus();
            int bad = 0;
            for (int i = 0; i < o.countCalls(); i++) {
                Http.Reply r = Http.get(g.baseUrl() + "/q/" + q.name() + "?" + calls.get(100 + i).query(q),
                        g.readerKey());
                if (r.status() != 200) {
                    bad++;
                }
            }
            Map<String, Long> st = delta(st0, dbStatus());
            long reads = g.storeReads() - reads0;
            ObjectNode c = Results.line("count");
            c.put("block", "counts");
            c.put("config", g.label());
            c.put("metadata_cache_ttl", ttl);
            c.put("query", q.name());
            c.put("calls", o.countCalls());
            c.put("non_200", bad);
            c.put("store_reads_per_call", reads < 0 ? -1 : Tpcc.round3(reads / (double) o.countCalls()));
            if (wire != null) {
                c.put("wire_commands_per_call", Tpcc.round3((wire.commands() - w0) / (double) o.countCalls()));
                Map<String, Long> kinds = new LinkedHashMap<>();
                Map<String, Long> before = kinds0;
                wire.kinds().forEach((k, v) -> {
                    long d = v - before.getOrDefault(k, 0L);
                    if (d > 0) {
                        kinds.put(k, d);
                    }
                });
                c.putPOJO("wire_commands", kinds);
            }
            perCall(c, st, o.countCalls());
            results.write(c);
            System.err.printf("   counts   %-22s %-14s statements/call %.3f  store reads/call %s%s%n", g.label(),
                    q.name(), c.path("questions_per_call").asDouble(), c.path("store_reads_per_call").asText(),
                    wire == null ? "" : "  wire commands/call " + c.path("wire_commands_per_call").asText());
            if (bad > 0) {
                results.error("counts", 1, g.label(), q.name(), new IllegalStateException(bad + " non-200 answers"));
            }
        }
    }

    private void perCall(ObjectNode c, Map<String, Long> st, int calls) {
        // the second SHOW GLOBAL STATUS counts itself once in Questions
        c.put("questions_per_call", Tpcc.round3((st.get("Questions") - 1.0) / calls));
        ObjectNode per = c.putObject("com_per_call");
        st.forEach((k, v) -> {
            if (k.startsWith("Com_")) {
                per.put(k, Tpcc.round3(v / (double) calls));
            }
        });
        c.putPOJO("db_status_delta", st);
        c.put("other_connections", otherConnections());
    }

    private long otherConnections() {
        try {
            return Long.parseLong(scalar("SELECT COUNT(*) FROM information_schema.processlist WHERE user NOT IN ('"
                    + s.readerUser() + "') AND id <> CONNECTION_ID() AND command <> 'Sleep'"));
        } catch (Exception e) {
            return -1;
        }
    }

    // ---- block 5: server threads -------------------------------------------------------------------------------------

    /** Polls the gateway's active-requests counter (10 a second) and keeps the highest value. */
    static final class ActiveSampler {
        private final Servers.JavaGateway g;
        private final AtomicLong max = new AtomicLong();
        private volatile boolean running;
        private Thread t;

        ActiveSampler(Servers.JavaGateway g) {
            this.g = g;
        }

        void start() {
            running = true;
            max.set(0);
            t = new Thread(() -> {
                while (running) {
                    try {
                        max.accumulateAndGet(g.activeRequests(), Math::max);
                        Thread.sleep(100);
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "active-sampler");
            t.setDaemon(true);
            t.start();
        }

        long stop() throws InterruptedException {
            running = false;
            t.join();
            return max.get();
        }
    }

    private void threads(int round) throws Exception {
        for (int n : BlockKit.rotate(o.threadPools(), round)) {
            String label = "platform-" + n;
            List<Workload.Query> qs =
                    List.of(Workload.byName(queries, "customer"), Workload.byName(queries, "stock_level"));
            try {
                Servers.JavaGateway g = (Servers.JavaGateway) server("threads", round, label, qs,
                        () -> startJava(label, "5s", false, n, null));
                for (Workload.Query q : BlockKit.rotate(qs, round)) {
                    try {
                        measure("threads", round, g, q.name(), "uniform", CALLERS, o.duration(), true, false,
                                new ActiveSampler(g));
                    } catch (Exception e) {
                        results.error("threads", round, label, q.name(), e);
                    }
                }
            } catch (Exception e) {
                results.error("threads", round, label, null, e);
            }
        }
    }

    // ---- block 6: skew and the response cache ----------------------------------------------------------------------

    private void skewCached(int round) throws Exception {
        Servers.Server g = server("gateway", round, "main", six(), () -> startJava("main", "5s", true, null, null));
        if (responseCache == null) {
            responseCache = detectResponseCache(g);
            ObjectNode n = Results.line("note");
            n.put("block", "skew");
            n.put("response_cache", responseCache);
            if (!responseCache) {
                n.put("message", "response cache not available in this build: a saved query with cache_ttl 30"
                        + " answered twice with the same parameters without an X-Cache header");
                ObjectNode sk = Results.line("skipped");
                sk.put("block", "skew-cached");
                sk.put("reason", "response cache not available in this build");
                results.write(n);
                results.write(sk);
                System.err.println("   skew: response cache not available in this build");
                return;
            }
            results.write(n);
        }
        if (!responseCache) {
            return;
        }
        // on block 2's warm gateway, one cached query per distribution: nothing else calls them, and the rounds are
        // minutes apart, so every entry the last round left (30 s) has expired: each cell starts with an empty cache
        for (String dist : BlockKit.rotate(List.of("uniform", "zipf"), round)) {
            try {
                measure("skew", round, g, Workload.cached(dist), dist, CALLERS, o.duration(), false, true, null);
            } catch (Exception e) {
                results.error("skew", round, g.label(), Workload.cached(dist), e);
            }
        }
    }

    /** Two identical calls of a cache_ttl query: the second must say X-Cache: HIT. */
    private boolean detectResponseCache(Servers.Server g) throws Exception {
        Workload.Query q = Workload.byName(queries, Workload.cached("zipf"));
        // one entry, for a customer drawn uniformly: at most one extra hit in the zipf cell of round 1
        String url = g.baseUrl() + "/q/" + q.name() + "?" + draws.get("uniform").get(1).query(q);
        Http.Reply a = Http.get(url, g.readerKey());
        Http.Reply b = Http.get(url, g.readerKey());
        if (a.status() != 200 || b.status() != 200) {
            throw new IllegalStateException("checking for a response cache: /q/" + q.name() + " answered "
                    + a.status() + ", then " + b.status() + ": " + Http.abbreviate(b.body()));
        }
        return "HIT".equalsIgnoreCase(String.valueOf(b.header("X-Cache")));
    }

    // ---- block 9: the Python original -----------------------------------------------------------------------------

    private void python(int round) throws Exception {
        if (pythonProblem != null) {
            if (round == 1) {
                ObjectNode sk = Results.line("skipped");
                sk.put("block", "python");
                sk.put("reason", pythonProblem);
                results.write(sk);
            }
            return;
        }
        record Py(Servers.PythonOptions opts, List<String> queries) {}
        List<String> all = Workload.QUERY_NAMES;
        List<Py> configs = List.of(
                new Py(new Servers.PythonOptions("py-image-8t", 8, null, o.gatewayCpus()), all),
                new Py(new Servers.PythonOptions("py-cache-2t", 2, 5.0, o.gatewayCpus()), all),
                new Py(new Servers.PythonOptions("py-cache-1t", 1, 5.0, o.gatewayCpus()),
                        List.of("customer", "stock_level")));
        for (Py p : BlockKit.rotate(configs, round)) {
            List<Workload.Query> qs = p.queries().stream().map(n -> Workload.byName(queries, n)).toList();
            // started each round (a second, and no JIT to warm), so its connections are held only during its block
            try (Servers.PythonGateway g = new Servers.PythonGateway(o.venv(), work, p.opts(), s, queries)) {
                kit.describe("python", round, g);
                kit.sanity(g, qs);
                startWarmup(g, qs);
                for (Workload.Query q : BlockKit.rotate(qs, round)) {
                    try {
                        measure("python", round, g, q.name(), "uniform", CALLERS, o.duration(), true, false, null);
                    } catch (Exception e) {
                        results.error("python", round, g.label(), q.name(), e);
                    }
                }
                if (round == 1 && p.opts().label().equals("py-image-8t")) {
                    pythonCounts(g, qs);
                }
            } catch (Exception e) {
                results.error("python", round, p.opts().label(), null, e);
                if (round == 1 && e instanceof IllegalStateException && e.getMessage() != null
                        && e.getMessage().contains("did not start")) {
                    pythonProblem = e.getMessage();
                }
            }
        }
    }

    private void pythonCounts(Servers.Server g, List<Workload.Query> qs) throws Exception {
        for (Workload.Query q : qs) {
            List<Workload.Call> calls = draws.get("uniform");
            for (int i = 0; i < 20; i++) {
                Http.get(g.baseUrl() + "/q/" + q.name() + "?" + calls.get(i).query(q), g.readerKey());
            }
            Map<String, Long> st0 = dbStatus();
            for (int i = 0; i < o.countCalls(); i++) {
                Http.get(g.baseUrl() + "/q/" + q.name() + "?" + calls.get(100 + i).query(q), g.readerKey());
            }
            Map<String, Long> st = delta(st0, dbStatus());
            ObjectNode c = Results.line("count");
            c.put("block", "counts");
            c.put("config", g.label());
            c.put("query", q.name());
            c.put("calls", o.countCalls());
            perCall(c, st, o.countCalls());
            results.write(c);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    static void deleteTree(Path p) {
        if (p == null || !Files.exists(p)) {
            return;
        }
        try (Stream<Path> w = Files.walk(p)) {
            w.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // best effort
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }

    static Set<String> parseBlocks(String spec) {
        Set<String> out = new LinkedHashSet<>();
        if (spec == null || spec.isBlank() || spec.equals("all")) {
            out.addAll(BLOCKS);
            return out;
        }
        // docs/PERFORMANCE.md's numbers: 2, 3 and 8 are the gateway block's tables
        List<String> numbers = List.of("direct", "gateway", "gateway", "counts", "threads", "skew", "network",
                "gateway", "python", "postgres", "warmup");
        for (String b : spec.split(",")) {
            String name = b.trim().matches("[1-9][0-9]?") && Integer.parseInt(b.trim()) <= numbers.size()
                    ? numbers.get(Integer.parseInt(b.trim()) - 1) : b.trim();
            if (!BLOCKS.contains(name)) {
                throw new IllegalArgumentException("unknown block '" + b + "': one of " + BLOCKS + " or 1-11");
            }
            out.add(name);
        }
        return out;
    }
}
