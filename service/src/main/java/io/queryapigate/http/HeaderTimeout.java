package io.queryapigate.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Ends a connection whose request line and headers take longer than a bound to arrive (slowloris: a header byte now
 * and then keeps Jetty's idle timeout from ever firing), with a 408 in the error envelope. Each HTTP/1 connection is
 * looked at every quarter of the bound; one seen in the middle of the same request's headers for the whole bound is
 * answered and closed. Added to a connector as a bean, before the server starts.
 */
public final class HeaderTimeout implements Connection.Listener {
    private final long timeoutNanos;
    private final Scheduler scheduler;

    /** @param timeout how long a request's line and headers may take; @param scheduler the connector's */
    public HeaderTimeout(java.time.Duration timeout, Scheduler scheduler) {
        this.timeoutNanos = timeout.toNanos();
        this.scheduler = scheduler;
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            new Watch(http).schedule();
        }
    }

    private static boolean inHeaders(HttpParser parser) {
        HttpParser.State state = parser.getState();
        return state.ordinal() > HttpParser.State.START.ordinal()
                && state.ordinal() < HttpParser.State.CONTENT.ordinal();
    }

    /** One connection's watch: when it was first seen in the headers of its current request. */
    private final class Watch implements Runnable {
        private final HttpConnection connection;
        private long request = -1;
        private long since;

        Watch(HttpConnection connection) {
            this.connection = connection;
        }

        void schedule() {
            scheduler.schedule(this, Math.max(1, timeoutNanos / 4), TimeUnit.NANOSECONDS);
        }

        @Override
        public void run() {
            EndPoint endPoint = connection.getEndPoint();
            if (!endPoint.isOpen()) {
                return;
            }
            long now = System.nanoTime();
            if (!inHeaders(connection.getParser())) {
                request = -1;
            } else if (request != connection.getMessagesIn()) {
                request = connection.getMessagesIn();
                since = now;
            } else if (now - since >= timeoutNanos) {
                refuse(endPoint);
                return;
            }
            schedule();
        }

        private void refuse(EndPoint endPoint) {
            String id = RequestIds.generate();
            String body = "{\"error\":\"The request's headers did not arrive in time.\",\"code\":\"request_timeout\","
                    + "\"request_id\":\"" + id + "\"}";
            String answer = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length() + "\r\nX-Request-Id: " + id + "\r\nX-Content-Type-Options: nosniff\r\n"
                    + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + body;
            endPoint.write(Callback.from(endPoint::close, failed -> endPoint.close()),
                    ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)));
        }
    }
}
