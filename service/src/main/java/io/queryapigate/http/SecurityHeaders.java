package io.queryapigate.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The headers every answer gets unless its route set them: {@code X-Content-Type-Options: nosniff}; {@code
 * Referrer-Policy: no-referrer}; a Content-Security-Policy under which a browser led to render the answer runs
 * nothing and frames it nowhere (an HTML page, the only one is the API docs page, gets the page's policy); {@code
 * Cache-Control: no-store} (rows, keys and settings belong to the caller who asked; a cached saved query says {@code
 * private, max-age=N}, the docs' files how long they keep); HSTS when configured and the request came over HTTPS:
 * a TLS connector, or {@code X-Forwarded-Proto: https} from a trusted proxy ({@code security.trustedProxies}; from
 * anyone else the header is ignored). Over plain HTTP it would lock browsers out of a server without TLS.
 *
 * <p>Applied at two levels: {@link #handler()}, a Jetty handler in front of each servlet context (the application's
 * and the admin port's), sets them on every answer before anything else runs (so a CORS preflight, a servlet's own
 * answer and a stream get them); this Jersey filter then decides per route (the page's CSP, the route's caching), and
 * Jersey's headers replace the defaults. Jetty's own error pages add them in {@code errors.JettyErrorPages}.
 */
public final class SecurityHeaders implements ContainerResponseFilter {
    /** The CSP of API answers. */
    public static final String API_CSP = "default-src 'none'; frame-ancestors 'none'";
    private static final List<String[]> DEFAULTS = List.of(new String[] {"X-Content-Type-Options", "nosniff"},
            new String[] {"Content-Security-Policy", API_CSP}, new String[] {"Referrer-Policy", "no-referrer"},
            new String[] {"Cache-Control", "no-store"});

    private final String pageCsp;
    private final String hsts;
    private final Predicate<String> trustedProxy;

    /**
     * @param pageCsp the CSP of HTML pages
     * @param hstsMaxAgeSeconds {@code Strict-Transport-Security} max-age; 0 = never sent
     * @param trustedProxy whether a peer address is a trusted proxy, whose {@code X-Forwarded-Proto} is believed
     */
    public SecurityHeaders(String pageCsp, long hstsMaxAgeSeconds, Predicate<String> trustedProxy) {
        this.pageCsp = pageCsp;
        this.hsts = hstsMaxAgeSeconds > 0 ? "max-age=" + hstsMaxAgeSeconds : null;
        this.trustedProxy = trustedProxy;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        MultivaluedMap<String, Object> h = response.getHeaders();
        setDefault(h, "X-Content-Type-Options", "nosniff");
        MediaType type = response.getMediaType();
        boolean page = type != null && type.isCompatible(MediaType.TEXT_HTML_TYPE);
        setDefault(h, "Content-Security-Policy", page ? pageCsp : API_CSP);
        setDefault(h, "Referrer-Policy", "no-referrer");
        setDefault(h, "Cache-Control", "no-store");
    }

    /** Sets a header the route did not set, in a list later filters may still add to. */
    private static void setDefault(MultivaluedMap<String, Object> h, String name, String value) {
        if (!h.containsKey(name)) {
            h.putSingle(name, value);
        }
    }

    /** Adds the headers {@code headers} lacks, for an answer to {@code request}: Jetty's own answers. */
    public void apply(Request request, HttpFields.Mutable headers) {
        for (String[] d : DEFAULTS) {
            if (!headers.contains(d[0])) {
                headers.put(d[0], d[1]);
            }
        }
        if (hsts != null && overHttps(request) && !headers.contains("Strict-Transport-Security")) {
            headers.put("Strict-Transport-Security", hsts);
        }
    }

    /** Whether the request came over HTTPS: to a TLS connector, or through a trusted proxy that says so. */
    boolean overHttps(Request request) {
        if (request.isSecure()) {
            return true;
        }
        List<String> proto = request.getHeaders().getValuesList("X-Forwarded-Proto");
        if (proto.isEmpty() || !trustedProxy.test(Request.getRemoteAddr(request))) {
            return false;
        }
        for (String value : proto) {
            for (String hop : value.split(",")) {
                if (!hop.strip().equalsIgnoreCase("https")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The Jetty handler that puts the headers on every answer of the context it is inserted in. */
    public Handler.Singleton handler() {
        return new Handler.Wrapper() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                apply(request, response.getHeaders());
                return super.handle(request, response, callback);
            }
        };
    }
}
