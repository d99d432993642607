package io.queryapigate.resources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.examples.Examples;
import io.queryapigate.workspaces.Workspaces;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/v1/examples}: whether the example APIs are installed, installing them (their keys' secrets are in
 * the answer, this once, {@code Cache-Control: no-store}) and removing exactly them. Administrators only.
 */
@Path("/api/v1/examples")
@Produces(MediaType.APPLICATION_JSON)
public class ExamplesResource {
    private final Examples examples;

    public ExamplesResource(Examples examples) {
        this.examples = examples;
    }

    @GET
    @Requires(Capability.QUERIES_READ)
    public ObjectNode status(@Auth Caller caller) {
        return examples.status();
    }

    @POST
    @Requires(Capability.EXAMPLES_WRITE)
    public Response load(@Auth Caller caller) {
        Workspaces.requireDefault(caller, "The example APIs");
        return Response.ok(examples.load()).header("Cache-Control", "no-store").build();
    }

    @DELETE
    @Requires(Capability.EXAMPLES_WRITE)
    public ObjectNode unload(@Auth Caller caller) {
        Workspaces.requireDefault(caller, "The example APIs");
        return examples.unload();
    }
}
