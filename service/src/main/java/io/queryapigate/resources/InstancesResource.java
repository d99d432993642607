package io.queryapigate.resources;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.instances.Instances;
import io.queryapigate.store.InstanceRow;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /api/v1/instances}: the gateway processes using this store ({@link Instances}), each {@code alive} or
 * {@code stale}, and what looks wrong about them. The server's, not a workspace's: a server-wide role only (403
 * {@code role_forbidden} for a role from a workspace membership).
 */
@Path("/api/v1/instances")
@Produces(MediaType.APPLICATION_JSON)
public class InstancesResource {
    private final Instances instances;
    private final ObjectMapper mapper;

    public InstancesResource(Instances instances, ObjectMapper mapper) {
        this.instances = instances;
        this.mapper = mapper;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode list(@Auth Caller caller) {
        if (!caller.identity().serverWide()) {
            throw ApiException.forbidden("role_forbidden", "Only a server-wide role may see the server's instances"
                    + " - a role in a workspace administers that workspace.");
        }
        List<Instances.Instance> all = instances.list();
        ObjectNode body = mapper.createObjectNode();
        ArrayNode items = body.putArray("items");
        for (Instances.Instance i : all) {
            InstanceRow r = i.row();
            ObjectNode o = items.addObject();
            o.put("id", r.id());
            o.put("host", r.host());
            o.put("pid", r.pid());
            o.put("role", "serve");
            o.put("version", r.version());
            o.put("shared_limits", r.sharedLimits());
            o.put("store", r.storeKind());
            o.put("started_at", ServerTime.format(r.startedAt()));
            o.put("last_seen", ServerTime.format(r.lastSeen()));
            o.put("status", i.alive() ? "alive" : "stale");
            o.put("this", i.self());
        }
        ArrayNode problems = body.putArray("problems");
        for (Instances.Problem p : instances.problems(all)) {
            problems.addObject().put("kind", p.kind()).put("message", p.message());
        }
        return body;
    }
}
