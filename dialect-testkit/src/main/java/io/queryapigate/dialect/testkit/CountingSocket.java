package io.queryapigate.dialect.testkit;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client socket that counts what crosses it, for a driver to connect through: bytes each way, round trips (each
 * time the client reads after it wrote: one request, one wait for the answer), the most bytes received in one round
 * trip, and, where a protocol parser reports them, messages by type. Optional {@link ByteTap}s see the bytes written
 * and read, e.g. {@link MySqlCommands} or {@link PostgresMessages}.
 *
 * <p>Driver-free: a driver that takes a {@code javax.net.SocketFactory} uses a {@link CountingSocketFactory}; one
 * with an interface of its own (Connector/J) gets a few lines of adapter in its dialect's tests that return one of
 * these.
 */
public class CountingSocket extends Socket {
    private final Counter counter;
    private final ByteTap sentTap;
    private final ByteTap receivedTap;
    private InputStream in;
    private OutputStream out;

    /**
     * An unconnected socket.
     *
     * @param counter what it counts into
     * @param sentTap sees the bytes written, or null
     * @param receivedTap sees the bytes read, or null
     */
    public CountingSocket(Counter counter, ByteTap sentTap, ByteTap receivedTap) {
        this.counter = counter;
        this.sentTap = sentTap;
        this.receivedTap = receivedTap;
    }

    /** What this socket counts into. */
    public Counter counter() {
        return counter;
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
        if (in == null) {
            in = new FilterInputStream(super.getInputStream()) {
                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b >= 0) {
                        seen(new byte[] {(byte) b}, 0, 1);
                    }
                    return b;
                }

                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    if (n > 0) {
                        seen(b, off, n);
                    }
                    return n;
                }

                private void seen(byte[] b, int off, int n) {
                    counter.read(n);
                    if (receivedTap != null) {
                        receivedTap.bytes(b, off, n);
                    }
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
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    counter.wrote(len);
                    if (sentTap != null && len > 0) {
                        sentTap.bytes(b, off, len);
                    }
                }
            };
        }
        return out;
    }

    /** What one socket carried. Thread-safe; the read side is one thread at a time, as a driver reads. */
    public static final class Counter {
        private final AtomicLong roundTrips = new AtomicLong();
        private final AtomicLong bytesIn = new AtomicLong();
        private final AtomicLong bytesOut = new AtomicLong();
        private final AtomicLong maxBytesPerRoundTrip = new AtomicLong();
        private final Map<Integer, AtomicLong> messages = new ConcurrentHashMap<>();
        private volatile boolean wroteSinceRead;
        private long currentRoundTripBytes; // reader thread only

        /** Round trips: reads that followed a write. */
        public long roundTrips() {
            return roundTrips.get();
        }

        /** Bytes read. */
        public long bytesIn() {
            return bytesIn.get();
        }

        /** Bytes written. */
        public long bytesOut() {
            return bytesOut.get();
        }

        /** The most bytes read in one round trip since the start or {@link #resetMaximum()}. */
        public long maxBytesPerRoundTrip() {
            return maxBytesPerRoundTrip.get();
        }

        /** Starts a new maximum for {@link #maxBytesPerRoundTrip()}. */
        public void resetMaximum() {
            maxBytesPerRoundTrip.set(0);
        }

        /**
         * Messages of one type a protocol parser reported through {@link #message(int)}.
         *
         * @param type the type, e.g. {@code 'Z'} for PostgreSQL's ReadyForQuery
         * @return how many
         */
        public long messages(int type) {
            AtomicLong n = messages.get(type);
            return n == null ? 0 : n.get();
        }

        /**
         * Counts one message; for a protocol parser (a {@link ByteTap}) to call.
         *
         * @param type the message's type
         */
        public void message(int type) {
            messages.computeIfAbsent(type, t -> new AtomicLong()).incrementAndGet();
        }

        /** The counts now, for deltas. */
        public Snapshot snapshot() {
            Map<Integer, Long> byType = new HashMap<>();
            messages.forEach((type, n) -> byType.put(type, n.get()));
            return new Snapshot(roundTrips(), bytesIn(), bytesOut(), Map.copyOf(byType));
        }

        void wrote(int n) {
            bytesOut.addAndGet(n);
            wroteSinceRead = true;
        }

        void read(int n) {
            if (wroteSinceRead) {
                wroteSinceRead = false;
                roundTrips.incrementAndGet();
                currentRoundTripBytes = 0;
            }
            currentRoundTripBytes += n;
            maxBytesPerRoundTrip.accumulateAndGet(currentRoundTripBytes, Math::max);
            bytesIn.addAndGet(n);
        }
    }

    /**
     * Counts at one moment.
     *
     * @param roundTrips round trips
     * @param bytesIn bytes read
     * @param bytesOut bytes written
     * @param messages messages by type
     */
    public record Snapshot(long roundTrips, long bytesIn, long bytesOut, Map<Integer, Long> messages) {

        /**
         * Messages of one type.
         *
         * @param type the type
         * @return how many
         */
        public long messages(int type) {
            return messages.getOrDefault(type, 0L);
        }

        /**
         * What was counted since {@code earlier}.
         *
         * @param earlier an earlier snapshot of the same counter
         * @return the difference
         */
        public Snapshot minus(Snapshot earlier) {
            Map<Integer, Long> byType = new HashMap<>(messages);
            earlier.messages.forEach((type, n) -> byType.merge(type, -n, Long::sum));
            return new Snapshot(roundTrips - earlier.roundTrips, bytesIn - earlier.bytesIn,
                    bytesOut - earlier.bytesOut, Map.copyOf(byType));
        }
    }
}
