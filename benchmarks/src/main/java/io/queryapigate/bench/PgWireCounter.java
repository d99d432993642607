package io.queryapigate.bench;

import io.queryapigate.dialect.testkit.PostgresMessages;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A loopback proxy in front of PostgreSQL (the testkit's {@link TcpProxy}, with a delay for the network block) that
 * reads what the clients send ({@link PostgresMessages#fromClient}) and counts their round trips: after a Sync (the
 * end of an extended-protocol batch) or a simple Query the client waits for the server's ReadyForQuery, so those
 * are the round trips; nothing else is. Counted by kind ({@code Sync}, {@code Query}), and by what each carried:
 * for a Sync the statements its batch executed (the first words of each, from the Parse that named it), for a Query
 * its first words. Every message type is counted too. Needs a plain stream: {@link PgSettings}' URLs turn TLS and
 * GSS encryption off.
 */
final class PgWireCounter implements AutoCloseable {
    private final AtomicLong roundTrips = new AtomicLong();
    private final Map<String, AtomicLong> byKind = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> byBatch = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> byMessage = new ConcurrentHashMap<>();
    private final TcpProxy proxy;

    PgWireCounter(String targetHost, int targetPort, Duration delay) throws IOException {
        proxy = TcpProxy.to(targetHost, targetPort).delay(delay)
                .tap(() -> PostgresMessages.fromClient(new Session())).start();
    }

    int port() {
        return proxy.port();
    }

    long roundTrips() {
        return roundTrips.get();
    }

    /** Round trips by kind since the start: {@code Sync} and {@code Query}. */
    Map<String, Long> kinds() {
        return snapshot(byKind);
    }

    /** Round trips by what they carried, e.g. {@code Sync: SELECT} or {@code Query: (empty)}. */
    Map<String, Long> batches() {
        return snapshot(byBatch);
    }

    /** Every client message by its type letter ({@code P} Parse, {@code B} Bind, {@code E} Execute, ...). */
    Map<String, Long> messages() {
        return snapshot(byMessage);
    }

    private static Map<String, Long> snapshot(Map<String, AtomicLong> m) {
        Map<String, Long> out = new TreeMap<>();
        m.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** The difference of two snapshots, without the zeros. */
    static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> out = new TreeMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    /** The first words of a statement (up to four, while they look like words), e.g. {@code SET LOCAL DateStyle}. */
    static String firstWords(String sql) {
        String[] words = sql.trim().split("\\s+");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(4, words.length); i++) {
            if (!words[i].matches("[A-Za-z_*][A-Za-z0-9_]*(\\(\\))?")) {
                break;
            }
            sb.append(i == 0 ? "" : " ").append(words[i]);
        }
        return sb.isEmpty() ? "(empty)" : sb.toString();
    }

    private void count(String kind, String batch) {
        roundTrips.incrementAndGet();
        byKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        byBatch.computeIfAbsent(batch, k -> new AtomicLong()).incrementAndGet();
    }

    /** One connection's messages: prepared statements and portals by name, the statements of the open batch. */
    private final class Session implements Consumer<PostgresMessages.Message> {
        private final Map<String, String> statements = new HashMap<>();
        private final Map<String, String> portals = new HashMap<>();
        private final List<String> executed = new ArrayList<>();

        @Override
        public void accept(PostgresMessages.Message m) {
            byMessage.computeIfAbsent(Character.toString((char) m.type()), k -> new AtomicLong()).incrementAndGet();
            switch (m.type()) {
                case 'P' -> statements.put(m.cstring(0), firstWords(m.cstring(m.after(0))));
                case 'B' -> portals.put(m.cstring(0), statements.getOrDefault(m.cstring(m.after(0)), "?"));
                case 'E' -> executed.add(portals.getOrDefault(m.cstring(0), "?"));
                case PostgresMessages.SYNC -> {
                    count("Sync", "Sync: " + (executed.isEmpty() ? "(nothing executed)" : String.join("; ", executed)));
                    executed.clear();
                }
                case PostgresMessages.QUERY -> count("Query", "Query: " + firstWords(m.cstring(0)));
                default -> { }
            }
        }
    }

    @Override
    public void close() {
        proxy.close();
    }
}
