package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.collections.PostmanExport;
import io.queryapigate.collections.QueryCollections;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * {@code /api/v1/collections}: every collection with its queries (and the queries in none), renaming or merging
 * one, and its Postman export. Administrators only.
 */
@Path("/api/v1/collections")
@Produces(MediaType.APPLICATION_JSON)
public class CollectionsResource {
    private final QueryCollections collections;
    private final PostmanExport postman;

    public CollectionsResource(QueryCollections collections, PostmanExport postman) {
        this.collections = collections;
        this.postman = postman;
    }

    @GET
    @Requires(Capability.QUERIES_READ)
    public ObjectNode list(@Auth Caller caller) {
        return collections.listing();
    }

    /** {@code {"name": "new"}}; into an existing collection only with {@code "merge": true}. */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public ObjectNode rename(@Auth Caller caller, @PathParam("name") String name, JsonNode body) {
        return collections.rename(name, body);
    }

    /** The collection as a Postman Collection v2.1 file; its base URL is the one this request came in on. */
    @GET
    @Path("/{name}/postman")
    @Requires(Capability.QUERIES_READ)
    public Response postman(@Auth Caller caller, @PathParam("name") String name, @Context UriInfo uri) {
        return Response.ok(postman.build(name, uri.getBaseUri().toString()))
                .header("Content-Disposition", "attachment; filename=\"" + name + ".postman_collection.json\"")
                .build();
    }
}
