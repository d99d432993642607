package io.queryapigate.auth;

import io.dropwizard.auth.AuthFilter;
import io.queryapigate.errors.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;

/**
 * Reads the key from {@code X-API-Key}, or from {@code Authorization: Bearer <key>}, and authenticates it. Any
 * failure is the same 401, whether the key is missing, unknown, revoked or expired. A request with neither header
 * but a console session cookie is that session's administrator, only with the session's CSRF token in
 * {@value Sessions#CSRF_HEADER} (on a path open to anonymous callers, a cookie without the header is not used).
 */
@Priority(Priorities.AUTHENTICATION)
public final class ApiKeyAuthFilter extends AuthFilter<String, Caller> {
    public static final String HEADER = "X-API-Key";

    @Context
    private HttpServletRequest servletRequest;
    private ClientAddress clientAddress = new ClientAddress(List.of());
    private CallerCheck keyCheck;
    private java.util.function.Predicate<String> anonymous = path -> false;
    private Sessions sessions;

    /** Console sessions (console sign-in through SSO), known by a cookie. */
    public interface Sessions {
        String COOKIE = "__Host-qag_session";
        String CSRF_HEADER = "X-CSRF-Token";

        /**
         * The session's administrator; 401 for an unknown or expired session or a deactivated administrator, 403
         * {@code csrf_failed} for a missing or wrong CSRF token.
         */
        Caller authenticate(String sessionId, String csrfToken);
    }

    private ApiKeyAuthFilter() {}

    /** What is checked once the key is known (the per-key rate limits and quotas). */
    public ApiKeyAuthFilter withKeyCheck(CallerCheck check) {
        this.keyCheck = check;
        return this;
    }

    /**
     * Which paths (as {@code UriInfo.getPath()} writes them, without the leading slash) a request without any key
     * may reach, as an anonymous caller; the resource then takes an {@code @Auth Optional<Caller>}. None by default.
     */
    public ApiKeyAuthFilter withAnonymous(java.util.function.Predicate<String> paths) {
        this.anonymous = paths;
        return this;
    }

    /** Who knows console sessions; without it, the session cookie is not looked at. */
    public ApiKeyAuthFilter withSessions(Sessions consoleSessions) {
        this.sessions = consoleSessions;
        return this;
    }

    /** Where the caller's address comes from, for keys restricted to addresses. */
    public ApiKeyAuthFilter withClientAddress(ClientAddress addresses) {
        this.clientAddress = addresses;
        return this;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String key = request.getHeaderString(HEADER);
        if (key == null) {
            String authorization = request.getHeaderString("Authorization");
            if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                key = authorization.substring(7).strip();
            }
        }
        boolean open = key == null && anonymous.test(request.getUriInfo().getPath());
        if (key == null && sessions != null && request.getCookies().get(Sessions.COOKIE) instanceof Cookie cookie
                && !(open && request.getHeaderString(Sessions.CSRF_HEADER) == null)) {
            Caller caller = sessions.authenticate(cookie.getValue(), request.getHeaderString(Sessions.CSRF_HEADER));
            request.setSecurityContext(new SessionContext(caller, request.getSecurityContext().isSecure()));
            if (keyCheck != null) {
                keyCheck.check(caller, request);
            }
            return;
        }
        if (open) {
            return;
        }
        if (key == null || !authenticate(request, key, "ApiKey")) {
            throw ApiException.unauthorized();
        }
        Caller caller = (Caller) request.getSecurityContext().getUserPrincipal();
        List<String> allowedIps = caller.grants().allowedIps();
        if (!caller.admin() && allowedIps != null && !fromAllowedAddress(allowedIps)) {
            throw ApiException.unauthorized();
        }
        if (keyCheck != null) {
            keyCheck.check(caller, request);
        }
    }

    // a key used from an address it is not allowed from is answered like an unknown key
    private boolean fromAllowedAddress(List<String> allowed) {
        return clientAddress.within(servletRequest.getRemoteAddr(), servletRequest.getHeader("X-Forwarded-For"),
                allowed);
    }

    private record SessionContext(Caller caller, boolean secure) implements SecurityContext {
        @Override
        public java.security.Principal getUserPrincipal() {
            return caller;
        }

        @Override
        public boolean isUserInRole(String role) {
            return false;
        }

        @Override
        public boolean isSecure() {
            return secure;
        }

        @Override
        public String getAuthenticationScheme() {
            return "Session";
        }
    }

    /** Builds the filter. */
    public static final class Builder extends AuthFilterBuilder<String, Caller, ApiKeyAuthFilter> {
        @Override
        protected ApiKeyAuthFilter newInstance() {
            return new ApiKeyAuthFilter();
        }
    }
}
