package io.queryapigate.errors;

import io.queryapigate.http.RequestIds;
import io.queryapigate.secrets.SecretUnavailableException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's secret could not be resolved (its provider is down, denied it, the reference is not allowed):
 * 503 {@code secret_unavailable}. Which reference and why goes to the log under the request id, not to the caller:
 * it names where the server's secrets live.
 */
@Provider
public class SecretUnavailableMapper implements ExceptionMapper<SecretUnavailableException> {
    /** The code the answer and the event log use. */
    public static final String CODE = "secret_unavailable";
    private static final Logger LOG = LoggerFactory.getLogger(SecretUnavailableMapper.class);

    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(SecretUnavailableException e) {
        String requestId = request == null ? "" : RequestIds.of(request);
        LOG.warn("request {}: {}", requestId, e.getMessage());
        return ErrorResponses.of(request, 503, CODE, "A secret this connection needs is unavailable; try again"
                + " later. The server log says which, under this request id.", null);
    }
}
