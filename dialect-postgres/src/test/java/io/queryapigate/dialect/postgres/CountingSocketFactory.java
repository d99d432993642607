package io.queryapigate.dialect.postgres;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;

/**
 * A pgjdbc {@code socketFactory} that counts, per socket, what crosses the wire: round trips (each time the client
 * reads after it wrote: one request, one wait for the answer), the server's {@code ReadyForQuery} messages (one per
 * {@code Sync} or simple {@code Query}), bytes each way and the most bytes received in one round trip.
 *
 * <p>Use it with {@code socketFactory=io.queryapigate.dialect.postgres.CountingSocketFactory&socketFactoryArg=<tag>
 * &sslmode=disable&gssEncMode=disable} in the URL (so that every server message is a framed protocol message);
 * {@link #sockets(String)} lists the sockets opened under a tag, in order (cancel requests open sockets too).
 */
public final class CountingSocketFactory extends SocketFactory {

    private static final Map<String, List<Counter>> SOCKETS = new ConcurrentHashMap<>();

    private final String tag;

    /**
     * Called by pgjdbc with the connection properties.
     *
     * @param info the connection properties; {@code socketFactoryArg} is the tag
     */
    public CountingSocketFactory(Properties info) {
        this.tag = info.getProperty("socketFactoryArg", "default");
    }

    /**
     * The URL parameters that route a pgjdbc connection through this factory.
     *
     * @param tag the tag to find its sockets by
     * @return the parameters
     */
    static String[] urlParameters(String tag) {
        return new String[] {"socketFactory=" + CountingSocketFactory.class.getName(), "socketFactoryArg=" + tag,
            "sslmode=disable", "gssEncMode=disable"};
    }

    /**
     * The counters of the sockets opened under {@code tag}, oldest first.
     *
     * @param tag the tag
     * @return the counters
     */
    static List<Counter> sockets(String tag) {
        return List.copyOf(SOCKETS.getOrDefault(tag, List.of()));
    }

    /**
     * The counters of sockets under {@code tag} that carried a session (the server sent ReadyForQuery at least
     * once); cancel-request sockets are left out.
     *
     * @param tag the tag
     * @return the counters
     */
    static List<Counter> sessions(String tag) {
        return sockets(tag).stream().filter(c -> c.readyForQuery() > 0).toList();
    }

    @Override
    public Socket createSocket() {
        Counter counter = new Counter();
        SOCKETS.computeIfAbsent(tag, t -> new CopyOnWriteArrayList<>()).add(counter);
        return new CountingSocket(counter);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        Socket socket = createSocket();
        socket.connect(new java.net.InetSocketAddress(host, port));
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        Socket socket = createSocket();
        socket.connect(new java.net.InetSocketAddress(host, port));
        return socket;
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return createSocket(address, port);
    }

    /** What one socket carried. Thread-safe. */
    static final class Counter {
        private final AtomicLong roundTrips = new AtomicLong();
        private final AtomicLong readyForQuery = new AtomicLong();
        private final AtomicLong bytesIn = new AtomicLong();
        private final AtomicLong bytesOut = new AtomicLong();
        private final AtomicLong maxBytesPerRoundTrip = new AtomicLong();
        private volatile boolean wroteSinceRead;
        private long currentRoundTripBytes; // reader thread only
        // inbound message framing: 1 type byte, 4 length bytes (including themselves), then the body
        private int headerRead; // reader thread only
        private int length; // reader thread only
        private long bodyLeft; // reader thread only

        long roundTrips() {
            return roundTrips.get();
        }

        long readyForQuery() {
            return readyForQuery.get();
        }

        long bytesIn() {
            return bytesIn.get();
        }

        long bytesOut() {
            return bytesOut.get();
        }

        long maxBytesPerRoundTrip() {
            return maxBytesPerRoundTrip.get();
        }

        /** Starts a new maximum for {@link #maxBytesPerRoundTrip()}. */
        void resetMaximum() {
            maxBytesPerRoundTrip.set(0);
        }

        /** A snapshot, for deltas. */
        Snapshot snapshot() {
            return new Snapshot(roundTrips(), readyForQuery(), bytesIn(), bytesOut());
        }

        void wrote(int n) {
            bytesOut.addAndGet(n);
            wroteSinceRead = true;
        }

        void read(byte[] buffer, int offset, int n) {
            if (n <= 0) {
                return;
            }
            if (wroteSinceRead) {
                wroteSinceRead = false;
                roundTrips.incrementAndGet();
                currentRoundTripBytes = 0;
            }
            currentRoundTripBytes += n;
            maxBytesPerRoundTrip.accumulateAndGet(currentRoundTripBytes, Math::max);
            bytesIn.addAndGet(n);
            for (int i = offset; i < offset + n; i++) {
                if (bodyLeft > 0) {
                    long skip = Math.min(bodyLeft, offset + n - i);
                    bodyLeft -= skip;
                    i += (int) skip - 1;
                    continue;
                }
                int b = buffer[i] & 0xFF;
                if (headerRead == 0) {
                    if (b == 'Z') {
                        readyForQuery.incrementAndGet();
                    }
                    length = 0;
                    headerRead = 1;
                } else {
                    length = (length << 8) | b;
                    headerRead++;
                    if (headerRead == 5) {
                        headerRead = 0;
                        bodyLeft = length - 4L;
                    }
                }
            }
        }
    }

    /** Counts at one moment. */
    record Snapshot(long roundTrips, long readyForQuery, long bytesIn, long bytesOut) {
        Snapshot minus(Snapshot earlier) {
            return new Snapshot(roundTrips - earlier.roundTrips, readyForQuery - earlier.readyForQuery,
                    bytesIn - earlier.bytesIn, bytesOut - earlier.bytesOut);
        }
    }

    private static final class CountingSocket extends Socket {
        private final Counter counter;
        private InputStream in;
        private OutputStream out;

        CountingSocket(Counter counter) {
            this.counter = counter;
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        if (b >= 0) {
                            counter.read(new byte[] {(byte) b}, 0, 1);
                        }
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        counter.read(b, off, n);
                        return n;
                    }
                };
            }
            return in;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (out == null) {
                out = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        counter.wrote(1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                        counter.wrote(len);
                    }
                };
            }
            return out;
        }
    }
}
