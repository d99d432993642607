package io.queryapigate.dialect.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Splits a PostgreSQL protocol stream into its messages (a type byte, then a 4-byte length that counts itself, then
 * the body). Needs a plain stream (no TLS or GSS encryption: {@code sslmode=disable&gssEncMode=disable}). One
 * instance per connection, since messages are cut across chunks however the driver or the server writes them.
 *
 * <ul>
 *   <li><b>What the server sends</b> ({@link #PostgresMessages(IntConsumer)}): each message's type as the message
 *       starts, e.g. {@code 'Z'} (ReadyForQuery: one per {@code Sync} or simple {@code Query}).
 *   <li><b>What the client sends</b> ({@link #fromClient(Consumer)}): first the untyped startup packets (SSLRequest,
 *       GSSENCRequest, then StartupMessage or CancelRequest: a length and a code, no type byte), which are skipped;
 *       then each typed message, complete, with the start of its body ({@link Message}). The client waits for the
 *       server after a {@code Sync} ({@code 'S'}) or a simple {@code Query} ({@code 'Q'}): those are its round
 *       trips ({@link Message#waitsForAnswer()}).
 * </ul>
 */
public final class PostgresMessages implements ByteTap {

    /** The type of ReadyForQuery. */
    public static final int READY_FOR_QUERY = 'Z';
    /** The type of the client's Sync: the end of an extended-protocol batch, answered with ReadyForQuery. */
    public static final int SYNC = 'S';
    /** The type of the client's simple Query, answered with ReadyForQuery. */
    public static final int QUERY = 'Q';

    /** What is kept of a client message's body, at the most. */
    private static final int KEPT = 4096;
    private static final int SSL_REQUEST = 80877103;
    private static final int GSSENC_REQUEST = 80877104;

    /**
     * One message a client sent.
     *
     * @param type the type byte ({@code 'P'} Parse, {@code 'B'} Bind, {@code 'E'} Execute, {@code 'S'} Sync,
     *     {@code 'Q'} Query, ...)
     * @param body the start of the body (at most 4 KiB)
     */
    public record Message(int type, byte[] body) {
        /** A Sync or a simple Query: the client now waits for the server's ReadyForQuery. */
        public boolean waitsForAnswer() {
            return type == SYNC || type == QUERY;
        }

        /**
         * The NUL-terminated string at a position of the body (Parse: the statement's name at 0, then its SQL;
         * Bind: the portal's name at 0, then the statement's; Execute: the portal's name; Query: the SQL).
         *
         * @param at where it starts
         * @return the string, cut at the end of the kept body; empty past it
         */
        public String cstring(int at) {
            if (at >= body.length) {
                return "";
            }
            int end = at;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            return new String(body, at, end - at, StandardCharsets.UTF_8);
        }

        /**
         * Where the NUL-terminated string starting at {@code at} ends, plus one: the next field.
         *
         * @param at where a string starts
         * @return the position after its NUL
         */
        public int after(int at) {
            int end = at;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            return end + 1;
        }
    }

    private final IntConsumer onStart;
    private final Consumer<Message> onMessage;
    private boolean untyped;
    private final byte[] header = new byte[8];
    private int headerRead;
    private int type;
    private long bodyLeft;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    /**
     * A parser for one connection's server stream.
     *
     * @param onMessage receives each message's type, as the message starts
     */
    public PostgresMessages(IntConsumer onMessage) {
        this.onStart = onMessage;
        this.onMessage = null;
        this.untyped = false;
    }

    private PostgresMessages(Consumer<Message> onMessage) {
        this.onStart = null;
        this.onMessage = onMessage;
        this.untyped = true;
    }

    /**
     * A parser for one connection's client stream, from its first byte (the startup packets are skipped).
     *
     * @param onMessage receives each typed message once it is complete
     * @return the parser
     */
    public static PostgresMessages fromClient(Consumer<Message> onMessage) {
        return new PostgresMessages(onMessage);
    }

    @Override
    public void bytes(byte[] bytes, int offset, int count) {
        int end = offset + count;
        int i = offset;
        while (i < end) {
            if (bodyLeft > 0) {
                int n = (int) Math.min(bodyLeft, end - i);
                if (onMessage != null && type != 0 && body.size() < KEPT) {
                    body.write(bytes, i, Math.min(n, KEPT - body.size()));
                }
                bodyLeft -= n;
                i += n;
                if (bodyLeft == 0) {
                    finish();
                }
                continue;
            }
            header[headerRead++] = bytes[i++];
            if (untyped) {
                // a startup packet: Int32 length (itself included), Int32 code, the rest
                if (headerRead == 8) {
                    int length = readInt(0);
                    int code = readInt(4);
                    headerRead = 0;
                    type = 0;
                    // SSLRequest and GSSENCRequest are answered with one byte, then another startup packet follows;
                    // after a StartupMessage (or a CancelRequest, which ends the connection) typed messages follow
                    untyped = code == SSL_REQUEST || code == GSSENC_REQUEST;
                    bodyLeft = Math.max(0, length - 8L);
                }
                continue;
            }
            if (headerRead == 1 && onStart != null) {
                onStart.accept(header[0] & 0xFF);
            }
            if (headerRead == 5) {
                headerRead = 0;
                type = header[0] & 0xFF;
                body.reset();
                bodyLeft = readInt(1) - 4L;
                if (bodyLeft <= 0) {
                    bodyLeft = 0;
                    finish();
                }
            }
        }
    }

    private int readInt(int at) {
        return (header[at] & 0xFF) << 24 | (header[at + 1] & 0xFF) << 16 | (header[at + 2] & 0xFF) << 8
                | header[at + 3] & 0xFF;
    }

    private void finish() {
        if (onMessage != null && type != 0) {
            onMessage.accept(new Message(type, body.toByteArray()));
        }
        type = 0;
    }
}
