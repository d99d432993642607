package io.queryapigate.listing;

import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The query parameters the management API's listings share (the run history, the audit log): a page's {@code
 * limit}, {@code since}/{@code until} bounds, and the paging cursor each answer hands out as {@code next_cursor} and
 * reads back: a position (a positive id or seq) under a one-letter kind, so that one listing's cursor is refused by
 * another. A bad value is 400 naming its parameter.
 */
public final class ListingParams {
    private ListingParams() {}

    /** 400 {@code invalid_filter} naming the parameter. */
    public static ApiException invalid(String name, String message) {
        return new ApiException(400, "invalid_filter", message, Map.of(name, message));
    }

    public static boolean blank(String text) {
        return text == null || text.isEmpty();
    }

    /**
     * A whole number as written, null when absent; beyond an int it is -1 (which no limit accepts and no version has);
     * not a number: 400 {@code invalid_request}.
     */
    public static Integer integer(String text, String name) {
        if (blank(text)) {
            return null;
        }
        try {
            BigInteger n = new BigInteger(text.strip());
            return n.bitLength() < 32 ? n.intValue() : -1;
        } catch (NumberFormatException e) {
            throw new ApiException(400, "invalid_request", name + " must be an integer",
                    Map.of(name, "must be an integer"));
        }
    }

    /** The page size asked for: {@code absent} when not given, else 1 to {@code max}. */
    public static int limit(String text, int absent, int max) {
        Integer limit = integer(text, "limit");
        int size = limit == null ? absent : limit;
        if (size < 1 || size > max) {
            throw invalid("limit", "limit must be between 1 and " + max);
        }
        return size;
    }

    /** A time bound ({@link ServerTime#parseBound}) in epoch milliseconds, {@code absent} when not given. */
    public static long bound(String text, String name, long absent) {
        if (blank(text)) {
            return absent;
        }
        try {
            return ServerTime.parseBound(text);
        } catch (IllegalArgumentException e) {
            throw invalid(name, name + " " + e.getMessage());
        }
    }

    /** The cursor an answer hands out for the page after {@code position}. */
    public static String nextCursor(char kind, long position) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((kind + Long.toString(position)).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The position a {@code cursor} of this kind holds ({@link Long#MAX_VALUE}, from the newest, when there is none);
     * 400 when it is not one this server handed out for this listing.
     */
    public static long cursor(char kind, String text) {
        if (blank(text)) {
            return Long.MAX_VALUE;
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(text.strip()), StandardCharsets.UTF_8);
            if (decoded.length() > 1 && decoded.charAt(0) == kind) {
                long position = Long.parseLong(decoded.substring(1));
                if (position > 0) {
                    return position;
                }
            }
        } catch (IllegalArgumentException e) { // not base64, not a number: not one of ours
            // refused below
        }
        throw invalid("cursor", "cursor is not one this server returned");
    }
}
