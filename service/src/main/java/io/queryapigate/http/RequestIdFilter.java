package io.queryapigate.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.MDC;

/**
 * Gives every request an id (the caller's {@code X-Request-Id} when it is 1-64 characters of {@code
 * [A-Za-z0-9._:-]}, else a generated one), puts it on the response and in the logging context, and refuses request
 * bodies over the configured size with 413 before anything reads them; a body read later is bounded by that size and
 * by a minimum rate ({@link LimitedBodyRequest}).
 */
public class RequestIdFilter implements Filter {
    private final long maxBodyBytes;
    private final long minBodyBytesPerSecond;

    /**
     * A body refused for its declared size is read (and dropped) up to this many times the limit before the 413: a
     * client still writing a body nobody reads fails on its write and never sees the answer. Larger ones are refused
     * at once, and Jetty closes the connection.
     */
    private static final long DRAINED_MULTIPLE = 8;

    /**
     * @param maxBodyBytes the largest request body
     * @param minBodyBytesPerSecond the slowest a body may arrive (0: no bound but the connection's idle timeout)
     */
    public RequestIdFilter(long maxBodyBytes, long minBodyBytesPerSecond) {
        this.maxBodyBytes = maxBodyBytes;
        this.minBodyBytesPerSecond = minBodyBytesPerSecond;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String id = RequestIds.accept(request.getHeader(RequestIds.HEADER));
        if (id == null) {
            id = RequestIds.generate();
        }
        request.setAttribute(RequestIds.ATTRIBUTE, id);
        response.setHeader(RequestIds.HEADER, id);
        long length = request.getContentLengthLong();
        if (length > maxBodyBytes) {
            if (length / DRAINED_MULTIPLE <= maxBodyBytes) {
                readAway(request);
            }
            response.setStatus(413);
            response.setContentType("application/json");
            response.getWriter().write("{\"error\":\"The request body is larger than " + maxBodyBytes
                    + " bytes.\",\"code\":\"payload_too_large\",\"request_id\":\"" + id + "\"}");
            return;
        }
        MDC.put("request_id", id);
        try {
            chain.doFilter(new LimitedBodyRequest(request, maxBodyBytes, minBodyBytesPerSecond), res);
        } finally {
            MDC.remove("request_id");
        }
    }

    private static void readAway(HttpServletRequest request) {
        try {
            Bodies.discard(request.getInputStream());
        } catch (IOException gone) {
            // the client went away: the answer below is written to no one
        }
    }
}
