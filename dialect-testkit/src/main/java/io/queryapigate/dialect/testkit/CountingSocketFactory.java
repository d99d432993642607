package io.queryapigate.dialect.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.net.SocketFactory;

/**
 * A {@code javax.net.SocketFactory} of {@link CountingSocket}s, for drivers that take one by class name (pgjdbc's
 * {@code socketFactory}). Each socket's counter is kept under the factory's tag, so that a test finds the sockets its
 * dialect opened: {@link #sockets(String)}, oldest first.
 *
 * <p>A driver instantiates the factory itself, so a test subclasses it with the constructor the driver calls and the
 * protocol parser it wants on the server's stream; see {@code PgCountingSocketFactory} in dialect-postgres' tests.
 */
public abstract class CountingSocketFactory extends SocketFactory {

    private static final Map<String, List<CountingSocket.Counter>> SOCKETS = new ConcurrentHashMap<>();

    private final String tag;
    private final Function<CountingSocket.Counter, ByteTap> receivedTap;

    /**
     * A factory whose sockets are kept under {@code tag}.
     *
     * @param tag the tag the test finds its sockets by
     * @param receivedTap makes, for each socket, a tap on what the server sends (it may report messages to the
     *     counter it is given); null for none
     */
    protected CountingSocketFactory(String tag, Function<CountingSocket.Counter, ByteTap> receivedTap) {
        this.tag = tag;
        this.receivedTap = receivedTap;
    }

    /**
     * The counters of the sockets opened under {@code tag}, oldest first.
     *
     * @param tag the tag
     * @return the counters
     */
    public static List<CountingSocket.Counter> sockets(String tag) {
        return List.copyOf(SOCKETS.getOrDefault(tag, List.of()));
    }

    @Override
    public Socket createSocket() {
        CountingSocket.Counter counter = new CountingSocket.Counter();
        SOCKETS.computeIfAbsent(tag, t -> new CopyOnWriteArrayList<>()).add(counter);
        return new CountingSocket(counter, null, receivedTap == null ? null : receivedTap.apply(counter));
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return createSocket(address, port);
    }

    private Socket connected(InetSocketAddress address) throws IOException {
        Socket socket = createSocket();
        socket.connect(address);
        return socket;
    }
}
