package io.queryapigate.auth;

import io.dropwizard.auth.AuthFilter;
import io.queryapigate.errors.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import java.util.List;

/**
 * Reads the key from {@code X-API-Key}, or from {@code Authorization: Bearer <key>}, and authenticates it. Any
 * failure is the same 401, whether the key is missing, unknown, revoked or expired.
 */
@Priority(Priorities.AUTHENTICATION)
public final class ApiKeyAuthFilter extends AuthFilter<String, Caller> {
    public static final String HEADER = "X-API-Key";

    @Context
    private HttpServletRequest servletRequest;
    private ClientAddress clientAddress = new ClientAddress(List.of());
    private CallerCheck keyCheck;
    private java.util.function.Predicate<String> anonymous = path -> false;

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
        if (key == null && anonymous.test(request.getUriInfo().getPath())) {
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
        byte[] client = clientAddress.resolve(servletRequest.getRemoteAddr(),
                servletRequest.getHeader("X-Forwarded-For"));
        if (client == null) {
            return false;
        }
        for (String entry : allowed) {
            if (IpRange.of(entry).contains(client)) {
                return true;
            }
        }
        return false;
    }

    /** Builds the filter. */
    public static final class Builder extends AuthFilterBuilder<String, Caller, ApiKeyAuthFilter> {
        @Override
        protected ApiKeyAuthFilter newInstance() {
            return new ApiKeyAuthFilter();
        }
    }
}
