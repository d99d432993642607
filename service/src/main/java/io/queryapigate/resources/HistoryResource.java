package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.history.RunHistory;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /api/v1/history}: every call, saved-query runs and ad-hoc SQL, newest first ({@code kind}, {@code query},
 * {@code version}, {@code status}, {@code key}, {@code since}, {@code until}, {@code limit}, {@code cursor}); and
 * forgetting one caller's runs ({@code DELETE ?caller=}). Administrators only.
 */
@Path("/api/v1/history")
@Produces(MediaType.APPLICATION_JSON)
public class HistoryResource {
    private final RunHistory history;

    public HistoryResource(RunHistory history) {
        this.history = history;
    }

    @GET
    @Requires(Capability.OBSERVE)
    public ObjectNode search(@Auth Caller caller, @QueryParam("query") String query,
            @QueryParam("version") String version, @QueryParam("status") String status,
            @QueryParam("key") String key, @QueryParam("since") String since, @QueryParam("until") String until,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @QueryParam("kind") String kind) {
        return history.ofEverything(new RunHistory.Request(query, version, status, key, since, until, limit, cursor,
                kind));
    }

    /** Deletes every run of {@code caller} (a key's name), or counts them with {@code dry_run=true}. */
    @DELETE
    @Requires(Capability.HISTORY_FORGET)
    public ObjectNode forget(@Auth Caller caller, @QueryParam("caller") String who,
            @QueryParam("dry_run") String dryRun) {
        return history.forget(who, "true".equals(dryRun));
    }
}
