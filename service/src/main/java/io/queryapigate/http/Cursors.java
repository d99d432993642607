package io.queryapigate.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Paging cursors the management API hands out ({@code next_cursor}) and reads back: a position (a positive id or
 * seq) under a one-letter kind, so that a cursor of one listing is not taken by another.
 */
public final class Cursors {
    private Cursors() {}

    public static String encode(char kind, long position) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((kind + Long.toString(position)).getBytes(StandardCharsets.UTF_8));
    }

    /** The position {@code text} holds, or -1 when it is not a cursor of this kind this server wrote. */
    public static long decode(char kind, String text) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(text.strip()), StandardCharsets.UTF_8);
            if (decoded.length() > 1 && decoded.charAt(0) == kind) {
                long position = Long.parseLong(decoded.substring(1));
                return position > 0 ? position : -1;
            }
        } catch (IllegalArgumentException e) { // not base64, not a number: not one of ours
            return -1;
        }
        return -1;
    }
}
