package io.queryapigate.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Jersey's own refusals (unknown path, wrong method, a body that is not JSON: 400 {@code invalid_body}) in our
 * envelope.
 */
@Provider
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {
    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 415) {
            // a body that is not JSON, answered as the Python original answers it
            return ErrorResponses.of(request, 400, "invalid_body", "Request body must be a JSON object", null);
        }
        String message = switch (status) {
            case 404 -> "Not found.";
            case 405 -> "Method not allowed.";
            case 406 -> "Not acceptable.";
            case 413 -> "The request body is too large.";
            default -> status >= 500 ? "Internal error." : (e.getMessage() == null ? "Bad request." : e.getMessage());
        };
        Response response = ErrorResponses.of(request, status, ErrorResponses.defaultCode(status), message, null);
        if (status == 405 && e.getResponse().getHeaderString("Allow") != null) {
            return Response.fromResponse(response).header("Allow", e.getResponse().getHeaderString("Allow")).build();
        }
        return response;
    }
}
