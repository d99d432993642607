package io.queryapigate.errors;

import io.queryapigate.http.RequestIds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Anything unforeseen: logged with the request id, answered with the id only, never with the exception text. */
@Provider
public class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(Throwable e) {
        String requestId = request == null ? "" : RequestIds.of(request);
        LOG.error("request {}: unexpected error", requestId, e);
        return ErrorResponses.of(request, 500, "internal_error",
                "Internal error; the server log has details under this request id.", null);
    }
}
