package io.queryapigate.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.glassfish.jersey.server.ParamException;

/**
 * A typed resource parameter whose text does not convert. A path parameter ({@code /versions/abc}) answers 404: no
 * such resource. Any other (JAX-RS would answer 404 for a query parameter too) answers 400 {@code invalid_request},
 * the Python original's code for a value that is not an integer, with {@code errors: {"<name>": "..."}}. The
 * resources read their query parameters as text and check them themselves; this is the net under a typed one.
 */
@Provider
public class ParamExceptionMapper implements ExceptionMapper<ParamException> {
    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(ParamException e) {
        if (e instanceof ParamException.PathParamException) {
            return ErrorResponses.of(request, 404, "not_found", "Not found.", null);
        }
        String name = e.getParameterName() == null ? "" : e.getParameterName();
        String problem = isNumber(e) ? "is not a valid integer" : "is not a valid value";
        return ErrorResponses.of(request, 400, "invalid_request", name + " " + problem + ".", Map.of(name, problem));
    }

    private static boolean isNumber(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NumberFormatException) {
                return true;
            }
        }
        return false;
    }
}
