package io.queryapigate.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The JSON error envelope every error response uses; {@code detail} carries the database's own message where the
 * caller may see it.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ErrorBody(
        @JsonProperty("error") String error,
        @JsonProperty("code") String code,
        @JsonProperty("detail") String detail,
        @JsonProperty("request_id") String requestId,
        @JsonProperty("errors") Map<String, String> errors,
        @JsonProperty("retry_after") Long retryAfter) {
    public ErrorBody(String error, String code, String requestId, Map<String, String> errors) {
        this(error, code, null, requestId, errors, null);
    }
}
