package io.queryapigate.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;

/**
 * The headers every answer gets unless its route set them: {@code X-Content-Type-Options: nosniff}; {@code
 * Referrer-Policy: no-referrer}; a Content-Security-Policy, decided here for every answer: an HTML page (the only
 * one is the API docs page) gets the page's policy, anything else one under which a browser led to render the answer
 * runs nothing and frames it nowhere; {@code Cache-Control: no-store} (rows, keys and settings belong to the caller
 * who asked; a cached saved query says {@code private, max-age=N}, the docs' files how long they keep); HSTS when
 * configured and the request came over HTTPS (over plain HTTP it would lock browsers out of a server without TLS).
 */
public final class SecurityHeaders implements ContainerResponseFilter {
    /** The CSP of API answers. */
    public static final String API_CSP = "default-src 'none'; frame-ancestors 'none'";

    private final String pageCsp;
    private final String hsts;

    /**
     * @param pageCsp the CSP of HTML pages
     * @param hstsMaxAgeSeconds {@code Strict-Transport-Security} max-age; 0 = never sent
     */
    public SecurityHeaders(String pageCsp, long hstsMaxAgeSeconds) {
        this.pageCsp = pageCsp;
        this.hsts = hstsMaxAgeSeconds > 0 ? "max-age=" + hstsMaxAgeSeconds : null;
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
        if (hsts != null && request.getSecurityContext().isSecure()) {
            setDefault(h, "Strict-Transport-Security", hsts);
        }
    }

    /** Sets a header the route did not set, in a list later filters may still add to. */
    private static void setDefault(MultivaluedMap<String, Object> h, String name, String value) {
        if (!h.containsKey(name)) {
            h.putSingle(name, value);
        }
    }
}
