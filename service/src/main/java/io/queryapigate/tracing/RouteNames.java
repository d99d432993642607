package io.queryapigate.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ErrorBody;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.security.Principal;
import java.util.List;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.uri.UriTemplate;

/**
 * Names the request's span by the route Jersey matched, {@code GET /q/{name}} (the template: never the values the
 * path carried, never the query string), with {@code http.route}; on the way out, the caller's name (a key's or an
 * administrator's, never a credential) and an error answer's code. Registered only when tracing is on.
 */
@Priority(Priorities.AUTHENTICATION - 50)
public final class RouteNames implements ContainerRequestFilter, ContainerResponseFilter {
    static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");
    static final AttributeKey<String> CALLER = AttributeKey.stringKey("queryapigate.caller");

    @Override
    public void filter(ContainerRequestContext request) {
        Span span = RequestSpans.of(request.getProperty(RequestSpans.ATTRIBUTE));
        if (!span.isRecording() || !(request.getUriInfo() instanceof ExtendedUriInfo info)) {
            return;
        }
        String route = template(info.getMatchedTemplates());
        if (route != null) {
            span.updateName(request.getMethod() + " " + route);
            span.setAttribute(ROUTE, route);
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getEntity() instanceof ErrorBody error && error.code() != null) {
            request.setProperty(RequestSpans.ERROR_CODE, error.code());
        }
        Span span = RequestSpans.of(request.getProperty(RequestSpans.ATTRIBUTE));
        Principal who = request.getSecurityContext() == null ? null
                : request.getSecurityContext().getUserPrincipal();
        if (span.isRecording() && who instanceof Caller caller && caller.name() != null) {
            span.setAttribute(CALLER, caller.name());
        }
    }

    /** The matched templates (innermost first, as Jersey lists them) joined into one path template. */
    static String template(List<UriTemplate> matched) {
        if (matched == null || matched.isEmpty()) {
            return null;
        }
        StringBuilder route = new StringBuilder();
        for (int i = matched.size() - 1; i >= 0; i--) {
            String part = matched.get(i).getTemplate();
            if (part.isEmpty() || part.equals("/")) {
                continue;
            }
            if (route.isEmpty() || route.charAt(route.length() - 1) != '/') {
                if (part.charAt(0) != '/') {
                    route.append('/');
                }
            } else if (part.charAt(0) == '/') {
                part = part.substring(1);
            }
            route.append(part);
        }
        return route.isEmpty() ? "/" : route.toString();
    }
}
