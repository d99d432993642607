package io.queryapigate.errors;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The JSON error envelope every error response uses; {@code detail} carries the database's own message where the
 * caller may see it; {@code extra} fields (a refusal's details: the limit that was hit, when it resets) sit beside
 * the rest.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ErrorBody(
        @JsonProperty("error") String error,
        @JsonProperty("code") String code,
        @JsonProperty("detail") String detail,
        @JsonProperty("request_id") String requestId,
        @JsonProperty("errors") Map<String, String> errors,
        @JsonProperty("retry_after") Long retryAfter,
        @JsonIgnore Map<String, Object> extra) {
    public ErrorBody(String error, String code, String requestId, Map<String, String> errors) {
        this(error, code, null, requestId, errors, null, Map.of());
    }

    public ErrorBody(String error, String code, String detail, String requestId, Map<String, String> errors,
            Long retryAfter) {
        this(error, code, detail, requestId, errors, retryAfter, Map.of());
    }

    @JsonAnyGetter
    Map<String, Object> extraFields() {
        return extra == null ? Map.of() : extra;
    }
}
