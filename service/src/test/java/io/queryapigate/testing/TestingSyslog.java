package io.queryapigate.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The syslog receiver of the SIEM tests, as {@code scripts/test-services.sh start rsyslog} runs it: our own rsyslogd
 * with plain TCP ({@code QAG_RSYSLOG_TCP}, else 127.0.0.1:16514), TLS ({@code QAG_RSYSLOG_TLS}, 16515) and mutual
 * TLS ({@code QAG_RSYSLOG_MTLS}, 16516), each writing the raw messages it receives, one a line, to {@code tcp.log},
 * {@code tls.log}, {@code mtls.log} in {@code QAG_RSYSLOG_DIR} (else /opt/qag-rsyslog), beside the test CA
 * ({@code ca.pem}) and the client certificate ({@code client.pem}, {@code client-key.pem}). A receiver that does not
 * accept connections fails the test, naming the command that starts it; nothing is skipped. {@link #privateTcp()}
 * starts a receiver of the test's own, which the test may stop and start again.
 */
public final class TestingSyslog {
    private static final Pattern SEQ = Pattern.compile("\\[queryapigate@32473 seq=\"(\\d+)\"");
    private static final String START = "scripts/test-services.sh start rsyslog";

    private TestingSyslog() {}

    /** The directory of the received files, CA and client certificate. */
    public static Path dir() {
        String d = System.getenv("QAG_RSYSLOG_DIR");
        return Path.of(d == null || d.isBlank() ? "/opt/qag-rsyslog" : d.strip());
    }

    /** host:port of plain TCP, checked to accept a connection. */
    public static String tcp() {
        return checked("QAG_RSYSLOG_TCP", "127.0.0.1:16514");
    }

    /** host:port of TLS (anonymous clients). */
    public static String tls() {
        return checked("QAG_RSYSLOG_TLS", "127.0.0.1:16515");
    }

    /** host:port of mutual TLS (a client certificate signed by the test CA required). */
    public static String mtls() {
        return checked("QAG_RSYSLOG_MTLS", "127.0.0.1:16516");
    }

    public static Path caFile() {
        return dir().resolve("ca.pem");
    }

    public static Path clientCert() {
        return dir().resolve("client.pem");
    }

    public static Path clientKey() {
        return dir().resolve("client-key.pem");
    }

    /** What the port {@code tcp}, {@code tls} or {@code mtls} received. */
    public static Path received(String port) {
        return dir().resolve(port + ".log");
    }

    /** The received lines (messages) of {@code file} that contain {@code marker}; none while the file is missing. */
    public static List<String> lines(Path file, String marker) {
        try {
            if (!Files.exists(file)) {
                return List.of();
            }
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> l.contains(marker)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The audit seqs of the messages in {@code file} that contain {@code marker}, in the order they arrived. */
    public static List<Long> seqs(Path file, String marker) {
        return lines(file, marker).stream().map(l -> {
            Matcher m = SEQ.matcher(l);
            if (!m.find()) {
                throw new AssertionError("no seq in " + l);
            }
            return Long.parseLong(m.group(1));
        }).toList();
    }

    private static String checked(String variable, String fallback) {
        String address = System.getenv(variable);
        address = address == null || address.isBlank() ? fallback : address.strip();
        int colon = address.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address.substring(0, colon),
                    Integer.parseInt(address.substring(colon + 1))), 3_000);
        } catch (IOException e) {
            throw new IllegalStateException("rsyslog does not accept connections at " + address + " (" + variable
                    + "): start it with " + START, e);
        }
        return address;
    }

    /** A plain-TCP rsyslogd of the test's own on a free port of 127.0.0.1, not started yet. */
    public static Private privateTcp() {
        try {
            Path home = Files.createTempDirectory("qag-rsyslog-");
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            Files.createDirectories(home.resolve("work"));
            Files.writeString(home.resolve("rsyslog.conf"), "global(workDirectory=\"" + home.resolve("work")
                    + "\" maxMessageSize=\"256k\" net.enableDNS=\"off\")\n"
                    + "module(load=\"imtcp\")\n"
                    + "template(name=\"raw\" type=\"string\" string=\"%rawmsg%\\n\")\n"
                    + "ruleset(name=\"in\") { action(type=\"omfile\" file=\"" + home.resolve("received.log")
                    + "\" template=\"raw\" flushOnTXEnd=\"on\" asyncWriting=\"off\") }\n"
                    + "input(type=\"imtcp\" address=\"127.0.0.1\" port=\"" + port + "\" ruleset=\"in\")\n");
            return new Private(home, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A receiver the test starts and stops; {@link #received()} keeps what every run of it took. */
    public static final class Private implements AutoCloseable {
        private final Path home;
        private final int port;
        private Process process;

        private Private(Path home, int port) {
            this.home = home;
            this.port = port;
        }

        public String address() {
            return "127.0.0.1:" + port;
        }

        public Path received() {
            return home.resolve("received.log");
        }

        /** Starts rsyslogd and returns once the port accepts connections. */
        public void start() {
            String rsyslogd = Files.isExecutable(Path.of("/usr/sbin/rsyslogd")) ? "/usr/sbin/rsyslogd" : "rsyslogd";
            try {
                process = new ProcessBuilder(rsyslogd, "-n", "-f", home.resolve("rsyslog.conf").toString(), "-i",
                        home.resolve("rsyslogd.pid").toString())
                        .redirectErrorStream(true).redirectOutput(home.resolve("rsyslogd.out").toFile()).start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot run rsyslogd (Debian package rsyslog: " + START + ")", e);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (System.nanoTime() < deadline) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                    return;
                } catch (IOException notYet) {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("rsyslogd exited: " + output());
                    }
                    sleep(50);
                }
            }
            throw new IllegalStateException("rsyslogd did not listen on " + port + " within 15s: " + output());
        }

        /** Stops rsyslogd (SIGTERM, waiting for it); the port then refuses connections. */
        public void stop() {
            if (process != null && process.isAlive()) {
                process.destroy();
                try {
                    if (!process.waitFor(15, TimeUnit.SECONDS)) {
                        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            process = null;
        }

        @Override
        public void close() {
            stop();
        }

        private String output() {
            try {
                return Files.readString(home.resolve("rsyslogd.out"));
            } catch (IOException e) {
                return e.toString();
            }
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
