package io.queryapigate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A loopback TCP proxy a test can cut and restore, to make a real server disappear for one client only. */
public final class TcpProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    public TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        ServerSocket s = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        this.port = s.getLocalPort();
        listen(s);
    }

    public int port() {
        return port;
    }

    /** Closes the listener and every open connection: the target looks gone. */
    public synchronized void cut() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** Listens again on the same port. */
    public synchronized void restore() throws IOException {
        if (server == null) {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            listen(s);
        }
    }

    private void listen(ServerSocket s) {
        server = s;
        Thread.ofPlatform().daemon(true).name("tcp-proxy-" + port).start(() -> {
            while (!s.isClosed()) {
                try {
                    Socket client = s.accept();
                    Socket upstream = new Socket(targetHost, targetPort);
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private static void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon(true).start(() -> {
            byte[] buf = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // the other side closed or the proxy was cut
            } finally {
                try {
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        });
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
