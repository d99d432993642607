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
        if (e.retryAfterSeconds() > 0) {
            String requestId = request == null ? "" : io.queryapigate.http.RequestIds.of(request);
            Response.ResponseBuilder r = Response.status(e.status())
                    .type(jakarta.ws.rs.core.MediaType.APPLICATION_JSON_TYPE)
                    .header("Retry-After", e.retryAfterSeconds())
                    .entity(new ErrorBody(e.getMessage(), e.code(), null, requestId, null, e.retryAfterSeconds(),
                            e.extra()));
            ErrorResponses.closeIfBodyUnread(request, r);
            return r.build();
        }
        return ErrorResponses.of(request, e.status(), e.code(), e.getMessage(), null, e.errors(), e.extra());
    }
}
