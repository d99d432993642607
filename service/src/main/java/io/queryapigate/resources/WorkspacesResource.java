package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.auth.Requires;
import io.queryapigate.http.ServerTime;
import io.queryapigate.store.MemberRow;
import io.queryapigate.store.WorkspaceRow;
import io.queryapigate.workspaces.Workspaces;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /api/v1/workspaces}: workspaces and their members, in the Python original's shapes. Every administrator
 * lists and reads the workspaces it belongs to (all of them with {@code workspaces.read}); creating, describing and
 * removing one is an owner's ({@code workspaces.write}); a workspace's members are changed by an owner of the server
 * or of that workspace (checked by {@link Workspaces}).
 */
@Path("/api/v1/workspaces")
@Produces(MediaType.APPLICATION_JSON)
public class WorkspacesResource {
    private final Workspaces workspaces;
    private final ObjectMapper mapper;

    public WorkspacesResource(Workspaces workspaces, ObjectMapper mapper) {
        this.workspaces = workspaces;
        this.mapper = mapper;
    }

    @GET
    @Requires(Capability.SELF)
    public ObjectNode list(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        workspaces.list(caller).forEach(w -> items.add(view(w)));
        return out;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.WORKSPACES_WRITE)
    public Response create(@Auth Caller caller, JsonNode body) {
        return answer(workspaces.create(body, caller.name()), 201);
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.SELF)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return answer(workspaces.get(caller, name), 200);
    }

    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.WORKSPACES_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name, JsonNode body) {
        return answer(workspaces.update(name, body), 200);
    }

    /** Only an empty one (what it owns is never removed with it), and never {@code default}. */
    @DELETE
    @Path("/{name}")
    @Requires(Capability.WORKSPACES_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name) {
        workspaces.delete(name);
        return Response.noContent().build();
    }

    @GET
    @Path("/{name}/members")
    @Requires(Capability.SELF)
    public ObjectNode members(@Auth Caller caller, @PathParam("name") String name) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        workspaces.members(caller, name).forEach(m -> items.add(view(m)));
        return out;
    }

    /** Gives an administrator a role in the workspace, or changes it. */
    @PUT
    @Path("/{name}/members/{admin}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.SELF)
    public ObjectNode setMember(@Auth Caller caller, @PathParam("name") String name,
            @PathParam("admin") String admin, JsonNode body) {
        return view(workspaces.setMember(caller, name, admin, body, caller.name()));
    }

    @DELETE
    @Path("/{name}/members/{admin}")
    @Requires(Capability.SELF)
    public Response removeMember(@Auth Caller caller, @PathParam("name") String name,
            @PathParam("admin") String admin) {
        workspaces.removeMember(caller, name, admin);
        return Response.noContent().build();
    }

    private Response answer(WorkspaceRow w, int status) {
        return Response.status(status).entity(view(w))
                .header("ETag", "\"" + KeyHasher.hashHex(w.name() + '\u0000' + w.description()).substring(0, 32)
                        + "\"").build();
    }

    private ObjectNode view(WorkspaceRow w) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", w.name());
        o.put("description", w.description());
        o.put("created_at", ServerTime.format(w.createdAt()));
        o.put("created_by", w.createdBy());
        o.put("members", w.members());
        return o;
    }

    private ObjectNode view(MemberRow m) {
        ObjectNode o = mapper.createObjectNode();
        o.put("admin", m.admin());
        o.put("role", m.role());
        o.put("created_at", ServerTime.format(m.createdAt()));
        o.put("added_by", m.createdBy());
        return o;
    }
}
