package io.queryapigate.dialect.h2;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import org.h2.tools.Server;

/** Real H2 TCP servers for tests, in the test JVM, on a free local port. */
final class H2Servers {
    private H2Servers() {}

    /**
     * Starts a TCP server whose databases live under {@code base}; databases are created on first connection.
     *
     * @param base the server's base directory
     * @return the running server
     */
    static Server start(Path base) throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        try {
            return Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir", base.toString(),
                    "-ifNotExists").start();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start an H2 TCP server on port " + port, e);
        }
    }
}
