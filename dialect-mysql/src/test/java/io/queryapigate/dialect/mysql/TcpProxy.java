package io.queryapigate.dialect.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP forwarder in front of the test MariaDB, so that a test can make the database unreachable for one
 * dialect without stopping the shared server: {@link #close()} stops listening and cuts every forwarded
 * connection, exactly what a dead server or a network partition looks like to the driver (new connections are
 * refused, open ones see end-of-stream).
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    TcpProxy(String targetHostPort) throws IOException {
        String[] hp = targetHostPort.split(":");
        this.targetHost = hp[0];
        this.targetPort = hp.length > 1 ? Integer.parseInt(hp[1]) : 3306;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "qag-my-tcp-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    String hostPort() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 2000);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "qag-my-tcp-pump");
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
