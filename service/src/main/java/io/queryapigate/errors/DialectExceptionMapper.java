package io.queryapigate.errors;

import io.queryapigate.dialect.spi.DialectException;
import io.queryapigate.http.RequestIds;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a dialect's error classes become HTTP statuses. The database's own message is shown only
 * for errors the caller can act on (a syntax error in their SQL), as {@code detail}; internal failures answer with the request id only.
 * A database that is down answers 503 {@code database_unavailable} with {@code Retry-After} and {@code retry_after} ({@link
 * DialectErrors#UNAVAILABLE_RETRY_AFTER_SECONDS}).
 */
@Provider
public class DialectExceptionMapper implements ExceptionMapper<DialectException> {
    private static final Logger LOG = LoggerFactory.getLogger(DialectExceptionMapper.class);

    /** Nanoseconds between two warnings of a database that is down; the calls between are counted. */
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final AtomicLong NEXT_WARNING = new AtomicLong(System.nanoTime());
    private static final AtomicLong UNWARNED = new AtomicLong();

    @Context
    private HttpServletRequest request;

    /**
     * Logs a refusal for a database that is down: at most one warning a second, with the number of refusals since
     * the last (a down database is refused at once, possibly thousands of times a second).
     */
    private static void unavailable(String requestId, DialectException e) {
        long now = System.nanoTime();
        long next = NEXT_WARNING.get();
        if (now - next >= 0 && NEXT_WARNING.compareAndSet(next, now + WARN_EVERY_NANOS)) {
            long more = UNWARNED.getAndSet(0);
            LOG.warn("request {}: database unavailable: {}{}", requestId, e.getMessage(),
                    more == 0 ? "" : " (and " + more + " more call(s) refused so since the last warning)");
        } else {
            UNWARNED.incrementAndGet();
            LOG.debug("request {}: database unavailable: {}", requestId, e.getMessage());
        }
    }

    @Override
    public Response toResponse(DialectException e) {
        String requestId = request == null ? "" : RequestIds.of(request);
        DialectErrors.Answer answer = DialectErrors.of(e.error());
        switch (e.error()) {
            case UNAVAILABLE -> unavailable(requestId, e);
            case INTERNAL -> LOG.error("request {}: database call failed", requestId, e);
            default -> { }
        }
        // only a refusal of the caller's own SQL or data shows the database's words (withheld for restricted keys)
        String detail = DialectErrors.showsDatabaseMessage(e.error()) ? e.getMessage() : null;
        return ErrorResponses.of(request, answer.status(), answer.code(), answer.message(), detail, null, Map.of(),
                answer.retryAfterSeconds());
    }
}
