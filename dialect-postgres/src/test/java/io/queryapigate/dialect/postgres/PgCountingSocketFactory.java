package io.queryapigate.dialect.postgres;

import io.queryapigate.dialect.testkit.CountingSocket;
import io.queryapigate.dialect.testkit.CountingSocketFactory;
import io.queryapigate.dialect.testkit.PostgresMessages;
import java.util.List;
import java.util.Properties;

/**
 * pgjdbc's {@code socketFactory}: the testkit's counting sockets, with the server's messages counted by type (so
 * {@code messages(READY_FOR_QUERY)} is one per {@code Sync} or simple {@code Query}). Route a connection through it
 * with {@link #urlParameters(String)}; find its sockets with {@link #sockets(String)} or {@link #sessions(String)}
 * (cancel requests open sockets too).
 */
public final class PgCountingSocketFactory extends CountingSocketFactory {

    /**
     * Called by pgjdbc with the connection properties.
     *
     * @param info the connection properties; {@code socketFactoryArg} is the tag
     */
    public PgCountingSocketFactory(Properties info) {
        super(info.getProperty("socketFactoryArg", "default"), counter -> new PostgresMessages(counter::message));
    }

    /**
     * The URL parameters that route a pgjdbc connection through this factory, unencrypted (so that every server
     * message is a framed protocol message).
     *
     * @param tag the tag to find its sockets by
     * @return the parameters
     */
    static String[] urlParameters(String tag) {
        return new String[] {"socketFactory=" + PgCountingSocketFactory.class.getName(), "socketFactoryArg=" + tag,
            "sslmode=disable", "gssEncMode=disable"};
    }

    /**
     * The counters of sockets under {@code tag} that carried a session (the server sent ReadyForQuery at least
     * once); cancel-request sockets are left out.
     *
     * @param tag the tag
     * @return the counters
     */
    static List<CountingSocket.Counter> sessions(String tag) {
        return sockets(tag).stream().filter(c -> c.messages(PostgresMessages.READY_FOR_QUERY) > 0).toList();
    }
}
