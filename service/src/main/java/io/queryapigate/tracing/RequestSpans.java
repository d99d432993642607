package io.queryapigate.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.slf4j.MDC;

/**
 * The request's span, around everything the application does with it (a stream's rows included): a server span
 * named by the method until Jersey matches a route ({@link RouteNames} renames it by the route's template, never the
 * path's values or the query string), continuing the caller's W3C {@code traceparent} when allowed, and its trace and
 * span ids in the logging context ({@code trace_id}, {@code span_id}) so each log line leads to its trace. Registered
 * only when tracing is on.
 */
public final class RequestSpans implements Filter {
    /** The request attribute holding the request's span. */
    static final String ATTRIBUTE = "qag.span";
    /** The request attribute an error answer's code is left in ({@code error.type}). */
    public static final String ERROR_CODE = "qag.errorCode";

    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> SCHEME = AttributeKey.stringKey("url.scheme");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey("queryapigate.request_id");
    private static final TextMapGetter<HttpServletRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServletRequest carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(HttpServletRequest carrier, String key) {
            return carrier == null ? null : carrier.getHeader(key);
        }
    };

    private final Tracing tracing;

    public RequestSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        Context parent = tracing.acceptsTraceparent()
                ? W3CTraceContextPropagator.getInstance().extract(Context.root(), request, HEADERS)
                : Context.root();
        Span span = tracing.startServer(request.getMethod(), parent);
        span.setAttribute(METHOD, request.getMethod());
        span.setAttribute(SCHEME, request.getScheme());
        request.setAttribute(ATTRIBUTE, span);
        MDC.put("trace_id", span.getSpanContext().getTraceId());
        MDC.put("span_id", span.getSpanContext().getSpanId());
        try (Scope ignored = span.makeCurrent()) {
            chain.doFilter(req, res);
        } catch (IOException | ServletException | RuntimeException e) {
            Tracing.failed(span, e.getClass().getSimpleName());
            throw e;
        } finally {
            MDC.remove("trace_id");
            MDC.remove("span_id");
            finish(span, request, response);
        }
    }

    private static void finish(Span span, HttpServletRequest request, HttpServletResponse response) {
        int status = response.getStatus();
        span.setAttribute(STATUS, status);
        String id = response.getHeader("X-Request-Id");
        if (id != null) {
            span.setAttribute(REQUEST_ID, id);
        }
        if (status >= 400) {
            Object code = request.getAttribute(ERROR_CODE);
            span.setAttribute(Tracing.ERROR_TYPE, code instanceof String c ? c : Integer.toString(status));
        }
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }

    /** The request's span, or {@link Span#getInvalid()} (tracing off, or outside a request). */
    static Span of(Object attribute) {
        return attribute instanceof Span s ? s : Span.getInvalid();
    }
}
