package io.queryapigate.dialect.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads the commands a MySQL or MariaDB client sends from its byte stream (without TLS): every packet with sequence
 * id 0 starts a command (COM_QUERY 0x03, COM_PING 0x0e, COM_QUIT 0x01, ...). Every command but COM_QUIT waits for
 * the server's answer, so commands are round trips. The login packets have sequence ids above 0 and are not
 * commands. One instance per connection, since packets are cut across chunks however the driver writes them; the
 * commands go to a consumer that may be shared.
 *
 * <p>Fed by a {@link TcpProxy} tap (the benchmarks' wire counter) or by a counting socket under Connector/J (the
 * dialect's round-trip tests).
 */
public final class MySqlCommands implements ByteTap {

    /** What is kept of a command's payload, at the most. */
    private static final int KEPT = 4096;

    /**
     * One command seen on the wire.
     *
     * @param code the command byte, or -1 for an empty packet
     * @param sql the statement of a COM_QUERY (its first 4 KiB), else null
     */
    public record Command(int code, String sql) {
        /** COM_QUERY. */
        public boolean isQuery() {
            return code == 0x03;
        }

        /** COM_PING. */
        public boolean isPing() {
            return code == 0x0e;
        }

        /**
         * The command's name, a COM_QUERY with the statement's first words (up to three), e.g. {@code COM_QUERY
         * SELECT} or {@code COM_QUERY SET SESSION}.
         */
        public String kind() {
            return switch (code) {
                case 0x01 -> "COM_QUIT";
                case 0x02 -> "COM_INIT_DB";
                case 0x03 -> "COM_QUERY " + firstWords(sql);
                case 0x0e -> "COM_PING";
                case 0x16 -> "COM_STMT_PREPARE";
                case 0x17 -> "COM_STMT_EXECUTE";
                case 0x19 -> "COM_STMT_CLOSE";
                case 0x1f -> "COM_RESET_CONNECTION";
                default -> "COM_0x" + Integer.toHexString(code & 0xff);
            };
        }

        private static String firstWords(String sql) {
            String[] words = sql.trim().split("\\s+");
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(3, words.length); i++) {
                if (!words[i].matches("[A-Za-z_]{1,24}")) {
                    break;
                }
                sb.append(i == 0 ? "" : " ").append(words[i].toUpperCase(java.util.Locale.ROOT));
            }
            return sb.toString();
        }
    }

    private final Consumer<Command> commands;
    private final byte[] header = new byte[4];
    private int headerFill;
    private long remaining;
    private boolean commandPacket;
    private final ByteArrayOutputStream payload = new ByteArrayOutputStream();

    /**
     * A parser for one connection's client stream.
     *
     * @param commands receives each command once its packet is complete
     */
    public MySqlCommands(Consumer<Command> commands) {
        this.commands = commands;
    }

    @Override
    public void bytes(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            if (headerFill < 4) {
                header[headerFill++] = bytes[i++];
                if (headerFill == 4) {
                    remaining = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
                    commandPacket = header[3] == 0;
                    payload.reset();
                    if (remaining == 0) {
                        finish();
                    }
                }
                continue;
            }
            int n = (int) Math.min(remaining, end - i);
            if (commandPacket && payload.size() < KEPT) {
                payload.write(bytes, i, Math.min(n, KEPT - payload.size()));
            }
            i += n;
            remaining -= n;
            if (remaining == 0) {
                finish();
            }
        }
    }

    private void finish() {
        if (commandPacket) {
            byte[] p = payload.toByteArray();
            int code = p.length == 0 ? -1 : p[0] & 0xff;
            String sql = code == 0x03 ? new String(p, 1, p.length - 1, StandardCharsets.UTF_8) : null;
            commands.accept(new Command(code, sql));
        }
        headerFill = 0;
    }
}
