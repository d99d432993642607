package io.queryapigate.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;

/**
 * Bounds the connections one client address holds open on a connector: one over the bound is closed as soon as it is
 * accepted, before anything is read from it, so a flood of held sockets from one address cannot use up the process's
 * file descriptors and starve every other caller. The connections are kept per address and, when one would go over
 * the bound, those already closed are dropped first (a connection Jetty closes while it is being set up may never be
 * reported closed). Added to a connector as a bean.
 */
public final class ConnectionsPerAddress implements Connection.Listener {
    private final int max;
    private final ConcurrentHashMap<InetAddress, Set<Connection>> open = new ConcurrentHashMap<>();

    /** @param max the most connections one address holds open at once */
    public ConnectionsPerAddress(int max) {
        this.max = max;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress address = address(connection);
        if (address == null) {
            return;
        }
        boolean over = false;
        Set<Connection> connections = open.computeIfAbsent(address, a -> ConcurrentHashMap.newKeySet());
        connections.add(connection);
        if (connections.size() > max) {
            connections.removeIf(c -> !c.getEndPoint().isOpen());
            over = connections.size() > max;
        }
        if (over) {
            connections.remove(connection);
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress address = address(connection);
        if (address != null) {
            Set<Connection> connections = open.get(address);
            if (connections != null) {
                connections.remove(connection);
                open.computeIfPresent(address, (a, c) -> c.isEmpty() ? null : c);
            }
        }
    }

    private static InetAddress address(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
