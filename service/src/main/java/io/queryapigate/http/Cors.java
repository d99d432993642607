package io.queryapigate.http;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.CrossOriginHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Cross-origin calls from browsers, by Jetty's {@link CrossOriginHandler} in front of the application (so a preflight,
 * which carries no key, is answered before authentication): off unless origins are configured. Origins are matched
 * exactly (no patterns; {@code *} for any, never with credentials); a preflight is answered {@code 204} with the
 * allowed methods, headers and max age when its origin is allowed, {@code 204} without them otherwise; answers to an
 * allowed origin name it and expose the headers a page needs (paging, rate limits, caching). Console sign-in
 * ({@code /auth/}) is same-origin only. CORS tells the browser which sites may call; it does not authenticate.
 */
public final class Cors extends CrossOriginHandler {
    /** The methods a browser may use by default. */
    public static final List<String> METHODS = List.of("GET", "POST", "PATCH", "DELETE", "OPTIONS");
    /** The request headers a browser may send by default. */
    public static final List<String> HEADERS = List.of("Content-Type", "X-API-Key", "Authorization", "X-Request-Id");
    /** The response headers a page may read by default. */
    public static final List<String> EXPOSED = List.of("X-Page", "X-Page-Size", "X-Row-Count", "X-Has-More",
            "X-Truncated", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Key-Limit",
            "X-RateLimit-Key-Remaining", "Retry-After", "X-Request-Id", "X-Cache", "ETag", "Deprecation", "Link");

    /**
     * What a preflight allows and an answer exposes; {@code origins} are {@code https://app.example.com} or {@code
     * *}, not empty (checked by {@code config.SecurityConfig}).
     */
    public Cors(List<String> origins, List<String> methods, List<String> allowedHeaders, List<String> exposed,
            boolean credentials, Duration maxAge) {
        Set<String> patterns = new LinkedHashSet<>();
        for (String origin : origins) {
            String o = normalise(origin);
            patterns.add(o.equals("*") ? "*" : Pattern.quote(o));
        }
        setAllowedOriginPatterns(patterns);
        setAllowedMethods(new LinkedHashSet<>(methods));
        setAllowedHeaders(new LinkedHashSet<>(allowedHeaders));
        setExposedHeaders(new LinkedHashSet<>(exposed));
        setAllowCredentials(credentials);
        setPreflightMaxAge(maxAge);
        setDeliverPreflightRequests(false);
        setDeliverNonAllowedOriginRequests(true);
    }

    /** An origin as compared: trimmed, lower case, without a trailing slash. */
    public static String normalise(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        while (o.endsWith("/")) {
            o = o.substring(0, o.length() - 1);
        }
        return o;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (Request.getPathInContext(request).startsWith("/auth/")) { // console sign-in: same origin only
            return getHandler().handle(request, response, callback);
        }
        if (HttpMethod.OPTIONS.is(request.getMethod())
                && request.getHeaders().contains(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD)
                && request.getHeaders().contains(HttpHeader.ORIGIN)) {
            response.setStatus(204); // as the Python original answers a preflight; Jetty's own is 200
        }
        return super.handle(request, response, callback);
    }
}
