package io.queryapigate.errors;

import io.queryapigate.http.RequestIds;
import io.queryapigate.store.StoreFaults;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Anything unforeseen: logged with the request id, answered with the id only, never with the exception text. The
 * gateway's own store failing as a whole is foreseen: 503 {@code store_unavailable} (it cannot be reached) or 503
 * {@code store_full} (its disk is full; reads still work), each with {@code Retry-After}, logged once a minute.
 */
@Provider
public class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    /** The code of an answer while the store cannot be reached. */
    public static final String STORE_UNAVAILABLE = "store_unavailable";
    /** The code of a write refused because the store's disk is full. */
    public static final String STORE_FULL = "store_full";
    /** Seconds a client is asked to wait after a store failure. */
    static final String RETRY_AFTER_SECONDS = "5";
    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    private final StoreFaults storeFaults;

    @Context
    private HttpServletRequest request;

    /** Without store failures told apart (unit tests of resources). */
    public UnexpectedExceptionMapper() {
        this(null);
    }

    public UnexpectedExceptionMapper(StoreFaults storeFaults) {
        this.storeFaults = storeFaults;
    }

    @Override
    public Response toResponse(Throwable e) {
        String requestId = request == null ? "" : RequestIds.of(request);
        StoreFaults.Kind kind = storeFaults == null ? null : storeFaults.record(e, "request " + requestId);
        if (kind != null) {
            LOG.debug("request {}: store failure", requestId, e);
            Response answer = kind == StoreFaults.Kind.FULL
                    ? ErrorResponses.of(request, 503, STORE_FULL, "The gateway's store is out of disk space: changes"
                            + " cannot be saved now; reads and query calls still work. Try again later.", null)
                    : ErrorResponses.of(request, 503, STORE_UNAVAILABLE, "The gateway's store cannot be reached; try"
                            + " again later.", null);
            return Response.fromResponse(answer).header("Retry-After", RETRY_AFTER_SECONDS).build();
        }
        LOG.error("request {}: unexpected error", requestId, e);
        return ErrorResponses.of(request, 500, "internal_error",
                "Internal error; the server log has details under this request id.", null);
    }
}
