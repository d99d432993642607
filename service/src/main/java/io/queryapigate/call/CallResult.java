package io.queryapigate.call;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * A call ready to answer: either a rendered {@code body}, or a {@code stream} that writes the rows to the response
 * as the database produces them. {@code headers} carries paging headers; for saved queries with a {@code cache_ttl},
 * {@code cache} is {@code HIT} or {@code MISS} with the body's {@code etag} and the {@code maxAge} in seconds.
 */
public record CallResult(byte[] body, long rows, boolean truncated, String connection, String cache, String etag,
        int maxAge, String contentType, String contentDisposition, Map<String, String> headers, Body stream) {

    /** Writes a streamed response. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    public CallResult(byte[] body, long rows, boolean truncated, String connection) {
        this(body, rows, truncated, connection, null, null, 0, "application/json", null, Map.of(), null);
    }

    CallResult cached(String status, String tag, int ttl) {
        return new CallResult(body, rows, truncated, connection, status, tag, ttl, contentType, contentDisposition,
                headers, stream);
    }
}
