package io.queryapigate.auth;

import io.queryapigate.errors.ApiException;
import io.queryapigate.http.Bodies;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Checks a management operation's {@link Requires capability} after authentication and before the resource method:
 * 403 {@code admin_only} for a caller that administers nothing (a scoped key, a signed-in user), 403
 * {@code workspace_required} for an administrator with no role in the workspace the request acts in, 403
 * {@code role_forbidden} for a role without the capability. {@link Capability#SELF} is every administrator's.
 */
public final class CapabilityFeature implements DynamicFeature {
    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        Requires requires = resource.getResourceMethod().getAnnotation(Requires.class);
        if (requires != null) {
            context.register(new Check(requires.value()));
        }
    }

    /** Throws unless {@code caller} may use an operation needing {@code capability}. */
    public static void check(Caller caller, Capability capability) {
        Identity identity = caller.identity();
        if (!identity.administrator()) {
            throw ApiException.forbidden("admin_only", "Only an administrator may use the management API.");
        }
        if (capability == Capability.SELF) {
            return;
        }
        AdminRole role = AdminRole.of(identity.role()).orElse(null);
        if (role == null) {
            throw ApiException.forbidden("workspace_required", "You have no role in the workspace '"
                    + identity.workspace() + "': name a workspace you belong to (/w/{workspace}/...).");
        }
        if (!role.allows(capability, identity.serverWide())) {
            throw ApiException.forbidden("role_forbidden", "The " + role.label() + " role may not "
                    + capability.description() + (identity.serverWide() ? "" : " in a workspace (it is server-wide)")
                    + ".");
        }
    }

    @Priority(Priorities.AUTHORIZATION)
    private static final class Check implements ContainerRequestFilter {
        private final Capability capability;

        Check(Capability capability) {
            this.capability = capability;
        }

        @Override
        public void filter(ContainerRequestContext request) {
            try {
                if (!(request.getSecurityContext().getUserPrincipal() instanceof Caller caller)) {
                    throw ApiException.unauthorized();
                }
                check(caller, capability);
            } catch (ApiException refused) {
                drain(request);
                throw refused;
            }
        }

        // a refusal before the resource read the body would leave it unread, and Jetty would then close the
        // connection (Connection: close) where the resource's own refusal kept it open; the body's size is bounded
        private static void drain(ContainerRequestContext request) {
            if (request.hasEntity()) {
                Bodies.discard(request.getEntityStream());
            }
        }
    }
}
