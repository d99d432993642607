package io.queryapigate.workspaces;

import io.queryapigate.admins.AdminCallers;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;
import io.queryapigate.scope.Scope;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/**
 * The workspace a request acts in, settled once its caller is known (after authentication, before the capability
 * check): an API key or a signed-in user acts in its own, and a path naming another is 404
 * {@code workspace_not_found}, as for one that does not exist (a key never learns which workspaces there are); the
 * break-glass key and administrators act in the one the path names ({@value Scope#DEFAULT} when none), which must
 * exist and, for an administrator without a server-wide role, be one of its memberships (404 otherwise). An
 * administrator's caller is made again for that workspace ({@link AdminCallers#in}). A request without a caller (a
 * public route) may only name the default workspace.
 */
@Priority(Priorities.AUTHENTICATION + 50)
public final class WorkspaceSettling implements ContainerRequestFilter {
    private final Workspaces workspaces;

    public WorkspaceSettling(Workspaces workspaces) {
        this.workspaces = workspaces;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String named = (String) request.getProperty(WorkspacePrefix.NAMED);
        SecurityContext security = request.getSecurityContext();
        if (!(security.getUserPrincipal() instanceof Caller caller)) {
            if (named != null && !Scope.DEFAULT.equals(named)) {
                throw Workspaces.notFound(named);
            }
            return;
        }
        Caller settled = settle(caller, named);
        Scope.set(settled.workspace());
        if (settled != caller) {
            request.setSecurityContext(new Settled(security, settled));
        }
    }

    /**
     * The caller as it acts in the workspace {@code named} (null: none named), as this filter settles it; for the
     * MCP server's gate, which settles its requests outside Jersey.
     *
     * @throws io.queryapigate.errors.ApiException 404 {@code workspace_not_found}
     */
    public Caller settle(Caller caller, String named) {
        Identity identity = caller.identity();
        if (!identity.administrator()) {
            if (named != null && !named.equals(caller.workspace())) {
                throw Workspaces.notFound(named);
            }
            return caller;
        }
        String workspace = named == null ? caller.workspace() : named;
        if (named != null && (!workspaces.exists(named) || identity.kind() == Identity.Kind.ADMINISTRATOR
                && !identity.serverWide() && !identity.memberships().containsKey(named))) {
            throw Workspaces.notFound(named);
        }
        return workspace.equals(caller.workspace()) ? caller : AdminCallers.in(caller, workspace);
    }

    /** The same security context, with the caller made for the workspace it acts in. */
    private record Settled(SecurityContext original, Caller caller) implements SecurityContext {
        @Override
        public Principal getUserPrincipal() {
            return caller;
        }

        @Override
        public boolean isUserInRole(String role) {
            return original.isUserInRole(role);
        }

        @Override
        public boolean isSecure() {
            return original.isSecure();
        }

        @Override
        public String getAuthenticationScheme() {
            return original.getAuthenticationScheme();
        }
    }
}
