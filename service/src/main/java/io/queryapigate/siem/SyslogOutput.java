package io.queryapigate.siem;

import io.queryapigate.store.AuditRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Syslog over TCP ({@code tcp://host:port}) or TLS ({@code tls://host:port}, RFC 5425; with a client certificate for
 * mutual TLS), octet-counted RFC 5424 messages. Syslog has no acknowledgement, so each batch goes over a connection
 * of its own that this side then half-closes: the batch counts as taken only when the receiver, having read to the
 * end, closes its side in turn. A receiver that died, refused the client certificate or reset the connection makes
 * the batch fail, and it is sent again.
 */
public final class SyslogOutput implements AuditOutput {
    private static final int ACCEPTANCE_MIN_MS = 250;

    private final String host;
    private final int port;
    private final SSLContext tls;
    private final SyslogMessage format;
    private final int timeoutMillis;

    /**
     * @param tls null for plain TCP
     */
    public SyslogOutput(String host, int port, SSLContext tls, SyslogMessage format, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.format = format;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public String type() {
        return "syslog";
    }

    @Override
    public String target() {
        return (tls == null ? "tcp://" : "tls://") + host + ":" + port;
    }

    @Override
    public void send(List<AuditRow> entries) throws IOException {
        ByteArrayOutputStream payload = new ByteArrayOutputStream(entries.size() * 512);
        for (AuditRow entry : entries) {
            payload.writeBytes(format.framed(entry));
        }
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(payload.toByteArray());
            out.flush();
            socket.shutdownOutput();
            awaitClose(socket.getInputStream());
        }
    }

    private Socket open() throws IOException {
        Socket raw = new Socket();
        try {
            raw.connect(new InetSocketAddress(host, port), timeoutMillis);
            raw.setSoTimeout(timeoutMillis);
            if (tls == null) {
                return raw;
            }
            SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(raw, host, port, true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name host
            parameters.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
            if (!Character.isDigit(host.charAt(host.length() - 1)) && !host.contains(":")) {
                parameters.setServerNames(List.of(new SNIHostName(host)));
            }
            socket.setSSLParameters(parameters);
            long started = System.nanoTime();
            socket.startHandshake();
            awaitAcceptance(socket, (System.nanoTime() - started) / 1_000_000);
            return socket;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /**
     * With TLS 1.3 the handshake ends on this side before the receiver has judged the client certificate; a receiver
     * that refuses it (rsyslog's {@code x509/certvalid}, or a missing certificate) closes the connection just after.
     * Waiting for that close, up to twice the handshake's time and at least {@value #ACCEPTANCE_MIN_MS} ms, turns a
     * refusal into a failed batch instead of a batch written into a closing connection.
     */
    private void awaitAcceptance(SSLSocket socket, long handshakeMillis) throws IOException {
        int wait = (int) Math.min(timeoutMillis, Math.max(ACCEPTANCE_MIN_MS, 2 * handshakeMillis));
        socket.setSoTimeout(wait);
        try {
            int read = socket.getInputStream().read();
            throw new IOException(read < 0 ? "the syslog receiver closed the connection right after the TLS"
                    + " handshake: it refused this client (its certificate?)"
                    : "the syslog receiver sent data; it is not a syslog receiver");
        } catch (SocketTimeoutException quiet) {
            socket.setSoTimeout(timeoutMillis); // still open and silent: accepted
        }
    }

    /** Reads until the receiver closes; a syslog receiver sends nothing, so data before the end is a protocol error. */
    private static void awaitClose(InputStream in) throws IOException {
        byte[] buffer = new byte[512];
        int n;
        try {
            while ((n = in.read(buffer)) >= 0) {
                if (n > 0) {
                    throw new IOException("the syslog receiver answered with data; it is not a syslog receiver");
                }
            }
        } catch (SocketTimeoutException e) {
            throw new IOException("the syslog receiver did not close the connection after the batch: not known to"
                    + " have taken it", e);
        }
    }
}
