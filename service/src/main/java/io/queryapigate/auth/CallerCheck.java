package io.queryapigate.auth;

import jakarta.ws.rs.container.ContainerRequestContext;

/** A check that runs once the caller is known, before the resource: per-key rate limits and quotas. */
@FunctionalInterface
public interface CallerCheck {
    /**
     * Lets the request go on, or throws the refusal.
     *
     * @param caller the authenticated caller
     * @param request the request
     */
    void check(Caller caller, ContainerRequestContext request);
}
