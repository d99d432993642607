package io.queryapigate.auth;

import io.dropwizard.auth.AuthFilter;
import io.queryapigate.errors.ApiException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * Reads the key from {@code X-API-Key}, or from {@code Authorization: Bearer <key>}, and authenticates it. Any
 * failure is the same 401, whether the key is missing, unknown, revoked or expired.
 */
@Priority(Priorities.AUTHENTICATION)
public final class ApiKeyAuthFilter extends AuthFilter<String, Caller> {
    public static final String HEADER = "X-API-Key";

    private ApiKeyAuthFilter() {}

    @Override
    public void filter(ContainerRequestContext request) {
        String key = request.getHeaderString(HEADER);
        if (key == null) {
            String authorization = request.getHeaderString("Authorization");
            if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                key = authorization.substring(7).strip();
            }
        }
        if (key == null || !authenticate(request, key, "ApiKey")) {
            throw ApiException.unauthorized();
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
