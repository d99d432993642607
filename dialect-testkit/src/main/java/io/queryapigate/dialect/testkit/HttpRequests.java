package io.queryapigate.dialect.testkit;

import java.nio.charset.StandardCharsets;

/**
 * Counts the HTTP/1.1 requests in what one client sends, by their request lines' ending {@code " HTTP/1.1\r\n"}
 * (bodies are not parsed: a body holding that text would count too, which the tests' JSON and SQL never do). One
 * instance per connection, since a request line may be cut between two chunks; the count goes to a callback shared
 * by all of them:
 *
 * <pre>{@code
 * AtomicLong requests = new AtomicLong();
 * TcpProxy proxy = TcpProxy.to(trino).tap(() -> new HttpRequests(requests::incrementAndGet)).start();
 * }</pre>
 */
public final class HttpRequests implements ByteTap {
    private static final byte[] REQUEST_LINE_END = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Runnable onRequest;
    private int matched;

    /**
     * A counter for one connection.
     *
     * @param onRequest called once per request line
     */
    public HttpRequests(Runnable onRequest) {
        this.onRequest = onRequest;
    }

    @Override
    public void bytes(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = bytes[i];
            if (b == REQUEST_LINE_END[matched]) {
                matched++;
                if (matched == REQUEST_LINE_END.length) {
                    onRequest.run();
                    matched = 0;
                }
            } else {
                matched = b == REQUEST_LINE_END[0] ? 1 : 0;
            }
        }
    }
}
