package io.queryapigate.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

@Provider
public class ApiExceptionMapper implements ExceptionMapper<ApiException> {
    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(ApiException e) {
        return ErrorResponses.of(request, e.status(), e.code(), e.getMessage(), null, e.errors(), e.extra(),
                e.retryAfterSeconds());
    }
}
