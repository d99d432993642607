package io.queryapigate.dialect.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The protocol taps read the same stream however it is cut into chunks. */
class WireParsersTest {

    /** Feeds {@code stream} in chunks of {@code size} bytes. */
    private static void feed(ByteTap tap, byte[] stream, int size) {
        for (int i = 0; i < stream.length; i += size) {
            byte[] chunk = new byte[size + 2];
            int n = Math.min(size, stream.length - i);
            System.arraycopy(stream, i, chunk, 1, n);
            tap.bytes(chunk, 1, n);
        }
    }

    private static byte[] mysqlPacket(int sequence, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(payload.length & 0xff);
        out.write(payload.length >> 8 & 0xff);
        out.write(payload.length >> 16 & 0xff);
        out.write(sequence);
        out.writeBytes(payload);
        return out.toByteArray();
    }

    private static byte[] command(int code, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[t.length + 1];
        p[0] = (byte) code;
        System.arraycopy(t, 0, p, 1, t.length);
        return p;
    }

    @Test
    void mysqlCommandsAreThePacketsWithSequenceZero() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(mysqlPacket(1, "login".getBytes(StandardCharsets.UTF_8)));
        stream.writeBytes(mysqlPacket(0, command(0x03, "select 1")));
        stream.writeBytes(mysqlPacket(0, command(0x0e, "")));
        stream.writeBytes(mysqlPacket(0, command(0x03, "SET SESSION sql_mode = ''")));
        stream.writeBytes(mysqlPacket(0, command(0x01, "")));
        for (int size : new int[] {1, 3, 7, 1000}) {
            List<MySqlCommands.Command> seen = new ArrayList<>();
            feed(new MySqlCommands(seen::add), stream.toByteArray(), size);
            assertThat(seen).as("chunks of %d", size).extracting(MySqlCommands.Command::kind)
                    .containsExactly("COM_QUERY SELECT", "COM_PING", "COM_QUERY SET SESSION SQL_MODE", "COM_QUIT");
            assertThat(seen.get(0).sql()).isEqualTo("select 1");
            assertThat(seen.get(0).isQuery()).isTrue();
            assertThat(seen.get(1).isPing()).isTrue();
        }
    }

    @Test
    void httpRequestsAreCountedByTheirRequestLines() {
        byte[] stream = ("POST /v1/statement HTTP/1.1\r\nHost: x\r\nContent-Length: 8\r\n\r\nSELECT 1"
                + "GET /v1/statement/q/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /v1/statement/q/2 HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int size : new int[] {1, 2, 5, 1000}) {
            AtomicLong requests = new AtomicLong();
            feed(new HttpRequests(requests::incrementAndGet), stream, size);
            assertThat(requests).as("chunks of %d", size).hasValue(3);
        }
    }

    private static byte[] pgMessage(char type, int bodyLength) {
        byte[] m = new byte[5 + bodyLength];
        m[0] = (byte) type;
        int length = bodyLength + 4;
        m[1] = (byte) (length >>> 24);
        m[2] = (byte) (length >>> 16);
        m[3] = (byte) (length >>> 8);
        m[4] = (byte) length;
        java.util.Arrays.fill(m, 5, m.length, (byte) 'Z'); // a body that looks like headers must not count
        return m;
    }

    @Test
    void postgresMessagesAreFramedByTheirLength() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(pgMessage('1', 0)); // ParseComplete
        stream.writeBytes(pgMessage('T', 40)); // RowDescription
        stream.writeBytes(pgMessage('D', 70_000)); // a large DataRow
        stream.writeBytes(pgMessage('C', 13)); // CommandComplete
        stream.writeBytes(pgMessage('Z', 1)); // ReadyForQuery
        for (int size : new int[] {1, 4, 4096, 100_000}) {
            CountingSocket.Counter counter = new CountingSocket.Counter();
            CountingSocket.Snapshot before = counter.snapshot();
            feed(new PostgresMessages(counter::message), stream.toByteArray(), size);
            CountingSocket.Snapshot after = counter.snapshot().minus(before);
            assertThat(after.messages(PostgresMessages.READY_FOR_QUERY)).as("chunks of %d", size).isEqualTo(1);
            assertThat(after.messages('D')).isEqualTo(1);
            assertThat(counter.messages('T')).isEqualTo(1);
            assertThat(after.messages('E')).isZero();
        }
    }

    private static byte[] pgClientMessage(char type, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        int length = body.length + 4;
        out.write(length >>> 24);
        out.write(length >>> 16 & 0xff);
        out.write(length >>> 8 & 0xff);
        out.write(length & 0xff);
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] cstrings(String... strings) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String s : strings) {
            out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        out.writeBytes(new byte[] {0, 0}); // e.g. Parse's parameter type count
        return out.toByteArray();
    }

    private static byte[] startupPacket(int code, byte[] rest) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int length = 8 + rest.length;
        out.write(length >>> 24);
        out.write(length >>> 16 & 0xff);
        out.write(length >>> 8 & 0xff);
        out.write(length & 0xff);
        out.write(code >>> 24);
        out.write(code >>> 16 & 0xff);
        out.write(code >>> 8 & 0xff);
        out.write(code & 0xff);
        out.writeBytes(rest);
        return out.toByteArray();
    }

    @Test
    void postgresClientMessagesAfterTheStartupPackets() {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.writeBytes(startupPacket(80877103, new byte[0])); // SSLRequest (refused by the server: 'N')
        // StartupMessage, protocol 3.0; its parameters hold bytes that look like message types
        stream.writeBytes(startupPacket(196608, cstrings("user", "SQS", "database", "test")));
        stream.writeBytes(pgClientMessage('p', cstrings("secret"))); // PasswordMessage
        stream.writeBytes(pgClientMessage('P', cstrings("", "SELECT 1")));
        stream.writeBytes(pgClientMessage('B', cstrings("", "")));
        stream.writeBytes(pgClientMessage('E', new byte[] {0, 0, 0, 0, 0}));
        stream.writeBytes(pgClientMessage('S', new byte[0]));
        stream.writeBytes(pgClientMessage('Q', cstrings("x".repeat(10_000))));
        stream.writeBytes(pgClientMessage('X', new byte[0]));
        for (int size : new int[] {1, 3, 7, 1000, 100_000}) {
            List<PostgresMessages.Message> seen = new ArrayList<>();
            feed(PostgresMessages.fromClient(seen::add), stream.toByteArray(), size);
            assertThat(seen).as("chunks of %d", size).extracting(m -> (char) m.type())
                    .containsExactly('p', 'P', 'B', 'E', 'S', 'Q', 'X');
            assertThat(seen.get(1).cstring(0)).isEmpty();
            assertThat(seen.get(1).cstring(seen.get(1).after(0))).isEqualTo("SELECT 1");
            assertThat(seen).filteredOn(PostgresMessages.Message::waitsForAnswer).extracting(m -> (char) m.type())
                    .containsExactly('S', 'Q');
            assertThat(seen.get(5).body()).as("a long body is kept up to 4 KiB").hasSize(4096);
        }
    }
}
