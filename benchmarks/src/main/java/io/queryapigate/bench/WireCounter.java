package io.queryapigate.bench;

import io.queryapigate.dialect.testkit.MySqlCommands;
import io.queryapigate.dialect.testkit.TcpProxy;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback proxy in front of MariaDB (the testkit's {@link TcpProxy}) that reads the MySQL protocol the clients
 * send and counts their commands ({@link MySqlCommands}): the client waits for each command's answer, so commands
 * are round trips. Only works without TLS (the test server has none: have_ssl = DISABLED). With a delay it is also
 * the network block's emulated link. {@link PgWireCounter} is the same for PostgreSQL.
 */
final class WireCounter implements AutoCloseable {
    private final AtomicLong commands = new AtomicLong();
    private final Map<String, AtomicLong> byKind = new ConcurrentHashMap<>();
    private final TcpProxy proxy;

    WireCounter(String targetHost, int targetPort) throws IOException {
        this(targetHost, targetPort, Duration.ZERO);
    }

    /** With a delay each way (the network block's emulated link; TcpProxy keeps connections and chunks apart). */
    WireCounter(String targetHost, int targetPort, Duration delay) throws IOException {
        proxy = TcpProxy.to(targetHost, targetPort).delay(delay).tap(() -> new MySqlCommands(this::count)).start();
    }

    int port() {
        return proxy.port();
    }

    long commands() {
        return commands.get();
    }

    /** Commands by kind since the start: COM_QUERY is split by the statement's first words. */
    Map<String, Long> kinds() {
        Map<String, Long> out = new TreeMap<>();
        byKind.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    private void count(MySqlCommands.Command command) {
        if (command.code() < 0) {
            return; // an empty packet is no command
        }
        commands.incrementAndGet();
        byKind.computeIfAbsent(command.kind(), k -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void close() {
        proxy.close();
    }
}
