package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.agentwrites.AgentWrites;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.listing.ListingParams;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * {@code /api/v1/write-requests}: the writes AI agents asked to make through saved queries marked {@code agent_writes}
 * (package {@code agentwrites}), in the caller's workspace, newest first; approving or rejecting a pending one. Another
 * workspace's request is 404 {@code write_request_not_found}. Administrators with {@code writes.approve}.
 */
@Path("/api/v1/write-requests")
@Produces(MediaType.APPLICATION_JSON)
public class WriteRequestsResource {
    private static final int DEFAULT_LIMIT = 200;
    private static final int MAX_LIMIT = 1000;
    private final AgentWrites writes;

    public WriteRequestsResource(AgentWrites writes) {
        this.writes = writes;
    }

    /** {@code ?status=pending} for those waiting; {@code query}, {@code caller} and {@code limit} narrow it. */
    @GET
    @Requires(Capability.WRITES_APPROVE)
    public ObjectNode list(@Auth Caller caller, @QueryParam("status") String status, @QueryParam("query") String query,
            @QueryParam("caller") String asker, @QueryParam("limit") String limit) {
        int size = ListingParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.putArray("items").addAll(writes.list(status, ListingParams.blank(query) ? null : query,
                ListingParams.blank(asker) ? null : asker, size));
        return out;
    }

    @GET
    @Path("/{id}")
    @Requires(Capability.WRITES_APPROVE)
    public ObjectNode get(@Auth Caller caller, @PathParam("id") String id) {
        return writes.get(id);
    }

    /** Lets it run: the agent may call the tool again, with the same arguments, before it expires. */
    @POST
    @Path("/{id}/approve")
    @Requires(Capability.WRITES_APPROVE)
    public ObjectNode approve(@Auth Caller caller, @PathParam("id") String id) {
        return writes.decide(caller, id, true, null);
    }

    /** Refuses it, with an optional {@code reason} the agent is told. */
    @POST
    @Path("/{id}/reject")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.WRITES_APPROVE)
    public ObjectNode reject(@Auth Caller caller, @PathParam("id") String id, JsonNode body) {
        String reason = null;
        if (body != null && !body.isNull() && !body.isMissingNode()) {
            if (!body.isObject()) {
                throw new ApiException(400, "invalid_body", "Request body must be a JSON object");
            }
            JsonNode r = body.get("reason");
            if (r != null && !r.isNull()) {
                if (!r.isTextual()) {
                    throw new ApiException(400, "invalid_body", "reason is text of at most 500 characters",
                            Map.of("reason", "must be text"));
                }
                reason = r.textValue();
            }
        }
        return writes.decide(caller, id, false, reason);
    }
}
