package io.queryapigate.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A request body that is not valid JSON, or JSON of the wrong shape. */
@Provider
public class JsonExceptionMapper implements ExceptionMapper<JsonProcessingException> {
    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(JsonProcessingException e) {
        String detail = e.getOriginalMessage();
        if (detail != null && detail.length() > 200) {
            detail = detail.substring(0, 200) + "...";
        }
        return ErrorResponses.of(request, 400, "invalid_body",
                "The request body is not valid JSON" + (detail == null ? "." : ": " + detail), null);
    }
}
