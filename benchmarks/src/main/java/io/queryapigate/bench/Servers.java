package io.queryapigate.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.queryapigate.dialect.testkit.Processes;
import io.queryapigate.dialect.testkit.PythonOriginal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The gateways under test: QueryAPIGate (this repository's jar) and the Python original, each as a process. */
final class Servers {
    private Servers() {}

    /** A running gateway with the six queries saved and a reader key. */
    /**
     * Saves and publishes the workload's queries on a gateway (either: the two share this API) and creates the
     * key that may run them; returns its secret.
     */
    static String publish(String baseUrl, String adminKey, List<Workload.Query> queries)
            throws IOException, InterruptedException {
        return publish(baseUrl, adminKey, Map.of("bench", queries));
    }

    /** As {@link #publish(String, String, List)}, with the queries of each connection, by its name. */
    static String publish(String baseUrl, String adminKey, Map<String, List<Workload.Query>> byConnection)
            throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, List<Workload.Query>> e : byConnection.entrySet()) {
            for (Workload.Query q : e.getValue()) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("name", q.name());
                body.put("sql", q.sql());
                body.put("parameters", q.parameters());
                body.put("connection_name", e.getKey());
                body.put("description", q.description());
                if (q.cacheTtl() > 0) {
                    body.put("cache_ttl", q.cacheTtl());
                }
                body.put("publish", true);
                Http.require(Http.post(baseUrl + "/api/v1/queries", adminKey, body), 201);
                names.add(q.name());
            }
        }
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("name", "reader");
        key.put("queries", names);
        JsonNode k = Http.require(Http.post(baseUrl + "/api/v1/api-keys", adminKey, key), 201).json();
        return k.path("secret").asText();
    }

    interface Server extends AutoCloseable {
        String label();

        String baseUrl();

        String readerKey();

        long pid();

        /** CPU seconds of the gateway's processes. */
        default double cpuSeconds() {
            return Procs.treeCpuSeconds(pid());
        }

        default double rssMiB() {
            return Procs.rssMiB(pid());
        }

        /** The store.reads counter, or -1 when the gateway has none. */
        long storeReads() throws IOException, InterruptedException;

        /** Whatever a report should know about this process's setup. */
        Map<String, Object> describe();

        @Override
        void close();
    }

    static String secret() {
        byte[] b = new byte[18];
        new SecureRandom().nextBytes(b);
        return "bench-" + HexFormat.of().formatHex(b);
    }

    /** Options of one QueryAPIGate start. */
    record JavaOptions(String label, String metadataTtl, boolean virtualThreads, Integer requestThreads,
            String jdbcUrl, int poolSize, String cpus) {}

    /**
     * One of a QueryAPIGate start's connections (its YAML's {@code connections.<name>}) and the saved queries
     * published on it. Without a list of them a start has one: {@code bench}, MariaDB at {@link JavaOptions#jdbcUrl}.
     */
    record GatewayConnection(String name, String dialect, String url, String user, String password, int poolSize,
            List<Workload.Query> queries) {}

    static final class JavaGateway implements Server {
        private final JavaOptions o;
        private final Path dir;
        private final Process process;
        private final int port;
        private final int adminPort;
        private final String adminKey = secret();
        private String readerKey;
        private final Map<String, Object> described = new LinkedHashMap<>();
        private final List<GatewayConnection> connections;
        private final String extraYaml;

        JavaGateway(Path jar, Path runDir, JavaOptions o, BenchSettings s, List<Workload.Query> queries)
                throws IOException, InterruptedException {
            this(jar, runDir, o, List.of(new GatewayConnection("bench", "mysql", o.jdbcUrl(), s.readerUser(),
                    s.readerPassword(), o.poolSize(), queries)));
        }

        /** A start with these connections (o.jdbcUrl() is then not used). */
        JavaGateway(Path jar, Path runDir, JavaOptions o, List<GatewayConnection> connections)
                throws IOException, InterruptedException {
            this(jar, runDir, o, connections, "");
        }

        /** As above, with more top-level YAML ({@code limits:}, {@code events:}, ...) appended to what it writes. */
        JavaGateway(Path jar, Path runDir, JavaOptions o, List<GatewayConnection> connections, String extraYaml)
                throws IOException, InterruptedException {
            this.o = o;
            this.extraYaml = extraYaml;
            this.connections = connections;
            this.dir = runDir.resolve("gw-" + o.label() + "-" + System.nanoTime());
            Files.createDirectories(dir);
            this.port = Processes.freePort();
            this.adminPort = Processes.freePort();
            Path yml = dir.resolve("gateway.yml");
            Files.writeString(yml, yaml());
            // as scripts/run.sh starts it: the options of config/jvm.options (and --gateway-jvm-opts)
            List<String> cmd = new ArrayList<>(List.of("taskset", "-c", o.cpus(), javaBin()));
            List<String> jvm = GatewayJvm.startOptions();
            cmd.addAll(jvm);
            cmd.addAll(List.of("-jar", jar.toString(), "server", yml.toString()));
            this.process = new ProcessBuilder(Processes.dieWithUs(cmd)).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("gateway.log").toFile()).start();
            long t0 = System.nanoTime();
            if (!Http.waitUp(baseUrl() + "/health", process, 180)) {
                String log = Processes.tail(dir.resolve("gateway.log"), 40);
                close();
                throw new IllegalStateException("QueryAPIGate (" + o.label() + ") did not start:\n" + log);
            }
            described.put("startup_seconds", Tpcc.round3((System.nanoTime() - t0) / 1e9));
            Map<String, List<Workload.Query>> published = new LinkedHashMap<>();
            for (GatewayConnection c : connections) {
                published.put(c.name(), c.queries());
            }
            this.readerKey = publish(baseUrl(), adminKey, published);
            described.put("gateway", "queryapigate-java");
            described.put("metadata_cache_ttl", o.metadataTtl());
            described.put("virtual_threads", o.virtualThreads());
            described.put("request_threads", o.requestThreads());
            described.put("pool_size", o.poolSize());
            described.put("cpus", o.cpus());
            described.put("jvm_options", jvm);
            if (connections.size() > 1 || !connections.get(0).name().equals("bench")) {
                Map<String, Object> cs = new LinkedHashMap<>();
                for (GatewayConnection c : connections) {
                    cs.put(c.name(), c.dialect() + ", " + c.url() + ", poolSize " + c.poolSize() + ", "
                            + c.queries().size() + " queries");
                }
                described.put("connections", cs);
            }
        }

        static String javaBin() {
            return Path.of(System.getProperty("java.home"), "bin", "java").toString();
        }

        private String yaml() {
            StringBuilder y = new StringBuilder();
            y.append("# written by queryapigate-benchmarks for one measured start (").append(o.label()).append(")\n");
            y.append("home: ").append(dir.resolve("home")).append('\n');
            y.append("auth:\n  adminKey: ").append(adminKey).append('\n');
            y.append("metadataCache:\n  ttl: ").append(o.metadataTtl()).append('\n');
            y.append("connections:\n");
            for (GatewayConnection c : connections) {
                y.append("  ").append(c.name()).append(":\n    dialect: ").append(c.dialect()).append('\n');
                y.append("    url: ").append(c.url()).append('\n');
                y.append("    user: ").append(c.user()).append('\n');
                y.append("    password: ").append(c.password()).append('\n');
                y.append("    poolSize: ").append(c.poolSize()).append('\n');
            }
            y.append(extraYaml);
            y.append("server:\n  enableVirtualThreads: ").append(o.virtualThreads()).append('\n');
            if (o.requestThreads() != null) {
                // Jetty's pool also holds 1 acceptor, 1 selector and 1 reserved thread (its ThreadPoolBudget
                // refuses to start unless maxThreads exceeds those three): N request threads = N + 3
                int max = o.requestThreads() + 3;
                y.append("  maxThreads: ").append(max).append('\n');
                y.append("  minThreads: ").append(max).append('\n');
            }
            y.append("  applicationConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: ")
                    .append(port).append('\n');
            if (o.requestThreads() != null) {
                y.append("      acceptorThreads: 1\n      selectorThreads: 1\n");
            }
            y.append("  adminConnectors:\n    - type: http\n      bindHost: 127.0.0.1\n      port: ").append(adminPort)
                    .append('\n');
            y.append("  requestLog:\n    appenders:\n      - type: console\n        timeZone: UTC\n");
            y.append("logging:\n  level: INFO\n  loggers:\n    io.queryapigate: INFO\n    org.flywaydb: WARN\n");
            return y.toString();
        }

        @Override
        public String label() {
            return o.label();
        }

        @Override
        public String baseUrl() {
            return "http://127.0.0.1:" + port;
        }

        String adminUrl() {
            return "http://127.0.0.1:" + adminPort;
        }

        String adminKey() {
            return adminKey;
        }

        /** The SQLite store of this start (its event log). */
        Path store() {
            return dir.resolve("home").resolve("queryapigate.db");
        }

        @Override
        public String readerKey() {
            return readerKey;
        }

        @Override
        public long pid() {
            return process.pid();
        }

        /** Dropwizard's metrics as JSON: /metrics/json (builds where /metrics is Prometheus text), else /metrics. */
        JsonNode metrics() throws IOException, InterruptedException {
            if (!metricsAtRoot) {
                Http.Reply r = Http.get(adminUrl() + "/metrics/json", null);
                if (r.status() == 200) {
                    return r.json();
                }
                metricsAtRoot = true;
            }
            return Http.require(Http.get(adminUrl() + "/metrics", null), 200).json();
        }

        private volatile boolean metricsAtRoot;

        @Override
        public long storeReads() throws IOException, InterruptedException {
            JsonNode c = metrics().path("counters").path("store.reads");
            return c.isMissingNode() ? -1 : c.path("count").asLong();
        }

        /** Requests being handled right now (Dropwizard's active-requests counter). */
        long activeRequests() throws IOException, InterruptedException {
            return metrics().path("counters").path("io.dropwizard.jetty.MutableServletContextHandler.active-requests")
                    .path("count").asLong();
        }

        /** Which garbage collector the JVM picked (from the jvm.gc.* gauges). */
        String gc() throws IOException, InterruptedException {
            List<String> names = new ArrayList<>();
            metrics().path("gauges").fieldNames().forEachRemaining(n -> {
                if (n.startsWith("jvm.gc.") && n.endsWith(".count")) {
                    names.add(n.substring(7, n.length() - 6));
                }
            });
            return String.join("+", names);
        }

        @Override
        public Map<String, Object> describe() {
            return described;
        }

        Path dir() {
            return dir;
        }

        @Override
        public void close() {
            Processes.stop(process, 20);
        }

        /** Stops it and waits up to this long for its exit (a JVM recording an AOT cache writes it as it exits). */
        void closeWaiting(int graceSeconds) {
            Processes.stop(process, graceSeconds);
        }
    }

    /** Options of one start of the Python original under gunicorn. */
    record PythonOptions(String label, int threads, Double metadataCacheTtl, String cpus) {}

    static final class PythonGateway implements Server {
        private final PythonOptions o;
        private final Path dir;
        private final Process process;
        private final int port;
        private final String adminKey = secret();
        private String readerKey;
        private final Map<String, Object> described = new LinkedHashMap<>();

        PythonGateway(Path venv, Path runDir, PythonOptions o, BenchSettings s, List<Workload.Query> queries)
                throws IOException, InterruptedException {
            this.o = o;
            this.dir = runDir.resolve("py-" + o.label() + "-" + System.nanoTime());
            Files.createDirectories(dir.resolve("home"));
            this.port = Processes.freePort();
            Map<String, String> env = new LinkedHashMap<>();
            env.put("QUERYAPIGATE_THREADS", Integer.toString(o.threads()));
            if (o.metadataCacheTtl() != null) {
                env.put("QUERYAPIGATE_METADATA_CACHE_TTL", Double.toString(o.metadataCacheTtl()));
            }
            ProcessBuilder pb = PythonOriginal.gunicorn(venv, List.of("taskset", "-c", o.cpus()), port,
                    dir.resolve("home"), adminKey, env, dir.resolve("gunicorn.log"));
            this.process = pb.start();
            long t0 = System.nanoTime();
            if (!Http.waitUp(baseUrl() + "/health", process, 120)) {
                String log = Processes.tail(dir.resolve("gunicorn.log"), 40);
                close();
                throw new IllegalStateException("the Python original (" + o.label() + ") did not start:\n" + log);
            }
            described.put("startup_seconds", Tpcc.round3((System.nanoTime() - t0) / 1e9));
            Map<String, Object> conn = new LinkedHashMap<>();
            conn.put("name", "bench");
            conn.put("db", "mysql");
            conn.put("host", s.host());
            conn.put("port", s.port());
            conn.put("database", s.crm());
            conn.put("user", s.readerUser());
            conn.put("password", s.readerPassword());
            Http.require(Http.post(baseUrl() + "/api/v1/connections", adminKey, conn), 201);
            this.readerKey = publish(baseUrl(), adminKey, queries);
            described.put("gateway", "queryapigate-python-" + PythonOriginal.VERSION);
            described.put("threads", o.threads());
            described.put("metadata_cache_ttl", o.metadataCacheTtl());
            described.put("cpus", o.cpus());
        }

        @Override
        public String label() {
            return o.label();
        }

        @Override
        public String baseUrl() {
            return "http://127.0.0.1:" + port;
        }

        @Override
        public String readerKey() {
            return readerKey;
        }

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public long storeReads() {
            return -1;
        }

        @Override
        public Map<String, Object> describe() {
            return described;
        }

        @Override
        public void close() {
            Processes.stop(process, 20);
        }
    }
}
