package io.queryapigate.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.ResolverStyle;
import java.util.regex.Pattern;

/**
 * Times as the management API writes and reads them, like the Python original: {@code YYYY-MM-DD HH:MM:SS} in the
 * server's time zone (the JVM's default, which {@code /health} names), to the second. Bounds given by a caller may
 * also be a date alone, or an ISO-8601 instant with its offset ({@code 2026-01-31T12:00:00Z}).
 */
public final class ServerTime {
    private static final DateTimeFormatter TEXT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);
    private static final Pattern LOCAL = Pattern.compile("\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2})?");

    private ServerTime() {}

    /** Epoch milliseconds as {@code YYYY-MM-DD HH:MM:SS} in the server's zone. */
    public static String format(long epochMillis) {
        return TEXT.format(Instant.ofEpochMilli(epochMillis).atZone(ZoneId.systemDefault()));
    }

    /** A time that already has its zone, as {@code YYYY-MM-DD HH:MM:SS}. */
    public static String format(ZonedDateTime time) {
        return TEXT.format(time);
    }

    /**
     * A caller's time bound as epoch milliseconds: {@code YYYY-MM-DD} (its start), {@code YYYY-MM-DD HH:MM:SS} or
     * with a {@code T} for the space (server time), or an instant with an offset.
     *
     * @throws IllegalArgumentException when it is none of these, naming what is accepted
     */
    public static long parseBound(String text) {
        String t = text.strip();
        try {
            if (t.length() > 19 && (t.endsWith("Z") || t.lastIndexOf('+') > 10 || t.lastIndexOf('-') > 10)) {
                return OffsetDateTime.parse(t).toInstant().toEpochMilli();
            }
            String local = t.replace('T', ' ');
            if (!LOCAL.matcher(local).matches()) {
                throw new IllegalArgumentException("must be a date (YYYY-MM-DD) or a time (YYYY-MM-DD HH:MM:SS)");
            }
            LocalDateTime at = local.length() == 10 ? LocalDate.parse(local).atStartOfDay()
                    : LocalDateTime.parse(local, TEXT);
            return at.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("is not a real date or time");
        }
    }
}
