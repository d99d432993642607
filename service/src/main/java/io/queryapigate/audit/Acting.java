package io.queryapigate.audit;

import io.queryapigate.auth.Caller;
import io.queryapigate.auth.ClientAddress;
import io.queryapigate.auth.Requires;
import io.queryapigate.http.RequestIds;
import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Supplier;

/**
 * The {@link Actor} the code on this thread acts for, which {@link AuditLog} records: a management request's caller
 * (set by this filter on every {@link Requires} route once the caller and its workspace are settled, and cleared with
 * the response; other routes, {@code /q} among them, cost a check and nothing more), a command's ({@link #as}), else
 * {@link Actor#SERVER}.
 */
@Priority(Priorities.AUTHORIZATION + 10)
public final class Acting implements ContainerRequestFilter, ContainerResponseFilter {
    private static final ThreadLocal<Actor> CURRENT = new ThreadLocal<>();

    private final ClientAddress addresses;
    @Context
    private HttpServletRequest servlet;
    @Context
    private ResourceInfo resource;

    public Acting(ClientAddress addresses) {
        this.addresses = addresses;
    }

    /** The actor of this thread's work. */
    public static Actor current() {
        Actor actor = CURRENT.get();
        return actor == null ? Actor.SERVER : actor;
    }

    /** Runs {@code work} as {@code actor} on this thread (a command, startup), then acts as before. */
    public static <T> T as(Actor actor, Supplier<T> work) {
        Actor before = CURRENT.get();
        CURRENT.set(actor);
        try {
            return work.get();
        } finally {
            CURRENT.set(before);
        }
    }

    @Override
    public void filter(ContainerRequestContext request) {
        if (resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(Requires.class)
                && request.getSecurityContext().getUserPrincipal() instanceof Caller caller) {
            CURRENT.set(Actor.of(caller, request.getSecurityContext().getAuthenticationScheme(), address(),
                    RequestIds.of(servlet)));
        } else if (CURRENT.get() != null) { // a pooled thread never carries an earlier request's actor
            CURRENT.remove();
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (CURRENT.get() != null) {
            CURRENT.remove();
        }
    }

    private String address() {
        byte[] client = addresses.resolve(servlet.getRemoteAddr(), servlet.getHeader("X-Forwarded-For"));
        try {
            return client == null ? servlet.getRemoteAddr() : InetAddress.getByAddress(client).getHostAddress();
        } catch (UnknownHostException impossible) { // four or sixteen bytes, always
            return servlet.getRemoteAddr();
        }
    }
}
