package io.queryapigate.errors;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A refusal with a stable code, rendered as {@code {"error": ..., "code": ..., "request_id": ...}} plus an optional
 * {@code errors} map naming each bad field, and any details added with {@link #with} (the limit that was hit, when it
 * resets). Codes are part of the public API (docs/api.md).
 */
public class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final transient Map<String, String> errors;
    private long retryAfterSeconds;
    private transient Map<String, Object> extra = Map.of();

    public ApiException(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public ApiException(int status, String code, String message, Map<String, String> errors) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.errors = errors;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, String> errors() {
        return errors;
    }

    /** Seconds a client should wait (429), or 0. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** Details rendered beside {@code error} and {@code code}. */
    public Map<String, Object> extra() {
        return extra;
    }

    /** Adds a detail to the answer's body. */
    public ApiException with(String field, Object value) {
        if (extra.isEmpty()) {
            extra = new LinkedHashMap<>();
        }
        extra.put(field, value);
        return this;
    }

    /** Asks the client to wait this long: {@code Retry-After} and {@code retry_after}. */
    public ApiException retryAfter(long seconds) {
        this.retryAfterSeconds = Math.max(1, seconds);
        return this;
    }

    public static ApiException rateLimited(String message, long retryAfterMillis) {
        return new ApiException(429, "rate_limited", message).retryAfter((retryAfterMillis + 999) / 1000);
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(404, code, message);
    }

    public static ApiException forbidden(String code, String message) {
        return new ApiException(403, code, message);
    }

    public static ApiException unauthorized() {
        return new ApiException(401, "unauthorized", "A valid API key is required (X-API-Key header).");
    }
}
