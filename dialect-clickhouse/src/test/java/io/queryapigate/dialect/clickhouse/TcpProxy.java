package io.queryapigate.dialect.clickhouse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP forwarder in front of the test ClickHouse. {@link #close()} stops listening and cuts every
 * forwarded connection: to the dialect that is a dead server (new connections refused, open ones cut), without
 * stopping the ClickHouse other tests share. It also records what clients send, so that tests can check the HTTP
 * requests on the wire, and counts the TCP connections it accepted.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    TcpProxy(String targetHostPort) throws IOException {
        String[] hp = targetHostPort.split(":");
        this.targetHost = hp[0];
        this.targetPort = Integer.parseInt(hp[1]);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "qag-ch-tcp-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    /** The proxy's URL. */
    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Everything clients sent so far, as text. */
    String sent() {
        synchronized (sent) {
            return sent.toString(StandardCharsets.UTF_8);
        }
    }

    /** TCP connections accepted so far. */
    int connections() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                // registered first and re-checked after: the JDK closes a listening socket only once a blocked
                // accept() returns, so the kernel may still complete a connection while close() runs (measured: a
                // health check passed through a "closed" proxy in 20 of 300 tries); such a connection is cut too
                sockets.add(client);
                accepted.incrementAndGet();
                Socket upstream = new Socket();
                sockets.add(upstream);
                if (closed) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                    return;
                }
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 2000);
                if (closed) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                    return;
                }
                pump(client, upstream, true);
                pump(upstream, client, false);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean record) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[1 << 16];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (record) {
                        synchronized (sent) {
                            sent.write(buf, 0, n);
                        }
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "qag-ch-tcp-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
