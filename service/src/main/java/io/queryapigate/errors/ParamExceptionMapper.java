package io.queryapigate.errors;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.glassfish.jersey.server.ParamException;

/**
 * A typed resource parameter ({@code @QueryParam Integer limit}, ...) whose text does not convert. JAX-RS answers
 * 404 for a query parameter that fails conversion (as if the resource did not exist); the gateway answers 400 in the
 * error envelope and names the parameter: {@code invalid_limit} for {@code limit} and {@code invalid_version} for
 * {@code version} (the codes the resources use for out-of-range values), {@code invalid_parameter} with
 * {@code errors: {"<name>": "..."}} for the others. A path parameter that does not convert still answers 404: no
 * such resource.
 */
@Provider
public class ParamExceptionMapper implements ExceptionMapper<ParamException> {
    /** Parameters with codes of their own, and the message the resources use for them. */
    private static final Map<String, Map.Entry<String, String>> OWN_CODES = Map.of(
            "limit", Map.entry("invalid_limit", "limit must be between 1 and 1000."),
            "version", Map.entry("invalid_version", "version must be a positive integer."));

    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(ParamException e) {
        if (e instanceof ParamException.PathParamException) {
            return ErrorResponses.of(request, 404, "not_found", "Not found.", null);
        }
        String name = e.getParameterName() == null ? "" : e.getParameterName();
        String problem = isNumber(e) ? "is not a valid integer" : "is not a valid value";
        Map.Entry<String, String> own = e instanceof ParamException.QueryParamException ? OWN_CODES.get(name) : null;
        if (own != null) {
            return ErrorResponses.of(request, 400, own.getKey(), own.getValue(), Map.of(name, problem));
        }
        return ErrorResponses.of(request, 400, "invalid_parameter", name + " " + problem + ".", Map.of(name, problem));
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
