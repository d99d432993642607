package io.queryapigate.dialect.mysql;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.ServerSession;
import com.mysql.cj.protocol.SocketConnection;
import com.mysql.cj.protocol.SocketFactory;
import io.queryapigate.dialect.testkit.CountingSocket;
import io.queryapigate.dialect.testkit.MySqlCommands;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Connector/J's {@code socketFactory} (its own interface, hence this adapter): the testkit's {@link CountingSocket}
 * with a {@link MySqlCommands} tap, recording every command the client sends. Global, for one test at a time: only
 * dialects whose URL names this factory feed it.
 */
public final class MySqlCountingSocketFactory implements SocketFactory {

    private static final List<MySqlCommands.Command> COMMANDS = new CopyOnWriteArrayList<>();

    private Socket socket;

    /** Creates the factory (Connector/J, by class name). */
    public MySqlCountingSocketFactory() {}

    static void reset() {
        COMMANDS.clear();
    }

    static List<MySqlCommands.Command> commands() {
        return List.copyOf(COMMANDS);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Closeable> T connect(String host, int port, PropertySet props, int loginTimeout)
            throws IOException {
        Socket s = new CountingSocket(new CountingSocket.Counter(), new MySqlCommands(COMMANDS::add), null);
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(host, port), loginTimeout > 0 ? loginTimeout : 5000);
        socket = s;
        return (T) s;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends Closeable> T performTlsHandshake(SocketConnection socketConnection, ServerSession serverSession) {
        return (T) socket; // the tests connect with sslMode=DISABLED
    }

    @Override
    public boolean isLocallyConnected(com.mysql.cj.Session sess) {
        return false;
    }
}
