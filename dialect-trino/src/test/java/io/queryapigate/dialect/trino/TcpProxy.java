package io.queryapigate.dialect.trino;

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
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP forwarder in front of the test Trino. {@link #close()} stops listening and cuts every forwarded
 * connection: what a dead coordinator looks like to trino-jdbc (connections refused), without stopping the Trino
 * that other tests share. It also counts the HTTP/1.1 requests the client sends ({@link #requests()}), which is how
 * the tests measure the round trips of a call.
 *
 * <p>Trino builds the {@code nextUri} of a query from the request's {@code Host} header, so every follow-up request
 * of a query comes through the proxy too.
 */
final class TcpProxy implements AutoCloseable {
    private static final byte[] REQUEST_LINE_END = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private volatile boolean closed;

    TcpProxy(String targetHostPort) throws IOException {
        String[] hp = targetHostPort.split(":");
        this.targetHost = hp[0];
        this.targetPort = Integer.parseInt(hp[1]);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "qag-trino-tcp-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    String hostPort() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** The HTTP requests forwarded so far. */
    long requests() {
        return requests.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 2000);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream, true);
                pump(upstream, client, false);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean count) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                byte[] buffer = new byte[16384];
                int matched = 0;
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    if (count) {
                        for (int i = 0; i < n; i++) {
                            byte b = buffer[i];
                            if (b == REQUEST_LINE_END[matched]) {
                                matched++;
                                if (matched == REQUEST_LINE_END.length) {
                                    requests.incrementAndGet();
                                    matched = 0;
                                }
                            } else {
                                matched = b == REQUEST_LINE_END[0] ? 1 : 0;
                            }
                        }
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "qag-trino-tcp-pump");
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
