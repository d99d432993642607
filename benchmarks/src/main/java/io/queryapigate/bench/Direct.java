package io.queryapigate.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * MariaDB directly: Connector/J (the gateway's driver and version), autocommit, client-side prepared statements,
 * the same SQL and parameters; or, with a {@link Connector} of pgjdbc connections, PostgreSQL the same way. Closed loop: each thread has its own connection and sends the next call as soon as
 * it has read every column of every row of the last.
 */
final class Direct implements AutoCloseable {
    private final List<Connection> connections = new ArrayList<>();

    record Result(long calls, double seconds, double rps, double p50ms, double p99ms, double p999ms,
            double cpuSeconds, long errors) {

        /** A cell's load figures: calls, throughput, latency percentiles, errors. */
        void writeTo(ObjectNode c) {
            c.put("requests", calls);
            c.put("seconds", Tpcc.round3(seconds));
            c.put("rps", Tpcc.round3(rps));
            c.put("p50_ms", p50ms);
            c.put("p99_ms", p99ms);
            c.put("p999_ms", p999ms);
            c.put("errors", errors);
        }
    }

    /** Opens one client connection (MariaDB's or PostgreSQL's reader). */
    interface Connector {
        Connection open() throws SQLException;
    }

    Direct(BenchSettings s, int n) throws SQLException {
        this(s::readerConnection, n);
    }

    /** n connections from this connector: the same client for PostgreSQL (pgjdbc) as for MariaDB. */
    Direct(Connector connector, int n) throws SQLException {
        for (int i = 0; i < n; i++) {
            Connection c = connector.open();
            c.setAutoCommit(true);
            connections.add(c);
        }
    }

    Result run(Workload.Query q, List<Workload.Call> calls, int threads, double seconds) throws Exception {
        String sql = q.jdbcSql();
        List<String> markers = q.markers();
        long[][] lat = new long[threads][];
        int[] counts = new int[threads];
        long[] errors = new long[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        long[] deadline = new long[1];
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Connection c = connections.get(t);
            Thread th = new Thread(() -> {
                long[] mine = new long[1 << 16];
                int n = 0;
                int i = (int) ((long) calls.size() * id / Math.max(1, threads));
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    ready.countDown();
                    go.await();
                    long end = deadline[0];
                    while (true) {
                        long t0 = System.nanoTime();
                        if (t0 >= end) {
                            break;
                        }
                        Workload.Call call = calls.get(i);
                        i = i + 1 == calls.size() ? 0 : i + 1;
                        for (int m = 0; m < markers.size(); m++) {
                            ps.setLong(m + 1, call.value(markers.get(m)));
                        }
                        try (ResultSet rs = ps.executeQuery()) {
                            int cols = rs.getMetaData().getColumnCount();
                            while (rs.next()) {
                                for (int k = 1; k <= cols; k++) {
                                    rs.getObject(k);
                                }
                            }
                        } catch (SQLException e) {
                            errors[id]++;
                            if (errors[id] > 100) {
                                throw e;
                            }
                            continue;
                        }
                        if (n == mine.length) {
                            mine = Arrays.copyOf(mine, n * 2);
                        }
                        mine[n++] = System.nanoTime() - t0;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    ready.countDown();
                }
                lat[id] = mine;
                counts[id] = n;
            }, "direct-" + t);
            ts.add(th);
            th.start();
        }
        ready.await();
        double cpu0 = Procs.cpuSeconds(Procs.selfPid());
        long t0 = System.nanoTime();
        deadline[0] = t0 + (long) (seconds * 1e9);
        go.countDown();
        for (Thread th : ts) {
            th.join();
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = Procs.cpuSeconds(Procs.selfPid()) - cpu0;
        if (failure.get() != null) {
            throw new IllegalStateException("direct " + q.name() + " x" + threads + ": " + failure.get(),
                    failure.get());
        }
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(lat[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        long errs = Arrays.stream(errors).sum();
        return new Result(total, wall, total / wall, pct(all, 50), pct(all, 99), pct(all, 99.9), cpu, errs);
    }

    static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
    }

    /** Exactly n calls on one connection (for counting statements). */
    void calls(Workload.Query q, List<Workload.Call> calls, int n) throws SQLException {
        List<String> markers = q.markers();
        try (PreparedStatement ps = connections.get(0).prepareStatement(q.jdbcSql())) {
            for (int i = 0; i < n; i++) {
                Workload.Call call = calls.get(i % calls.size());
                for (int m = 0; m < markers.size(); m++) {
                    ps.setLong(m + 1, call.value(markers.get(m)));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
