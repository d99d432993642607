package io.queryapigate.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.connections.Connections;
import io.queryapigate.errors.ApiException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/v1/connections}: connections managed through the API, beside the YAML's (read-only here). Each answer
 * about one connection carries an {@code ETag} that {@code If-Match} on a change or delete may name (412 when it
 * changed since). Administrators only; a password is never answered.
 */
@Path("/api/v1/connections")
@Produces(MediaType.APPLICATION_JSON)
public class ConnectionsResource {
    private final Connections connections;
    private final ObjectMapper mapper;

    public ConnectionsResource(Connections connections, ObjectMapper mapper) {
        this.connections = connections;
        this.mapper = mapper;
    }

    @GET
    @Requires(Capability.CONNECTIONS_READ)
    public ObjectNode list(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        out.set("items", connections.list());
        return out;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_WRITE)
    public Response create(@Auth Caller caller, JsonNode body) {
        return answer(connections.create(body, caller.name()), 201);
    }

    /** Deleted connections, newest first, with who deleted them and why. */
    @GET
    @Path("/deleted")
    @Requires(Capability.CONNECTIONS_READ)
    public ObjectNode deleted(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        out.set("items", connections.deleted());
        return out;
    }

    /** Tries the given fields (or a saved connection's, given only its {@code name}); nothing is saved. */
    @POST
    @Path("/test")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_WRITE)
    public ObjectNode test(@Auth Caller caller, JsonNode body) {
        return connections.test(body);
    }

    /** The databases the given fields (or a saved connection, by {@code name}) can see. */
    @POST
    @Path("/databases")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_WRITE)
    public ObjectNode databases(@Auth Caller caller, JsonNode body) {
        return connections.databases(body);
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.CONNECTIONS_READ)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return answer(connections.get(name), 200);
    }

    /** Changes the given fields; the others are kept. The password mask (or no {@code password}) keeps it. */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.CONNECTIONS_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch, JsonNode body) {
        return answer(connections.update(name, ifMatch, body, caller.name()), 200);
    }

    /** Soft-deletes it; the body's {@code reason} is required, {@code ?force=true} even if queries use it. */
    @DELETE
    @Path("/{name}")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.CONNECTIONS_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch, @QueryParam("force") String force, String text) {
        JsonNode body = optionalJson(text);
        String reason = body != null && body.path("reason").isTextual() ? body.get("reason").textValue() : null;
        connections.delete(name, ifMatch, reason, "true".equalsIgnoreCase(force) || "1".equals(force),
                caller.name());
        return Response.noContent().build();
    }

    /** Brings a deleted connection back. */
    @POST
    @Path("/{name}/restore")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.CONNECTIONS_WRITE)
    public Response restore(@Auth Caller caller, @PathParam("name") String name) {
        return answer(connections.restore(name, caller.name()), 200);
    }

    private JsonNode optionalJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            JsonNode node = mapper.readTree(text);
            if (!node.isObject()) {
                throw ApiException.badRequest("invalid_body", "The request body must be a JSON object.");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_body", "The request body must be a JSON object.");
        }
    }

    private static Response answer(Connections.Answer a, int status) {
        return Response.status(status).entity(a.body()).header("ETag", a.etag()).build();
    }
}
