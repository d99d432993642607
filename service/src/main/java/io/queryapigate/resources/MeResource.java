package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/v1/me}: who the caller is, in the Python original's shape. Only the administrator key is someone
 * here (the original's owner, signed in with its break-glass key); a scoped key gets 403 {@code admin_only}, as there.
 */
@Path("/api/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {
    /** The original's capabilities that this server has routes for; the administrator key holds them all. */
    static final List<String> CAPABILITIES = List.of("access.read", "access.write", "cache.read", "cache.write",
            "connections.read", "connections.write", "examples.write", "history.forget", "observe", "queries.read",
            "queries.write", "self", "settings.read");

    @GET
    @Requires(Capability.SELF)
    public ObjectNode me(@Auth Caller caller) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("name", caller.name());
        o.put("role", "owner");
        o.put("via", "break-glass");
        CAPABILITIES.forEach(o.putArray("capabilities")::add);
        o.put("data_access", true);
        o.put("workspace", "default");
        o.put("server_wide", true);
        o.putObject("workspaces");
        return o;
    }
}
