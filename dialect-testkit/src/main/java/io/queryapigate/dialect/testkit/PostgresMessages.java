package io.queryapigate.dialect.testkit;

import java.util.function.IntConsumer;

/**
 * Splits what a PostgreSQL server sends into its messages (a type byte, then a 4-byte length that counts itself,
 * then the body) and reports each message's type, e.g. {@code 'Z'} (ReadyForQuery: one per {@code Sync} or simple
 * {@code Query}). Needs a plain stream (no TLS or GSS encryption: {@code sslmode=disable&gssEncMode=disable}). One
 * instance per connection.
 */
public final class PostgresMessages implements ByteTap {

    /** The type of ReadyForQuery. */
    public static final int READY_FOR_QUERY = 'Z';

    private final IntConsumer onMessage;
    private int headerRead;
    private int length;
    private long bodyLeft;

    /**
     * A parser for one connection's server stream.
     *
     * @param onMessage receives each message's type, as the message starts
     */
    public PostgresMessages(IntConsumer onMessage) {
        this.onMessage = onMessage;
    }

    @Override
    public void bytes(byte[] bytes, int offset, int count) {
        int end = offset + count;
        for (int i = offset; i < end; i++) {
            if (bodyLeft > 0) {
                long skip = Math.min(bodyLeft, end - i);
                bodyLeft -= skip;
                i += (int) skip - 1;
                continue;
            }
            int b = bytes[i] & 0xFF;
            if (headerRead == 0) {
                onMessage.accept(b);
                length = 0;
                headerRead = 1;
            } else {
                length = (length << 8) | b;
                headerRead++;
                if (headerRead == 5) {
                    headerRead = 0;
                    bodyLeft = length - 4L;
                }
            }
        }
    }
}
