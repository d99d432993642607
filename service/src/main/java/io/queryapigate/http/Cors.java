package io.queryapigate.http;

import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Cross-origin calls from browsers, off unless origins are configured ({@code security.corsOrigins}: a list, or
 * {@code ["*"]}). A preflight ({@code OPTIONS} with {@code Access-Control-Request-Method}) is answered 204 before
 * authentication (it carries no key); answers to an allowed origin name it and expose the paging, rate-limit and
 * caching headers a page needs. CORS tells the browser which sites may call; it does not authenticate.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class Cors implements ContainerRequestFilter, ContainerResponseFilter {
    static final String METHODS = "GET, POST, PATCH, DELETE, OPTIONS";
    static final String HEADERS = "Content-Type, X-API-Key, Authorization, X-Request-Id";
    static final String EXPOSED = "X-Page, X-Page-Size, X-Row-Count, X-Has-More, X-Truncated, X-RateLimit-Limit, "
            + "X-RateLimit-Remaining, X-RateLimit-Key-Limit, X-RateLimit-Key-Remaining, Retry-After, X-Request-Id, "
            + "X-Cache, ETag, Deprecation, Link";
    static final String MAX_AGE = "600";

    private final boolean any;
    private final Set<String> origins;

    /** @param origins allowed origins ({@code https://app.example.com}), {@code "*"} for any; empty = off */
    public Cors(List<String> origins) {
        this.any = origins.contains("*");
        this.origins = origins.stream().map(Cors::normalise).collect(Collectors.toUnmodifiableSet());
    }

    /** Whether any origin is allowed at all. */
    public boolean enabled() {
        return any || !origins.isEmpty();
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (HttpMethod.OPTIONS.equals(request.getMethod())
                && request.getHeaderString("Access-Control-Request-Method") != null) {
            Response.ResponseBuilder preflight = Response.noContent();
            String allowed = allowOrigin(request.getHeaderString("Origin"));
            if (allowed != null) {
                preflight.header("Access-Control-Allow-Methods", METHODS)
                        .header("Access-Control-Allow-Headers", HEADERS)
                        .header("Access-Control-Max-Age", MAX_AGE);
            }
            request.abortWith(preflight.build());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String allowed = allowOrigin(request.getHeaderString("Origin"));
        if (allowed != null) {
            response.getHeaders().putSingle("Access-Control-Allow-Origin", allowed);
            response.getHeaders().putSingle("Access-Control-Expose-Headers", EXPOSED);
            if (!"*".equals(allowed)) {
                response.getHeaders().add("Vary", "Origin");
            }
        }
    }

    /** The {@code Access-Control-Allow-Origin} value for a request from {@code origin}, or null. */
    String allowOrigin(String origin) {
        if (origin == null || origin.isEmpty()) {
            return null;
        }
        if (any) {
            return "*";
        }
        return origins.contains(normalise(origin)) ? origin : null;
    }

    private static String normalise(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        while (o.endsWith("/")) {
            o = o.substring(0, o.length() - 1);
        }
        return o;
    }
}
