package io.queryapigate.limits;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A rate such as {@code 100/minute}: {@code count} calls per {@code period}. */
public record Rate(long count, Duration period, String text) {
    private static final Pattern FORM = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(second|minute|hour|day|month)s?\\s*",
            Pattern.CASE_INSENSITIVE);

    private static final java.util.concurrent.ConcurrentMap<String, Rate> PARSED =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** {@link #parse}, remembered: rates come from a handful of key settings and are read on every call. */
    public static Rate of(String text) {
        Rate r = PARSED.get(text);
        if (r == null) {
            r = parse(text);
            if (PARSED.size() < 10_000) {
                PARSED.put(text, r);
            }
        }
        return r;
    }

    /**
     * Parses {@code N/second|minute|hour|day|month} (plural allowed); {@code month} is 30 days.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static Rate parse(String text) {
        Matcher m = text == null ? null : FORM.matcher(text);
        if (m == null || !m.matches() || Long.parseLong(m.group(1)) < 1) {
            throw new IllegalArgumentException("'" + text + "' is not a rate: use N/second, N/minute, N/hour, N/day"
                    + " or N/month with N >= 1");
        }
        Duration period = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "second" -> Duration.ofSeconds(1);
            case "minute" -> Duration.ofMinutes(1);
            case "hour" -> Duration.ofHours(1);
            case "day" -> Duration.ofDays(1);
            default -> Duration.ofDays(30);
        };
        return new Rate(Long.parseLong(m.group(1)), period, text.strip());
    }
}
