package io.queryapigate.errors;

import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.http.RequestIds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a dialect's error classes become HTTP statuses. The database's own message is shown only
 * for errors the caller can act on (a syntax error in their SQL); internal failures answer with the request id only.
 */
@Provider
public class DialectExceptionMapper implements ExceptionMapper<DialectException> {
    private static final Logger LOG = LoggerFactory.getLogger(DialectExceptionMapper.class);

    @Context
    private HttpServletRequest request;

    @Override
    public Response toResponse(DialectException e) {
        String requestId = request == null ? "" : RequestIds.of(request);
        return switch (e.error()) {
            case SYNTAX -> ErrorResponses.of(request, 400, "query_invalid",
                    "The database refused the query: " + e.getMessage(), null);
            case NOT_READ_ONLY -> ErrorResponses.of(request, 403, "read_only",
                    "The database refused a change in a read-only call.", null);
            case PERMISSION_DENIED -> ErrorResponses.of(request, 403, "database_permission_denied",
                    "The gateway's database user lacks a privilege this query needs.", null);
            case TIMEOUT -> ErrorResponses.of(request, 504, "timeout",
                    "The query exceeded its time limit and was stopped.", null);
            case CANCELLED -> ErrorResponses.of(request, 503, "cancelled",
                    "The query was cancelled.", null);
            case ROW_LIMIT -> ErrorResponses.of(request, 413, "row_limit",
                    "The result exceeded the row limit.", null);
            case UNAVAILABLE -> {
                LOG.warn("request {}: database unavailable: {}", requestId, e.getMessage());
                yield ErrorResponses.of(request, 503, "unavailable",
                        "The database is unavailable; try again later.", null);
            }
            case INTERNAL -> {
                LOG.error("request {}: database call failed", requestId, e);
                yield ErrorResponses.of(request, 500, "query_failed",
                        "The query failed; the server log has details under this request id.", null);
            }
        };
    }
}
