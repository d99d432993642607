package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The network block: the database across an emulated network. This kernel has no netem, so the link is the
 * testkit's {@link TcpProxy} with a fixed delay each way (--network-delay-us, 250 by default): every chunk is
 * written that long after it arrived, per connection and per direction, in order, and connections don't wait for
 * each other; a round trip therefore costs at least twice the delay. The proxy also counts the round trips on the
 * same link ({@link WireCounter} for MariaDB, {@link PgWireCounter} for PostgreSQL).
 *
 * <p>Both the JDBC client and a gateway of its own (label {@code net}: connection {@code bench} to MariaDB and
 * {@code bench_pg} to PostgreSQL, both through the links) go through the delayed links; per query and database: the
 * direct client with 1 thread (p50) and 32 threads, the gateway with 1 caller (p50) and 32 callers, and the round
 * trips per call counted on the link during each cell. So the report shows what one round trip more or less on a
 * call's critical path costs. At the first run the link itself is timed with one-byte round trips to an echo server
 * in this JVM (a "note" line). The proxy runs in the harness's JVM: on the load generator's CPU for the gateway's
 * cells, on the gateway's CPU (with the JDBC client) for the direct ones. In --smoke only customer, with one
 * caller.
 */
final class NetworkBlock implements AutoCloseable {
    private final BlockKit kit;
    private final List<Workload.Query> six;
    private final List<Workload.Query> pgQueries;
    private WireCounter mysqlLink;
    private PgWireCounter pgLink;
    private Servers.JavaGateway gateway;

    NetworkBlock(BlockKit kit, List<Workload.Query> six) {
        this.kit = kit;
        this.six = six;
        this.pgQueries = BlockKit.renamed(six, "pg_", "PostgreSQL across the emulated network");
    }

    private Duration delay() {
        return Duration.ofNanos(kit.o.networkDelayUs() * 1000L);
    }

    void run(int round) throws Exception {
        Servers.JavaGateway g = gateway(round);
        boolean withPg = kit.pgProblem() == null;
        if (round == 1 && !withPg) {
            kit.skipped("network-postgres", kit.pgProblem());
        }
        List<String> dbs = BlockKit.rotate(withPg ? List.of("mariadb", "postgres") : List.of("mariadb"), round);
        for (String db : dbs) {
            boolean pg = db.equals("postgres");
            List<Workload.Query> timed = BlockKit.rotate(kit.measured(pg ? pgQueries : six), round);
            if (pg) {
                kit.pinPostgres();
            }
            kit.pinClient();
            try (Direct d = pg ? new Direct(kit.pg.via(pgLink.port())::readerConnection, Runner.CALLERS)
                    : new Direct(mariaDbVia(mysqlLink.port()), Runner.CALLERS)) {
                for (Workload.Query q : timed) {
                    for (int threads : callers()) {
                        try {
                            kit.directCell("network", round, "jdbc", db, d, q, threads,
                                    threads == 1 ? kit.o.singleDuration() : kit.o.duration(), probes(pg));
                        } catch (Exception e) {
                            kit.results.error("network", round, "jdbc-" + db, q.name(), e);
                        }
                    }
                }
            } finally {
                kit.unpinClient();
            }
            for (Workload.Query q : timed) {
                try {
                    for (int callers : callers()) {
                        kit.wrkCell("network", round, g, "net", db, q, callers,
                                callers == 1 ? kit.o.singleDuration() : kit.o.duration(), probes(pg));
                    }
                } catch (Exception e) {
                    kit.results.error("network", round, "net-" + db, q.name(), e);
                }
            }
        }
    }

    /** One caller (p50) and 32; in --smoke one caller only (the same code; the smoke must stay short). */
    private List<Integer> callers() {
        return kit.o.smoke() ? List.of(1) : List.of(1, Runner.CALLERS);
    }

    private List<BlockKit.Probe> probes(boolean pg) {
        return pg ? List.of(BlockKit.wire(pgLink), kit.pgCpu()) : List.of(BlockKit.wire(mysqlLink));
    }

    private BenchSettings mariaDbVia(int port) {
        BenchSettings s = kit.s;
        return new BenchSettings(s.host(), port, s.adminUser(), s.adminPassword(), s.prefix(), s.readerUser(),
                s.readerPassword(), s.loadThreads());
    }

    private Servers.JavaGateway gateway(int round) throws Exception {
        if (gateway == null) {
            mysqlLink = new WireCounter(kit.s.host(), kit.s.port(), delay());
            List<Servers.GatewayConnection> connections = new ArrayList<>();
            connections.add(new Servers.GatewayConnection("bench", "mysql", kit.s.readerUrlVia(mysqlLink.port()),
                    kit.s.readerUser(), kit.s.readerPassword(), kit.o.poolSize(), six));
            List<Workload.Query> all = new ArrayList<>(six);
            List<Workload.Query> warm = new ArrayList<>(kit.measured(six));
            if (kit.pgProblem() == null) {
                pgLink = new PgWireCounter(kit.pg.host(), kit.pg.port(), delay());
                connections.add(new Servers.GatewayConnection("bench_pg", "postgres",
                        kit.pg.readerUrlVia(pgLink.port()), kit.pg.readerUser(), kit.pg.readerPassword(),
                        kit.o.poolSize(), pgQueries));
                all.addAll(pgQueries);
                warm.addAll(kit.measured(pgQueries));
            }
            kit.results.write(calibrate());
            gateway = kit.startGateway("net", connections);
            kit.checkAndWarm("network", round, gateway, all, warm);
        }
        return gateway;
    }

    /**
     * The link alone: 500 one-byte round trips to an echo server in this JVM, straight, through a proxy without
     * delay, and through one with the block's delay.
     */
    private ObjectNode calibrate() throws IOException {
        ObjectNode n = Results.line("note");
        n.put("block", "network");
        n.put("delay_us_each_way", kit.o.networkDelayUs());
        try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().name("network-echo").start(() -> {
                while (true) {
                    try {
                        Socket s = echo.accept();
                        Thread.ofPlatform().daemon().start(() -> {
                            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                                s.setTcpNoDelay(true);
                                in.transferTo(out);
                            } catch (IOException e) {
                                // the client went away
                            }
                        });
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            n.putPOJO("loopback_rtt_ms", roundTrips(echo.getLocalPort()));
            try (TcpProxy plain = TcpProxy.to("127.0.0.1", echo.getLocalPort()).start()) {
                n.putPOJO("proxy_rtt_ms", roundTrips(plain.port()));
            }
            try (TcpProxy delayed = TcpProxy.to("127.0.0.1", echo.getLocalPort()).delay(delay()).start()) {
                n.putPOJO("delayed_rtt_ms", roundTrips(delayed.port()));
            }
        }
        System.err.println("   network: the link " + n);
        return n;
    }

    /** min, p50 and p99 of 500 one-byte round trips, in ms. */
    private static double[] roundTrips(int port) throws IOException {
        long[] nanos = new long[500];
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = -20; i < nanos.length; i++) {
                long t0 = System.nanoTime();
                out.write(42);
                if (in.read() != 42) {
                    throw new IOException("the echo answered something else");
                }
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - t0;
                }
            }
        }
        Arrays.sort(nanos);
        return new double[] {Tpcc.round3(nanos[0] / 1e6), Tpcc.round3(nanos[249] / 1e6),
            Tpcc.round3(nanos[494] / 1e6)};
    }

    @Override
    public void close() {
        if (gateway != null) {
            kit.end(gateway);
            gateway = null;
        }
        if (mysqlLink != null) {
            mysqlLink.close();
        }
        if (pgLink != null) {
            pgLink.close();
        }
    }
}
