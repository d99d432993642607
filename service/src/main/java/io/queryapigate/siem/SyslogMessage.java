package io.queryapigate.siem;

import io.queryapigate.store.AuditRow;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One audit entry as an RFC 5424 syslog message, framed with RFC 6587 octet counting ({@code LEN SP MSG}). The
 * MSGID is the entry's action; the structured data carry {@code [meta sequenceId]} (registered, RFC 5424 7.3.1) and
 * {@code [queryapigate@32473 ...]} with the seq, actor, target, workspace, request id and both hashes; the message is
 * the entry's JSON exactly as the hash covers it, after a UTF-8 BOM.
 */
public final class SyslogMessage {
    /** The SD-ID of the entry's fields; 32473 is the enterprise number RFC 5612 reserves for examples. */
    public static final String SD_ID = "queryapigate@32473";
    public static final String APP_NAME = "queryapigate";
    private static final int SEVERITY_INFO = 6;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")
            .withZone(ZoneOffset.UTC);
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private final String prefix;
    private final String hostname;
    private final String procId;

    /**
     * @param facility 0-23 (13: log audit)
     * @param hostname this host's name as the header carries it (printable ASCII, at most 255)
     */
    public SyslogMessage(int facility, String hostname) {
        if (facility < 0 || facility > 23) {
            throw new IllegalArgumentException("facility must be 0 to 23");
        }
        this.prefix = "<" + (facility * 8 + SEVERITY_INFO) + ">1 ";
        this.hostname = headerField(hostname, 255);
        this.procId = Long.toString(ProcessHandle.current().pid());
    }

    /** The message, without framing. */
    public byte[] message(AuditRow entry) {
        StringBuilder b = new StringBuilder(256 + entry.entryJson().length());
        b.append(prefix).append(STAMP.format(Instant.ofEpochMilli(entry.atMs()))).append(' ').append(hostname)
                .append(' ').append(APP_NAME).append(' ').append(procId).append(' ')
                .append(headerField(entry.action(), 32)).append(' ');
        // sequenceId counts 1 to 2147483647 and then starts again at 1 (RFC 5424 7.3.1)
        b.append("[meta sequenceId=\"").append((entry.seq() - 1) % Integer.MAX_VALUE + 1).append("\"]");
        b.append('[').append(SD_ID);
        param(b, "seq", Long.toString(entry.seq()));
        param(b, "actor", entry.actor());
        param(b, "actor_kind", entry.actorKind());
        param(b, "target", entry.target());
        param(b, "workspace", entry.workspace());
        param(b, "request_id", entry.requestId());
        param(b, "address", entry.address());
        param(b, "prev_hash", entry.prevHash());
        param(b, "hash", entry.hash());
        b.append("] ");
        byte[] head = b.toString().getBytes(StandardCharsets.UTF_8);
        byte[] body = entry.entryJson().getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + BOM.length + body.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(BOM, 0, out, head.length, BOM.length);
        System.arraycopy(body, 0, out, head.length + BOM.length, body.length);
        return out;
    }

    /** The message with its octet count in front (RFC 6587 3.4.1), ready for the stream. */
    public byte[] framed(AuditRow entry) {
        byte[] message = message(entry);
        byte[] count = (message.length + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[count.length + message.length];
        System.arraycopy(count, 0, out, 0, count.length);
        System.arraycopy(message, 0, out, count.length, message.length);
        return out;
    }

    private static void param(StringBuilder b, String name, String value) {
        if (value == null) {
            return;
        }
        b.append(' ').append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\' || c == ']') { // the three characters RFC 5424 6.3.3 escapes in PARAM-VALUE
                b.append('\\');
            }
            b.append(c);
        }
        b.append('"');
    }

    /** A header field: printable US-ASCII only (RFC 5424 6), cut to {@code max}; {@code -} (nil) when empty. */
    static String headerField(String value, int max) {
        if (value == null) {
            return "-";
        }
        StringBuilder b = new StringBuilder(Math.min(value.length(), max));
        for (int i = 0; i < value.length() && b.length() < max; i++) {
            char c = value.charAt(i);
            if (c >= 33 && c <= 126) {
                b.append(c);
            }
        }
        return b.isEmpty() ? "-" : b.toString();
    }
}
