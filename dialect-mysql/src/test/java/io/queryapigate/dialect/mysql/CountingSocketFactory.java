package io.queryapigate.dialect.mysql;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.ServerSession;
import com.mysql.cj.protocol.SocketConnection;
import com.mysql.cj.protocol.SocketFactory;
import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Connector/J {@code socketFactory} that records every command the client sends, read from the bytes on the
 * wire: each MySQL packet with sequence id 0 from the client starts a command (COM_QUERY 0x03, COM_PING 0x0e,
 * COM_QUIT 0x01, ...). Every command but COM_QUIT waits for the server's reply, so commands are round trips.
 * The handshake (login) packets have sequence ids above 0 and are not counted.
 *
 * <p>Global, for one test at a time: only dialects whose URL names this factory feed it.
 */
public final class CountingSocketFactory implements SocketFactory {

    /** One command seen on the wire. */
    record Command(int code, String sql) {
        boolean isQuery() {
            return code == 0x03;
        }

        boolean isPing() {
            return code == 0x0e;
        }
    }

    private static final List<Command> COMMANDS = new ArrayList<>();

    private Socket socket;

    /** Creates the factory (Connector/J, by class name). */
    public CountingSocketFactory() {}

    static synchronized void reset() {
        COMMANDS.clear();
    }

    static synchronized List<Command> commands() {
        return List.copyOf(COMMANDS);
    }

    private static synchronized void record(Command c) {
        COMMANDS.add(c);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Closeable> T connect(String host, int port, PropertySet props, int loginTimeout)
            throws IOException {
        Socket s = new Socket() {
            private OutputStream out;

            @Override
            public synchronized OutputStream getOutputStream() throws IOException {
                if (out == null) {
                    out = new PacketCounter(super.getOutputStream());
                }
                return out;
            }
        };
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), loginTimeout > 0 ? loginTimeout : 5000);
        socket = s;
        return (T) s;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Closeable> T performTlsHandshake(SocketConnection socketConnection, ServerSession serverSession)
            throws IOException {
        return (T) socket; // the tests connect with sslMode=DISABLED
    }

    @Override
    public boolean isLocallyConnected(com.mysql.cj.Session sess) {
        return false;
    }

    /** Parses the client's byte stream into packets, however the driver splits its writes. */
    private static final class PacketCounter extends FilterOutputStream {
        private final byte[] header = new byte[4];
        private int headerFill;
        private long remaining;
        private boolean commandPacket;
        private final java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();

        PacketCounter(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            int i = off;
            int end = off + len;
            while (i < end) {
                if (headerFill < 4) {
                    header[headerFill++] = b[i++];
                    if (headerFill == 4) {
                        remaining = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
                        commandPacket = header[3] == 0;
                        payload.reset();
                        if (remaining == 0) {
                            finish();
                        }
                    }
                    continue;
                }
                int n = (int) Math.min(remaining, end - i);
                if (commandPacket && payload.size() < 4096) {
                    payload.write(b, i, Math.min(n, 4096 - payload.size()));
                }
                i += n;
                remaining -= n;
                if (remaining == 0) {
                    finish();
                }
            }
        }

        private void finish() {
            if (commandPacket) {
                byte[] p = payload.toByteArray();
                int code = p.length == 0 ? -1 : p[0] & 0xff;
                String sql = code == 0x03 ? new String(p, 1, p.length - 1, StandardCharsets.UTF_8) : null;
                record(new Command(code, sql));
            }
            headerFill = 0;
        }
    }
}
