package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.history.HistorySummary;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/v1/history/summary}: the workspace's calls over the last {@code hours} (1 by default) or
 * {@code since}/{@code until}, added up: calls, errors, cache hits, p50/p99, by status class, busiest queries.
 */
@Path("/api/v1/history/summary")
@Produces(MediaType.APPLICATION_JSON)
public class HistorySummaryResource {
    private final HistorySummary summary;

    public HistorySummaryResource(HistorySummary summary) {
        this.summary = summary;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode summary(@Auth Caller caller, @QueryParam("since") String since,
            @QueryParam("until") String until, @QueryParam("hours") String hours) {
        return summary.of(since, until, hours);
    }
}
