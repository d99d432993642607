package io.queryapigate.http;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Times as the management API writes them, like the Python original: {@code 2026-12-01 20:26:00}, wall-clock time in
 * the server's time zone (to the second).
 */
public final class Times {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private Times() {}

    /** An instant, as epoch milliseconds. */
    public static String local(long epochMillis) {
        return FORMAT.format(Instant.ofEpochMilli(epochMillis).atZone(ZoneId.systemDefault()));
    }

    /** A time that already has its zone. */
    public static String local(ZonedDateTime time) {
        return FORMAT.format(time);
    }
}
