package io.queryapigate.bench;

import io.queryapigate.dialect.testkit.PythonOriginal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.sourceforge.argparse4j.ArgumentParsers;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.ArgumentParser;
import net.sourceforge.argparse4j.inf.ArgumentParserException;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;
import net.sourceforge.argparse4j.inf.Subparsers;

/**
 * queryapigate-benchmarks: setup | run | report | teardown | soak | overload. See docs/PERFORMANCE.md and
 * docs/RELIABILITY.md (soak, overload).
 *
 * <pre>
 * java -jar benchmarks/target/queryapigate-benchmarks.jar setup --warehouses 2
 * java -jar benchmarks/target/queryapigate-benchmarks.jar run [--smoke] [--blocks direct,gateway,...]
 * java -jar benchmarks/target/queryapigate-benchmarks.jar report [--results DIR] [--docs docs/PERFORMANCE.md]
 * java -jar benchmarks/target/queryapigate-benchmarks.jar teardown
 * java -jar benchmarks/target/queryapigate-benchmarks.jar soak [--seconds 600] [--window 60]
 * java -jar benchmarks/target/queryapigate-benchmarks.jar overload [--high 3] [--low 0.5]
 * </pre>
 */
public final class BenchCli {
    private BenchCli() {}

    public static void main(String[] args) {
        ArgumentParser p = ArgumentParsers.newFor("queryapigate-benchmarks").build()
                .description("The six-service MariaDB case: MariaDB directly, QueryAPIGate and the Python original.");
        p.addArgument("--mysql-host").setDefault("127.0.0.1").help("MariaDB host (loopback only)");
        p.addArgument("--mysql-port").type(Integer.class).setDefault(3306);
        p.addArgument("--admin-user").setDefault("test").help("a MariaDB user that may create databases and users");
        p.addArgument("--admin-password").setDefault("test");
        p.addArgument("--prefix").setDefault("qag_bench_").help("database name prefix: PREFIXorg, PREFIXcrm, ...");
        p.addArgument("--reader-user").setDefault("qag_bench_ro").help("the read-only user the gateways connect as");
        p.addArgument("--reader-password").setDefault("qag-bench-read-only");
        p.addArgument("--repo").setDefault(".").help("the repository root (paths below are relative to it)");
        p.addArgument("--pg-host").setDefault("127.0.0.1").help("PostgreSQL host (loopback only)");
        p.addArgument("--pg-port").type(Integer.class).setDefault(5432);
        p.addArgument("--pg-admin-user").setDefault("test")
                .help("a PostgreSQL role that may create databases and roles");
        p.addArgument("--pg-admin-password").setDefault("test");
        p.addArgument("--pg-admin-database").setDefault("test").help("where CREATE and DROP DATABASE are issued");
        p.addArgument("--pg-database")
                .help("the PostgreSQL database (default: the prefix without its trailing '_', e.g. qag_bench)");
        Subparsers subs = p.addSubparsers().dest("command");

        Subparser setup = subs.addParser("setup").help("create and load the six databases and the read-only user");
        setup.addArgument("--warehouses").type(Integer.class)
                .help("default 2; with --postgres-only, as many as MariaDB holds");
        setup.addArgument("--load-threads").type(Integer.class).setDefault(3).help("parallel loader connections");
        setup.addArgument("--keep-buffer-pool").action(Arguments.storeTrue())
                .help("don't raise InnoDB's buffer pool when the data does not fit (by default it is raised to"
                        + " 2.5x the data, and teardown restores it)");
        setup.addArgument("--no-wrk").action(Arguments.storeTrue()).help("don't install wrk when it is missing");
        setup.addArgument("--no-postgres").action(Arguments.storeTrue())
                .help("don't load the PostgreSQL copy (the postgres block and the network block's PostgreSQL rows"
                        + " are then skipped)");
        setup.addArgument("--postgres-only").action(Arguments.storeTrue())
                .help("load only the PostgreSQL copy, next to MariaDB data already loaded (same warehouses unless"
                        + " --warehouses is given)");

        Subparser run = subs.addParser("run").help("run the blocks, round by round");
        run.addArgument("--smoke").action(Arguments.storeTrue())
                .help("one round, every block for 2 s (skips the Python original unless --with-python; leaves"
                        + " mariadbd's CPU affinity alone)");
        run.addArgument("--blocks").setDefault("all")
                .help("comma list of " + Runner.BLOCKS + " (or 1-11, docs/PERFORMANCE.md's numbers); default all");
        run.addArgument("--rounds").type(Integer.class).setDefault(5);
        run.addArgument("--duration").type(Integer.class).setDefault(10).help("seconds per throughput cell");
        run.addArgument("--single-duration").type(Integer.class).help("seconds per single-caller cell (default: --duration)");
        run.addArgument("--warmup").type(Integer.class).setDefault(2).help("seconds of warm-up before each cell");
        run.addArgument("--start-warmup").type(Integer.class).setDefault(10)
                .help("at least this many seconds of warm-up after each QueryAPIGate start (the mixed workload),"
                        + " then until its throughput is stable; the Python original gets min(3, this)");
        run.addArgument("--start-warmup-max").type(Integer.class).setDefault(120)
                .help("stop warming a QueryAPIGate start after this many seconds, recorded as never stabilised");
        run.addArgument("--stable-windows").type(Integer.class).setDefault(3)
                .help("stable = this many consecutive warm-up windows (2 s each; 1 s in --smoke) within"
                        + " --stable-tolerance of each other");
        run.addArgument("--stable-tolerance").type(Double.class).setDefault(0.05)
                .help("highest / lowest - 1 of the compared windows");
        run.addArgument("--warmup-block-seconds").type(Integer.class).setDefault(60)
                .help("seconds of load on the warmup block's fresh gateway (10 in --smoke)");
        run.addArgument("--profile-seconds").type(Integer.class).setDefault(15)
                .help("seconds of each async-profiler profile (CPU, allocations) of block 2's gateway after the last"
                        + " round; 0: none (2 in --smoke)");
        run.addArgument("--gateway-jvm-opts").setDefault("")
                .help("JVM options added to every QueryAPIGate start, after config/jvm.options (as run.sh's"
                        + " QAG_JAVA_OPTS), e.g. \"-XX:AOTCache=app.aot\"");
        run.addArgument("--no-aot-cache").action(Arguments.storeTrue())
                .help("start the gateways without the JDK AOT cache scripts/run.sh keeps (recorded by a first start)");
        run.addArgument("--out").help("results directory (default benchmarks/results/<date>)");
        run.addArgument("--jar").setDefault("service/target/queryapigate.jar").help("QueryAPIGate's fat jar");
        run.addArgument("--with-python").action(Arguments.storeTrue()).help("measure the Python original in --smoke too");
        run.addArgument("--python-venv").setDefault(PythonOriginal.defaultVenv().toString());
        run.addArgument("--gateway-cpus").setDefault("1");
        run.addArgument("--load-cpus").setDefault("0");
        run.addArgument("--db-cpus").setDefault("0");
        run.addArgument("--no-pin-db").action(Arguments.storeTrue()).help("leave mariadbd's CPU affinity alone");
        run.addArgument("--count-calls").type(Integer.class).setDefault(1000).help("calls per query in block 4");
        run.addArgument("--urls").type(Integer.class).setDefault(200_000).help("URLs per generated URL file");
        run.addArgument("--pool-size").type(Integer.class).setDefault(8)
                .help("QueryAPIGate's connection poolSize (8, the default; platform pools of N threads get at most"
                        + " N + 2)");
        run.addArgument("--thread-pools").setDefault("1,2,4,8,32").help("request threads of the platform pools");
        run.addArgument("--network-delay-us").type(Integer.class).setDefault(250)
                .help("the network block's delay each way, in microseconds (a round trip costs at least twice it)");
        run.addArgument("--no-report").action(Arguments.storeTrue());

        Subparser soak = subs.addParser("soak").help("capacity with the mix, then 75% of it held open-loop: per-window"
                + " latency, RSS, heap after GC, threads, MariaDB sessions; events recorded == requests answered");
        loadOptions(soak);
        soak.addArgument("--seconds").type(Integer.class).setDefault(600).help("how long the load is held");
        soak.addArgument("--window").type(Integer.class).setDefault(60).help("seconds per reported window");
        soak.addArgument("--load").type(Double.class).setDefault(0.75).help("the held rate, as a share of capacity");
        soak.addArgument("--export-every").type(Integer.class).setDefault(15)
                .help("seconds between streamed CSV exports (0: none)");
        soak.addArgument("--p99-factor").type(Double.class).setDefault(2.0)
                .help("the last window's p99 may be at most this times the first's (plus 5 ms)");
        soak.addArgument("--rss-growth").type(Double.class).setDefault(64.0).help("MiB the RSS may grow");
        soak.addArgument("--heap-growth").type(Double.class).setDefault(32.0).help("MiB the heap after GC may grow");
        soak.addArgument("--thread-growth").type(Integer.class).setDefault(5).help("JVM threads the count may grow");

        Subparser overload = subs.addParser("overload").help("capacity with the mix, then 3x it open-loop, then 0.5x:"
                + " per-second statuses, p99, RSS, Retry-After, time back to full speed");
        loadOptions(overload);
        overload.addArgument("--high").type(Double.class).setDefault(3.0).help("the overload, times capacity");
        overload.addArgument("--high-seconds").type(Integer.class).setDefault(20);
        overload.addArgument("--low").type(Double.class).setDefault(0.5).help("the load after it, times capacity");
        overload.addArgument("--low-seconds").type(Integer.class).setDefault(20);
        overload.addArgument("--recovery-bound").type(Integer.class).setDefault(5)
                .help("seconds after the drop within which the gateway must be back at full speed");

        Subparser report = subs.addParser("report").help("Markdown tables from results.jsonl");
        report.addArgument("--results").help("a results directory or results.jsonl (default: the newest)");
        report.addArgument("--docs").help("also regenerate the tables in this file (docs/PERFORMANCE.md)");

        Subparser teardown = subs.addParser("teardown")
                .help("drop the six databases and the read-only user, and the PostgreSQL database and role");
        teardown.addArgument("--no-postgres").action(Arguments.storeTrue()).help("leave PostgreSQL alone");

        Namespace ns;
        try {
            ns = p.parseArgs(joinOptionValues(args, "--gateway-jvm-opts"));
        } catch (ArgumentParserException e) {
            p.handleError(e);
            System.exit(2);
            return;
        }
        try {
            System.exit(dispatch(ns, args));
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** The options the soak and the overload run share. */
    private static void loadOptions(Subparser p) {
        p.addArgument("--jar").setDefault("service/target/queryapigate.jar").help("QueryAPIGate's fat jar");
        p.addArgument("--out").help("results directory (default benchmarks/results/<date>-<command>)");
        p.addArgument("--gateway-cpus").setDefault("1").help("the CPUs the gateway runs on (taskset)");
        p.addArgument("--pool-size").type(Integer.class).setDefault(8).help("the MariaDB connection's poolSize");
        p.addArgument("--capacity-seconds").type(Integer.class).setDefault(10)
                .help("seconds of the closed-loop capacity measurement (after half as many of warm-up)");
        p.addArgument("--gateway-yaml").setDefault("")
                .help("top-level YAML added to the gateway's, e.g. \"limits:\\n  maxWaitingCalls: -1\\n\" (no"
                        + " shedding, as before it existed)");
    }

    /**
     * "--opt VALUE" as "--opt=VALUE" for options whose value starts with a dash (JVM options), which argparse4j
     * would otherwise take for an option of its own.
     */
    static String[] joinOptionValues(String[] args, String option) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(option) && i + 1 < args.length) {
                out.add(option + "=" + args[++i]);
            } else {
                out.add(args[i]);
            }
        }
        return out.toArray(String[]::new);
    }

    private static int dispatch(Namespace ns, String[] args) throws Exception {
        Path repo = Path.of(ns.getString("repo")).toAbsolutePath().normalize();
        BenchSettings s = BenchSettings.from(ns);
        if (!List.of("127.0.0.1", "localhost", "::1").contains(s.host())) {
            throw new IllegalArgumentException("--mysql-host: loopback only (127.0.0.1), not " + s.host());
        }
        PgSettings pg = PgSettings.from(ns, s);
        if (!List.of("127.0.0.1", "localhost", "::1").contains(pg.host())) {
            throw new IllegalArgumentException("--pg-host: loopback only (127.0.0.1), not " + pg.host());
        }
        switch (ns.getString("command")) {
            case "setup" -> {
                if (!ns.getBoolean("no_wrk")) {
                    System.err.println(Wrk.ensureInstalled());
                }
                Tpcc t = new Tpcc(s);
                Map<String, Object> info = new java.util.LinkedHashMap<>();
                Integer asked = ns.getInt("warehouses");
                int warehouses = asked != null ? asked : ns.getBoolean("postgres_only") ? t.warehouses() : 2;
                if (ns.getBoolean("postgres_only")) {
                    if (warehouses == 0) {
                        throw new IllegalStateException("--postgres-only: no MariaDB data to match; run setup");
                    }
                } else {
                    info = t.setup(warehouses);
                    @SuppressWarnings("unchecked")
                    long bytes = ((Number) ((Map<String, Object>) info.get("tables")).get("total_bytes")).longValue();
                    if (!ns.getBoolean("keep_buffer_pool")) {
                        info.putAll(t.fitBufferPool(bytes, stateFile()));
                    }
                    t.warm();
                }
                if (!ns.getBoolean("no_postgres")) {
                    info.put("postgres", new PgData(pg, s).setup(warehouses, s.loadThreads()));
                }
                System.out.println(Http.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(info));
                return 0;
            }
            case "teardown" -> {
                Tpcc t = new Tpcc(s);
                t.teardown();
                System.err.println(t.restoreBufferPool(stateFile()));
                System.err.println("dropped " + Tpcc.SERVICES.stream().map(x -> s.prefix() + x).toList() + " and "
                        + s.readerUser());
                if (!ns.getBoolean("no_postgres")) {
                    new PgData(pg, s).teardown();
                    System.err.println("dropped the PostgreSQL database " + pg.database() + " and the role "
                            + pg.readerUser());
                }
                return 0;
            }
            case "report" -> {
                String r = ns.getString("results");
                Path jsonl = r == null ? Report.latest(repo.resolve("benchmarks/results")) : Path.of(r);
                if (Files.isDirectory(jsonl)) {
                    jsonl = jsonl.resolve("results.jsonl");
                }
                writeReport(jsonl, ns.getString("docs") == null ? null : repo.resolve(ns.getString("docs")));
                return 0;
            }
            case "run" -> {
                return run(ns, s, pg, repo, args);
            }
            case "soak" -> {
                return new Soak(s, new Soak.Options(loadRun(ns, repo, "soak"), ns.getInt("seconds"),
                        ns.getInt("window"), ns.getDouble("load"), ns.getInt("export_every"),
                        ns.getDouble("p99_factor"), ns.getDouble("rss_growth"), ns.getDouble("heap_growth"),
                        ns.getInt("thread_growth"))).run();
            }
            case "overload" -> {
                return new Overload(s, new Overload.Options(loadRun(ns, repo, "overload"), ns.getDouble("high"),
                        ns.getInt("high_seconds"), ns.getDouble("low"), ns.getInt("low_seconds"),
                        ns.getInt("recovery_bound"))).run();
            }
            default -> throw new IllegalStateException(ns.getString("command"));
        }
    }

    private static LoadRuns.Options loadRun(Namespace ns, Path repo, String command) {
        Path out = ns.getString("out") != null ? repo.resolve(ns.getString("out"))
                : repo.resolve("benchmarks/results/" + LocalDate.now() + "-" + command);
        String yaml = ns.getString("gateway_yaml").replace("\\n", "\n");
        if (!yaml.isEmpty() && !yaml.endsWith("\n")) {
            yaml += "\n";
        }
        Path jar = repo.resolve(ns.getString("jar"));
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: ./mvnw -q -B -ntp -pl service -am package -DskipTests");
        }
        return new LoadRuns.Options(jar, out, ns.getString("gateway_cpus"), ns.getInt("pool_size"),
                ns.getInt("capacity_seconds"), yaml);
    }

    static Path stateFile() {
        return Path.of(System.getProperty("user.home"), ".cache", "queryapigate-bench", "mariadb-state.json");
    }

    static void writeReport(Path jsonl, Path docs) throws Exception {
        Report rep = new Report(jsonl);
        Path md = jsonl.resolveSibling("report.md");
        Files.writeString(md, rep.document());
        System.err.println("wrote " + md);
        if (docs != null) {
            Report.updateDocs(docs, rep.tables());
            System.err.println("updated the generated tables in " + docs);
        }
    }

    private static int run(Namespace ns, BenchSettings s, PgSettings pg, Path repo, String[] args) throws Exception {
        boolean smoke = ns.getBoolean("smoke");
        int duration = smoke ? 2 : ns.getInt("duration");
        Integer single = ns.getInt("single_duration");
        List<Integer> pools = Arrays.stream(ns.getString("thread_pools").split(",")).map(String::trim)
                .map(Integer::parseInt).toList();
        if (smoke && pools.size() > 2) {
            // the smoke only proves the code paths: the smallest and the largest platform pool
            pools = List.of(pools.get(0), pools.get(pools.size() - 1));
        }
        Path out = ns.getString("out") != null ? repo.resolve(ns.getString("out"))
                : repo.resolve("benchmarks/results/" + LocalDate.now());
        Runner.Options o = new Runner.Options(smoke ? 1 : ns.getInt("rounds"), duration,
                smoke ? 2 : single == null ? duration : single, smoke ? 0 : ns.getInt("warmup"),
                smoke ? 1 : ns.getInt("start_warmup"), Runner.parseBlocks(ns.getString("blocks")), smoke,
                ns.getBoolean("with_python"), out, repo.resolve(ns.getString("jar")),
                Path.of(ns.getString("python_venv")), ns.getString("gateway_cpus"), ns.getString("load_cpus"),
                // the smoke proves the code paths, it doesn't time anything: it leaves the shared server's affinity alone
                ns.getString("db_cpus"), !smoke && !ns.getBoolean("no_pin_db"), smoke ? 100 : ns.getInt("count_calls"),
                smoke ? 20_000 : ns.getInt("urls"), ns.getInt("pool_size"), pools,
                "java -jar benchmarks/target/queryapigate-benchmarks.jar " + String.join(" ", args), repo,
                ns.getInt("network_delay_us"));
        CostOptions cost = new CostOptions(smoke ? 5 : ns.getInt("start_warmup_max"), smoke ? 1 : 2,
                ns.getInt("stable_windows"), ns.getDouble("stable_tolerance"),
                smoke ? 10 : ns.getInt("warmup_block_seconds"), smoke ? 2 : ns.getInt("profile_seconds"));
        GatewayJvm.configure(repo, ns.getString("gateway_jvm_opts"));
        GatewayJvm.aotCache(ns.getBoolean("no_aot_cache") ? null
                : Files.createTempDirectory("qagb-aot-").resolve("gateway.aot"));
        if (!Files.exists(o.jar())) {
            throw new IllegalStateException(o.jar() + " is missing: ./mvnw -q -B -ntp -pl service -am package"
                    + " -DskipTests");
        }
        Files.createDirectories(out);
        Path jsonl = out.resolve("results.jsonl");
        int errors;
        try (Results results = new Results(jsonl)) {
            errors = new Runner(s, pg, o, cost, results).run();
        }
        if (!ns.getBoolean("no_report")) {
            writeReport(jsonl, null);
        }
        System.err.println(errors == 0 ? "run finished: no failures" : "run finished with " + errors + " failure(s)");
        return errors == 0 ? 0 : 1;
    }
}
