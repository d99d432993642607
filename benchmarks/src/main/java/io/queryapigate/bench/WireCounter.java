package io.queryapigate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy in front of MariaDB that reads the MySQL protocol the client sends and counts commands: a
 * packet with sequence id 0 starts a command (COM_QUERY, COM_PING, ...), and the client waits for its answer, so
 * commands are round trips. Only works without TLS (the test server has none: have_ssl = DISABLED).
 */
final class WireCounter implements AutoCloseable {
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final AtomicLong commands = new AtomicLong();
    private final Map<String, AtomicLong> byKind = new ConcurrentHashMap<>();
    private volatile boolean closed;

    WireCounter(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "wire-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
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

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket db = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                db.setTcpNoDelay(true);
                Thread up = new Thread(() -> pumpCounting(client, db), "wire-up");
                Thread down = new Thread(() -> pump(db, client), "wire-down");
                up.setDaemon(true);
                down.setDaemon(true);
                up.start();
                down.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("wire counter: " + e);
                }
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        byte[] buf = new byte[65536];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // connection ended
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Client to server: forwards every byte and parses packet headers on the way. */
    private void pumpCounting(Socket from, Socket to) {
        byte[] buf = new byte[65536];
        // parser state: header bytes still needed, or payload bytes still to skip
        byte[] header = new byte[4];
        int headerHave = 0;
        long payloadLeft = 0;
        boolean inCommand = false;
        byte[] head = new byte[48];
        int headHave = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
                out.flush();
                int i = 0;
                while (i < n) {
                    if (payloadLeft == 0 && headerHave < 4) {
                        header[headerHave++] = buf[i++];
                        if (headerHave == 4) {
                            payloadLeft = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
                            inCommand = header[3] == 0;
                            headHave = 0;
                            if (payloadLeft == 0) {
                                headerHave = 0;
                            }
                        }
                        continue;
                    }
                    int take = (int) Math.min(payloadLeft, n - i);
                    if (inCommand && headHave < head.length) {
                        int c = Math.min(take, head.length - headHave);
                        System.arraycopy(buf, i, head, headHave, c);
                        headHave += c;
                    }
                    i += take;
                    payloadLeft -= take;
                    if (payloadLeft == 0) {
                        if (inCommand) {
                            count(head, headHave);
                        }
                        headerHave = 0;
                    }
                }
            }
        } catch (IOException e) {
            // connection ended
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void count(byte[] head, int len) {
        if (len == 0) {
            return;
        }
        commands.incrementAndGet();
        String kind = switch (head[0]) {
            case 0x01 -> "COM_QUIT";
            case 0x02 -> "COM_INIT_DB";
            case 0x03 -> "COM_QUERY " + firstWords(new String(head, 1, len - 1, StandardCharsets.UTF_8));
            case 0x0e -> "COM_PING";
            case 0x16 -> "COM_STMT_PREPARE";
            case 0x17 -> "COM_STMT_EXECUTE";
            case 0x19 -> "COM_STMT_CLOSE";
            case 0x1f -> "COM_RESET_CONNECTION";
            default -> "COM_0x" + Integer.toHexString(head[0] & 0xff);
        };
        byKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private static String firstWords(String sql) {
        String[] w = sql.trim().split("\\s+");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(3, w.length); i++) {
            String t = w[i];
            if (!t.matches("[A-Za-z_]{1,24}")) {
                break;
            }
            sb.append(i == 0 ? "" : " ").append(t.toUpperCase());
        }
        return sb.toString();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
