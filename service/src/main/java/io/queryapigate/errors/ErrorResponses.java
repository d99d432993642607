package io.queryapigate.errors;

import io.queryapigate.http.RequestIds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.Map;

/** Builds error responses in the envelope, with the request's id. */
public final class ErrorResponses {
    private ErrorResponses() {}

    public static Response of(HttpServletRequest request, int status, String code, String message,
            Map<String, String> errors) {
        return of(request, status, code, message, null, errors);
    }

    /** An error with the database's own message as {@code detail}. */
    public static Response of(HttpServletRequest request, int status, String code, String message, String detail,
            Map<String, String> errors) {
        return of(request, status, code, message, detail, errors, Map.of());
    }

    /** An error with {@code detail}, bad fields, and other details beside {@code error} ({@code extra}). */
    public static Response of(HttpServletRequest request, int status, String code, String message, String detail,
            Map<String, String> errors, Map<String, Object> extra) {
        return of(request, status, code, message, detail, errors, extra, 0);
    }

    /** An error that asks the client to wait {@code retryAfterSeconds} (when above 0): {@code Retry-After} and {@code retry_after}. */
    public static Response of(HttpServletRequest request, int status, String code, String message, String detail,
            Map<String, String> errors, Map<String, Object> extra, long retryAfterSeconds) {
        String requestId = request == null ? "" : RequestIds.of(request);
        Response.ResponseBuilder builder = Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(message, code, detail, requestId,
                        errors == null || errors.isEmpty() ? null : errors,
                        retryAfterSeconds > 0 ? retryAfterSeconds : null, extra));
        if (retryAfterSeconds > 0) {
            builder.header("Retry-After", retryAfterSeconds);
        }
        if (status == 401) {
            builder.header("WWW-Authenticate", "ApiKey realm=\"queryapigate\"");
        }
        closeIfBodyUnread(request, builder);
        return builder.build();
    }

    /**
     * Ends the connection after a refusal that came before the request's body was read (a missing key, a rate
     * limit): Jetty would close it anyway once the answer is out, when the body has not all arrived, but without
     * saying so, and a client that sent the next request on it would read nothing.
     */
    static void closeIfBodyUnread(HttpServletRequest request, Response.ResponseBuilder builder) {
        if (request == null || (request.getContentLengthLong() <= 0 && request.getHeader("Transfer-Encoding") == null)) {
            return;
        }
        try {
            if (!request.getInputStream().isFinished()) {
                builder.header("Connection", "close");
            }
        } catch (IOException | IllegalStateException e) {
            builder.header("Connection", "close");
        }
    }

    public static String defaultCode(int status) {
        return switch (status) {
            case 400 -> "invalid_request";
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 408 -> "request_timeout";
            case 409 -> "conflict";
            case 412 -> "precondition_failed";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            case 429 -> "rate_limited";
            case 502 -> "upstream_failed";
            case 503 -> "unavailable";
            case 504 -> "query_timeout";
            default -> status >= 500 ? "internal_error" : "invalid_request";
        };
    }
}
