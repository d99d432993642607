package io.queryapigate.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import java.util.List;

/**
 * The headers every answer gets unless its route set them: {@code X-Content-Type-Options: nosniff}; for anything
 * but an HTML page, a CSP under which a browser led to render the answer runs nothing and frames it nowhere, and
 * {@code Referrer-Policy: no-referrer}; {@code Cache-Control: no-store} (rows, keys and settings belong to the caller
 * who asked; a cached saved query says {@code private, max-age=N}); HSTS when configured and the request came over
 * HTTPS (over plain HTTP it would lock browsers out of a server without TLS).
 */
public final class SecurityHeaders implements ContainerResponseFilter {
    /** The CSP of API answers. */
    public static final String API_CSP = "default-src 'none'; frame-ancestors 'none'";

    private final String hsts;

    /** @param hstsMaxAgeSeconds {@code Strict-Transport-Security} max-age; 0 = never sent */
    public SecurityHeaders(long hstsMaxAgeSeconds) {
        this.hsts = hstsMaxAgeSeconds > 0 ? "max-age=" + hstsMaxAgeSeconds : null;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        MultivaluedMap<String, Object> h = response.getHeaders();
        h.putIfAbsent("X-Content-Type-Options", List.of("nosniff"));
        MediaType type = response.getMediaType();
        if (type == null || !type.isCompatible(MediaType.TEXT_HTML_TYPE)) {
            h.putIfAbsent("Content-Security-Policy", List.of(API_CSP));
            h.putIfAbsent("Referrer-Policy", List.of("no-referrer"));
        }
        h.putIfAbsent("Cache-Control", List.of("no-store"));
        if (hsts != null && request.getSecurityContext().isSecure()) {
            h.putIfAbsent("Strict-Transport-Security", List.of(hsts));
        }
    }
}
