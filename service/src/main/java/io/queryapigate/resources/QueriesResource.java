package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.history.RunHistory;
import io.queryapigate.queries.Definition;
import io.queryapigate.queries.QueryAnalysis;
import io.queryapigate.queries.QueryViews;
import io.queryapigate.queries.SavedQueries;
import io.queryapigate.store.SavedQueryRow;
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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code /api/v1/queries}: saved queries, their versions, publishing, filing and run history, in the Python
 * original's shapes. A query's detail carries an {@code ETag}; a change may send {@code If-Match} and gets 412
 * {@code precondition_failed} when the query changed since. Administrators only.
 */
@Path("/api/v1/queries")
@Produces(MediaType.APPLICATION_JSON)
public class QueriesResource {
    private static final String IF_MATCH = "If-Match";

    private final SavedQueries saved;
    private final QueryViews views;
    private final QueryAnalysis analysis;
    private final RunHistory history;

    public QueriesResource(SavedQueries saved, QueryViews views, QueryAnalysis analysis, RunHistory history) {
        this.saved = saved;
        this.views = views;
        this.analysis = analysis;
        this.history = history;
    }

    @GET
    @Requires(Capability.QUERIES_READ)
    public ObjectNode list(@Auth Caller caller, @QueryParam("collection") String collection,
            @QueryParam("connection") String connection, @QueryParam("search") String search,
            @QueryParam("status") String status) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.set("items", views.list(collection, connection, search, status));
        return out;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public Response create(@Auth Caller caller, JsonNode body) {
        Definition d = saved.create(body, caller.name());
        return detail(body.get("name").textValue(), 201, out -> warnings(out, d));
    }

    @POST
    @Path("/validate")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public ObjectNode validate(@Auth Caller caller, JsonNode body) {
        return analysis.validate(body, caller.name());
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.QUERIES_READ)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return detail(name, 200, null);
    }

    /** Query-level fields: only {@code collection} ({@code null} takes it out of any). */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam(IF_MATCH) String ifMatch, JsonNode body) {
        checkIfMatch(name, ifMatch);
        only(body, Set.of("collection"), "Only 'collection' can be changed on a query (unknown: %s) - change"
                + " anything else by adding a version");
        if (body.has("collection")) {
            saved.setCollection(name, body.get("collection"));
        }
        return detail(name, 200, null);
    }

    @DELETE
    @Path("/{name}")
    @Requires(Capability.QUERIES_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam(IF_MATCH) String ifMatch) {
        checkIfMatch(name, ifMatch);
        saved.delete(name);
        return Response.noContent().build();
    }

    @POST
    @Path("/{name}/versions")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public Response addVersion(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam(IF_MATCH) String ifMatch, JsonNode body) {
        checkIfMatch(name, ifMatch);
        Map.Entry<Integer, Definition> added = saved.addVersion(name, body, caller.name());
        return detail(name, 201, out -> warnings(out.put("created_version", added.getKey()), added.getValue()));
    }

    @GET
    @Path("/{name}/versions/{version: [0-9]{1,9}}")
    @Requires(Capability.QUERIES_READ)
    public ObjectNode getVersion(@Auth Caller caller, @PathParam("name") String name,
            @PathParam("version") int version) {
        SavedQueryRow q = saved.get(name);
        return views.version(q, saved.version(q, version));
    }

    @GET
    @Path("/{name}/versions/{version: [0-9]{1,9}}/flow")
    @Requires(Capability.QUERIES_READ)
    public ObjectNode flow(@Auth Caller caller, @PathParam("name") String name, @PathParam("version") int version) {
        SavedQueryRow q = saved.get(name);
        return analysis.flow(saved.version(q, version));
    }

    /** A version's {@code cache_ttl} (null or 0 turns caching off) and {@code mcp}: what changes in place. */
    @PATCH
    @Path("/{name}/versions/{version: [0-9]{1,9}}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public Response updateVersion(@Auth Caller caller, @PathParam("name") String name,
            @PathParam("version") int version, @HeaderParam(IF_MATCH) String ifMatch, JsonNode body) {
        checkIfMatch(name, ifMatch);
        only(body, Set.of("cache_ttl", "mcp"), "Only 'cache_ttl' and 'mcp' can be changed on a version (unknown:"
                + " %s)");
        saved.patchVersion(name, version, body.has("cache_ttl") ? body.get("cache_ttl") : null,
                body.has("mcp") ? body.get("mcp") : null);
        return detail(name, 200, null);
    }

    /** 204 when it was the last version (the query is gone with it), else the query. */
    @DELETE
    @Path("/{name}/versions/{version: [0-9]{1,9}}")
    @Requires(Capability.QUERIES_WRITE)
    public Response deleteVersion(@Auth Caller caller, @PathParam("name") String name,
            @PathParam("version") int version, @HeaderParam(IF_MATCH) String ifMatch) {
        checkIfMatch(name, ifMatch);
        return saved.deleteVersion(name, version) ? detail(name, 200, null) : Response.noContent().build();
    }

    /** Serves {@code {"version": n}}: a draft (publish) or an older version (roll back). */
    @POST
    @Path("/{name}/publish")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.QUERIES_WRITE)
    public Response publish(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam(IF_MATCH) String ifMatch, JsonNode body) {
        checkIfMatch(name, ifMatch);
        saved.publish(name, body);
        return detail(name, 200, null);
    }

    @POST
    @Path("/{name}/unpublish")
    @Requires(Capability.QUERIES_WRITE)
    public Response unpublish(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam(IF_MATCH) String ifMatch) {
        checkIfMatch(name, ifMatch);
        saved.unpublish(name);
        return detail(name, 200, null);
    }

    @GET
    @Path("/{name}/history")
    @Requires(Capability.QUERIES_READ)
    public ObjectNode history(@Auth Caller caller, @PathParam("name") String name,
            @QueryParam("version") String version, @QueryParam("status") String status,
            @QueryParam("key") String key, @QueryParam("since") String since, @QueryParam("until") String until,
            @QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        return history.ofQuery(saved.get(name), new RunHistory.Request(null, version, status, key, since, until,
                limit, cursor, null));
    }

    /** The query's detail with its ETag; {@code extra} adds to the body (null: nothing). */
    private Response detail(String name, int status, Consumer<ObjectNode> extra) {
        SavedQueryRow q = saved.get(name);
        ObjectNode body = views.detail(name);
        if (extra != null) {
            extra.accept(body);
        }
        return Response.status(status).entity(body).header("ETag", views.etag(q, saved.versions(q.id()))).build();
    }

    /** A draft saved although it cannot run yet says why, in {@code warnings}. */
    private static void warnings(ObjectNode body, Definition d) {
        if (!d.runnable()) {
            d.warnings().forEach(body.putArray("warnings")::add);
        }
    }

    /**
     * 404 when the query does not exist (before the body is looked at, as in the original), 412 when {@code If-Match}
     * names another state of it than the current one.
     */
    private void checkIfMatch(String name, String ifMatch) {
        String current = views.etag(name);
        if (ifMatch != null && !ifMatch.isBlank() && !ifMatch.strip().equals("*")
                && !ifMatch.strip().equals(current)) {
            throw new ApiException(412, "precondition_failed", "This query changed since you loaded it - reload it"
                    + " and try again");
        }
    }

    /** A JSON object whose fields are among {@code allowed}, else 400 {@code unknown_field}. */
    private static void only(JsonNode body, Set<String> allowed, String message) {
        if (body == null || !body.isObject()) {
            throw new ApiException(400, "invalid_body", "Request body must be a JSON object");
        }
        Set<String> unknown = new TreeSet<>();
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                unknown.add(f);
            }
        }
        if (!unknown.isEmpty()) {
            Map<String, String> errors = new LinkedHashMap<>();
            unknown.forEach(f -> errors.put(f, "cannot be changed here"));
            throw new ApiException(400, "unknown_field", String.format(message, String.join(", ", unknown)), errors);
        }
    }
}
