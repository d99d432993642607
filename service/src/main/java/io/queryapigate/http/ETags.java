package io.queryapigate.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Entity tags for {@code ETag}/{@code If-Match}: a digest of what a change can change, and the precondition's test. */
public final class ETags {
    private ETags() {}

    /** A strong tag (quoted) for this state: 128 bits of the SHA-256 of the parts, each told apart from the next. */
    public static String of(Object... parts) {
        StringBuilder state = new StringBuilder();
        for (Object part : parts) {
            state.append(part).append('\u0000');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(state.toString().getBytes(StandardCharsets.UTF_8));
            return "\"" + HexFormat.of().formatHex(d, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether an {@code If-Match} header holds for the current tag: absent, blank and {@code *} always do. */
    public static boolean matches(String ifMatch, String current) {
        return ifMatch == null || ifMatch.isBlank() || ifMatch.strip().equals("*") || ifMatch.strip().equals(current);
    }
}
