package io.queryapigate.http;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.ThreadLocalRandom;

/** Request ids: the caller's {@code X-Request-Id} when it is safe to log, else 16 random hex characters. */
public final class RequestIds {
    public static final String HEADER = "X-Request-Id";
    static final String ATTRIBUTE = "qag.requestId";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RequestIds() {}

    public static String of(HttpServletRequest request) {
        Object id = request.getAttribute(ATTRIBUTE);
        return id == null ? "" : id.toString();
    }

    /** The caller's id when it is 1-64 characters of {@code [A-Za-z0-9._:-]}, else null. */
    public static String accept(String candidate) {
        if (candidate == null || candidate.isEmpty() || candidate.length() > 64) {
            return null;
        }
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!ok) {
                return null;
            }
        }
        return candidate;
    }

    /** A new id: 16 random hex characters. */
    public static String generate() {
        long bits = ThreadLocalRandom.current().nextLong();
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (bits & 0xF)];
            bits >>>= 4;
        }
        return new String(out);
    }
}
