package io.queryapigate.errors;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The JSON error envelope every error response uses; {@code extra} fields (a refusal's details) sit beside the rest. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ErrorBody(
        @JsonProperty("error") String error,
        @JsonProperty("code") String code,
        @JsonProperty("request_id") String requestId,
        @JsonProperty("errors") Map<String, String> errors,
        @JsonProperty("retry_after") Long retryAfter,
        @JsonIgnore Map<String, Object> extra) {
    public ErrorBody(String error, String code, String requestId, Map<String, String> errors) {
        this(error, code, requestId, errors, null, Map.of());
    }

    @JsonAnyGetter
    Map<String, Object> extraFields() {
        return extra == null ? Map.of() : extra;
    }
}
