package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The postgres block: the six queries on the same TPC-C rows in PostgreSQL ({@link PgData}), directly over pgjdbc
 * and through QueryAPIGate, and their round trips on the wire.
 *
 * <ul>
 *   <li><b>Directly</b>: pgjdbc (the dialect's driver), autocommit, prepared statements (pgjdbc's defaults: the
 *       extended protocol, a named server-side statement from the fifth execution on), the same SQL and parameters,
 *       every column of every row read; 1 thread (p50) and 32 threads, the harness's JVM on the gateway's CPU, as the
 *       direct block does for MariaDB.
 *   <li><b>Through QueryAPIGate</b>: a gateway of its own (label {@code pg}) with one connection, {@code bench_pg}
 *       (dialect {@code postgres}, the read-only role), the six queries saved again as {@code pg_customer}, ...;
 *       32 callers with wrk, and one caller for p50.
 *   <li><b>Round trips</b> (round 1): 1,000 sequential calls per query (100 in --smoke), counted on the wire by a
 *       {@link PgWireCounter} (Syncs and simple Queries, by kind and by what they carried): through the gateway on a
 *       second connection of the same gateway, {@code bench_pg_wire}, that reaches PostgreSQL through the counter
 *       (its queries are saved as {@code pg_wire_customer}, ...; nothing else calls them), and directly through a
 *       counter of its own.
 * </ul>
 *
 * <p>The gateway is started once, checked and warmed, and then serves every round. In --smoke only customer is
 * timed; all six are still called and counted.
 */
final class PostgresBlock implements AutoCloseable {
    private final BlockKit kit;
    private final List<Workload.Query> six;
    private final List<Workload.Query> pgQueries;
    private final List<Workload.Query> wireQueries;
    private Servers.JavaGateway gateway;
    private PgWireCounter gatewayWire;

    PostgresBlock(BlockKit kit, List<Workload.Query> six) {
        this.kit = kit;
        this.six = six;
        this.pgQueries = BlockKit.renamed(six, "pg_", "PostgreSQL");
        this.wireQueries = BlockKit.renamed(six, "pg_wire_", "PostgreSQL, through the wire counter");
    }

    void run(int round) throws Exception {
        if (kit.pgProblem() != null) {
            if (round == 1) {
                kit.skipped("postgres", kit.pgProblem());
            }
            return;
        }
        kit.pinPostgres();
        Servers.JavaGateway g = gateway(round);
        List<Workload.Query> timed = BlockKit.rotate(kit.measured(pgQueries), round);
        kit.pinClient();
        try (Direct d = new Direct(kit.pg::readerConnection, Runner.CALLERS)) {
            for (Workload.Query q : timed) {
                for (int threads : List.of(1, Runner.CALLERS)) {
                    try {
                        kit.directCell("postgres", round, "jdbc", "postgres", d, q, threads,
                                threads == 1 ? kit.o.singleDuration() : kit.o.duration(), List.of(kit.pgCpu()));
                    } catch (Exception e) {
                        kit.results.error("postgres", round, "jdbc", q.name(), e);
                    }
                }
            }
        } finally {
            kit.unpinClient();
        }
        for (Workload.Query q : timed) {
            try {
                kit.wrkCell("postgres", round, g, "pg", "postgres", q, Runner.CALLERS, kit.o.duration(),
                        List.of(kit.pgCpu()));
                kit.wrkCell("postgres", round, g, "pg", "postgres", q, 1, kit.o.singleDuration(),
                        List.of(kit.pgCpu()));
            } catch (Exception e) {
                kit.results.error("postgres", round, "pg", q.name(), e);
            }
        }
        if (round == 1) {
            countGateway(g);
            countDirect();
        }
    }

    private Servers.JavaGateway gateway(int round) throws Exception {
        if (gateway == null) {
            gatewayWire = new PgWireCounter(kit.pg.host(), kit.pg.port(), Duration.ZERO);
            List<Servers.GatewayConnection> connections = List.of(
                    new Servers.GatewayConnection("bench_pg", "postgres", kit.pg.readerUrl(), kit.pg.readerUser(),
                            kit.pg.readerPassword(), kit.o.poolSize(), pgQueries),
                    new Servers.GatewayConnection("bench_pg_wire", "postgres",
                            kit.pg.readerUrlVia(gatewayWire.port()), kit.pg.readerUser(), kit.pg.readerPassword(), 2,
                            wireQueries));
            gateway = kit.startGateway("pg", connections);
            List<Workload.Query> all = new ArrayList<>(pgQueries);
            all.addAll(wireQueries);
            kit.checkAndWarm("postgres", round, gateway, all, kit.measured(pgQueries));
        }
        return gateway;
    }

    /** Sequential calls through the gateway's counted connection: round trips per call, by kind. */
    private void countGateway(Servers.JavaGateway g) throws Exception {
        for (Workload.Query q : wireQueries) {
            int calls = kit.o.countCalls();
            for (int i = 0; i < 20; i++) {   // settle: the pool's first use of a connection is not counted
                Http.get(g.baseUrl() + "/q/" + q.name() + "?" + kit.uniform.get(i).query(q), g.readerKey());
            }
            BlockKit.Probe wire = BlockKit.wire(gatewayWire);
            wire.start();
            int bad = 0;
            for (int i = 0; i < calls; i++) {
                Http.Reply r = Http.get(g.baseUrl() + "/q/" + q.name() + "?" + kit.uniform.get(100 + i).query(q),
                        g.readerKey());
                if (r.status() != 200) {
                    bad++;
                }
            }
            ObjectNode c = count("pg", q, calls);
            c.put("non_200", bad);
            wire.finish(c, calls);
            kit.results.write(c);
            report(c);
            if (bad > 0) {
                kit.results.error("postgres", 1, "pg", q.name(), new IllegalStateException(bad + " non-200 answers"));
            }
        }
    }

    /** Sequential calls of pgjdbc through a counter of its own: the floor. */
    private void countDirect() throws Exception {
        try (PgWireCounter wire = new PgWireCounter(kit.pg.host(), kit.pg.port(), Duration.ZERO);
                Direct d = new Direct(kit.pg.via(wire.port())::readerConnection, 1)) {
            for (Workload.Query q : pgQueries) {
                int calls = kit.o.countCalls();
                d.calls(q, kit.uniform, 20);
                BlockKit.Probe probe = BlockKit.wire(wire);
                probe.start();
                d.calls(q, kit.uniform, calls);
                ObjectNode c = count("pg-jdbc", q, calls);
                probe.finish(c, calls);
                kit.results.write(c);
                report(c);
            }
        }
    }

    private ObjectNode count(String config, Workload.Query q, int calls) {
        ObjectNode c = Results.line("count");
        c.put("block", "postgres");
        c.put("config", config);
        c.put("db", "postgres");
        c.put("query", BlockKit.base(q));
        c.put("saved_query", q.name());
        c.put("calls", calls);
        return c;
    }

    private static void report(ObjectNode c) {
        System.err.printf("   postgres counts %-8s %-14s round trips/call %s  %s%n", c.path("config").asText(),
                c.path("query").asText(), c.path("round_trips_per_call").asText(), c.path("round_trips_by_kind"));
    }

    @Override
    public void close() {
        if (gateway != null) {
            kit.end(gateway);
            gateway = null;
        }
        if (gatewayWire != null) {
            gatewayWire.close();
            gatewayWire = null;
        }
    }
}
