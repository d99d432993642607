package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.AdminRole;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.Requires;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/me}: who the caller is, in the Python original's shape: name, role in the workspace it acts in,
 * how it signed in ({@code via}: {@code break-glass} for the administrator key, {@code token} for a personal admin
 * token, {@code sso} for a console session), the role's capabilities there (without the server-only ones for a role
 * from a membership), whether it may run SQL, and its memberships. Only administrators are someone here: a scoped key
 * or a signed-in user gets 403 {@code admin_only}, as there.
 */
@Path("/api/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {
    @GET
    @Requires(Capability.SELF)
    public ObjectNode me(@Auth Caller caller, @HeaderParam(ApiKeyAuthFilter.HEADER) String key,
            @HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        Identity identity = caller.identity();
        Optional<AdminRole> role = AdminRole.of(identity.role());
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("name", caller.name());
        o.put("role", role.map(AdminRole::label).orElse(null));
        o.put("via", identity.kind() == Identity.Kind.BREAK_GLASS ? "break-glass"
                : key != null || authorization != null ? "token" : "sso");
        var capabilities = o.putArray("capabilities");
        role.ifPresent(r -> Arrays.stream(Capability.values()).filter(c -> r.allows(c, identity.serverWide()))
                .map(Capability::label).sorted().forEach(capabilities::add));
        o.put("data_access", role.map(AdminRole::dataAccess).orElse(false));
        o.put("workspace", identity.workspace());
        o.put("server_wide", identity.serverWide());
        var workspaces = o.putObject("workspaces");
        new TreeMap<>(identity.memberships()).forEach(workspaces::put);
        return o;
    }
}
