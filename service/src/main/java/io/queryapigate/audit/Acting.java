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
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.FeatureContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Supplier;

/**
 * The {@link Actor} the code on this thread acts for, which {@link AuditLog} records: a management request's caller
 * (set by this feature's filter on every {@link Requires} route, once the caller and its workspace are settled, and
 * cleared with the response), a command's ({@link #as}), else {@link Actor#SERVER}.
 */
public final class Acting implements DynamicFeature {
    private static final ThreadLocal<Actor> CURRENT = new ThreadLocal<>();

    private final ClientAddress addresses;

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
    public void configure(ResourceInfo resource, FeatureContext context) {
        if (resource.getResourceMethod().getAnnotation(Requires.class) != null) {
            context.register(new Filter(addresses));
        }
    }

    @Priority(Priorities.AUTHORIZATION + 10)
    private static final class Filter implements ContainerRequestFilter, ContainerResponseFilter {
        private final ClientAddress addresses;
        @Context
        private HttpServletRequest servlet;

        Filter(ClientAddress addresses) {
            this.addresses = addresses;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            if (request.getSecurityContext().getUserPrincipal() instanceof Caller caller) {
                CURRENT.set(Actor.of(caller, request.getSecurityContext().getAuthenticationScheme(), address(),
                        servlet == null ? null : RequestIds.of(servlet)));
            }
        }

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            CURRENT.remove();
        }

        private String address() {
            if (servlet == null) {
                return null;
            }
            byte[] client = addresses.resolve(servlet.getRemoteAddr(), servlet.getHeader("X-Forwarded-For"));
            try {
                return client == null ? servlet.getRemoteAddr() : InetAddress.getByAddress(client).getHostAddress();
            } catch (UnknownHostException impossible) { // four or sixteen bytes, always
                return servlet.getRemoteAddr();
            }
        }
    }
}
