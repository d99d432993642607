package io.queryapigate.params;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.errors.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;

/** What the parameter rules' tests share: JSON from text, and the refusal a call must end in. */
final class ParamTesting {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ParamTesting() {}

    static JsonNode json(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ApiException refused(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError("expected a refusal");
    }
}
