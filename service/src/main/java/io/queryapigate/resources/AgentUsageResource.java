package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.history.AgentUsage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/v1/usage/agents}: what each AI agent did through the MCP server in the caller's workspace, in
 * {@code since}/{@code until} or the last {@code hours} (by default the last 24 hours), from the event log.
 */
@Path("/api/v1/usage/agents")
@Produces(MediaType.APPLICATION_JSON)
public class AgentUsageResource {
    private final AgentUsage usage;

    public AgentUsageResource(AgentUsage usage) {
        this.usage = usage;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode agents(@Auth Caller caller, @QueryParam("since") String since,
            @QueryParam("until") String until, @QueryParam("hours") String hours) {
        return usage.agents(since, until, hours);
    }
}
