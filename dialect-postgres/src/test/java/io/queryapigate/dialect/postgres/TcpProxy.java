package io.queryapigate.dialect.postgres;

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
 * A loopback TCP proxy in front of the test server, to take the database away from a dialect: {@link #close()}
 * cuts every connection and refuses new ones (the server "stops"), {@link #freeze()} keeps the connections open but
 * stops forwarding what the server sends (the server "never answers"); {@link #delay} imitates a network. New connections, cancel requests among
 * them, are forwarded unless closed. Listens on 127.0.0.1 only; its threads are daemons and end with it.
 */
final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;
    private volatile long delayNanos;
    private volatile boolean closed;
    private final Object freezeLock = new Object();

    TcpProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("tcp-proxy-accept").start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    /**
     * Delays every forwarded chunk, each way, to imitate a network: a round trip then takes about twice this.
     *
     * @param delay the delay per direction
     */
    void delay(java.time.Duration delay) {
        delayNanos = delay.toNanos();
    }

    /** Stops forwarding the server's bytes on the connections open now (new ones are not affected). */
    void freeze() {
        frozen = true;
    }

    /** Forwards again. */
    void unfreeze() {
        synchronized (freezeLock) {
            frozen = false;
            freezeLock.notifyAll();
        }
    }

    @Override
    public void close() {
        closed = true;
        unfreeze();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                // like pgjdbc and the server themselves: no Nagle delay on small writes
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                boolean frozenAtStart = frozen;
                Thread.ofPlatform().daemon().name("tcp-proxy-up").start(() -> pump(client, upstream, false));
                Thread.ofPlatform().daemon().name("tcp-proxy-down").start(() -> pump(upstream, client, !frozenAtStart));
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    /**
     * Copies one direction. A reader thread stamps each chunk with its arrival time; this thread writes it {@code
     * delayNanos} after that, so that the delay is a latency (chunks in flight overlap) rather than a cost per chunk.
     */
    private void pump(Socket from, Socket to, boolean freezable) {
        java.util.concurrent.BlockingQueue<Object[]> line = new java.util.concurrent.LinkedBlockingQueue<>();
        byte[] end = new byte[0];
        Thread.ofPlatform().daemon().name("tcp-proxy-read").start(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    line.add(new Object[] {java.util.Arrays.copyOf(buffer, n), System.nanoTime()});
                }
            } catch (IOException ignored) {
                // that side went away
            } finally {
                line.add(new Object[] {end, System.nanoTime()});
            }
        });
        try (OutputStream out = to.getOutputStream()) {
            while (true) {
                Object[] chunk = line.take();
                byte[] bytes = (byte[]) chunk[0];
                if (bytes == end) {
                    break;
                }
                if (freezable) {
                    synchronized (freezeLock) {
                        while (frozen && !closed) {
                            freezeLock.wait();
                        }
                    }
                }
                long due = (Long) chunk[1] + delayNanos;
                for (long wait; (wait = due - System.nanoTime()) > 0; ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                out.write(bytes);
                out.flush();
            }
        } catch (IOException | InterruptedException ignored) {
            // one side went away
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
