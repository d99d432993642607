package io.queryapigate.dialect.h2;

import io.queryapigate.dialect.testkit.Processes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.h2.tools.Server;

/** Real H2 TCP servers for tests: in the test JVM, or in a JVM of their own, on a free local port. */
final class H2Servers {
    private H2Servers() {}

    /** A TCP server in a separate process, stopped with {@link #close()}. */
    record ServerProcess(Process process, int port, Path log) implements AutoCloseable {
        /** Stops the process (TERM, then KILL after 5 s). */
        @Override
        public void close() {
            Processes.stop(process, 5);
        }
    }

    /**
     * Starts a TCP server whose databases live under {@code base}; databases are created on first connection.
     *
     * @param base the server's base directory
     * @return the running server
     */
    static Server start(Path base) {
        int port = Processes.freePort();
        try {
            return Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir", base.toString(),
                    "-ifNotExists").start();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start an H2 TCP server on port " + port, e);
        }
    }

    /**
     * Starts {@code org.h2.tools.Server -tcp} in a JVM of its own (this JVM's {@code java}, the driver's jar), which
     * dies with the test JVM, and waits until it accepts connections.
     *
     * @param base the server's base directory, also where its log goes
     * @return the running server
     */
    static ServerProcess startProcess(Path base) throws IOException, InterruptedException {
        int port = Processes.freePort();
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar;
        try {
            jar = Path.of(Server.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        Path log = base.resolve("h2-server-" + port + ".log");
        Process process = new ProcessBuilder(Processes.dieWithUs(List.of(java, "-Xmx128m", "-cp", jar,
                "org.h2.tools.Server", "-tcp", "-tcpPort", Integer.toString(port), "-baseDir", base.toString(),
                "-ifNotExists"))).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the H2 server process exited: " + Processes.tail(log, 20));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new ServerProcess(process, port, log);
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        Processes.stop(process, 1);
        throw new IOException("the H2 server process did not listen on port " + port + " within 60 s: "
                + Processes.tail(log, 20));
    }
}
