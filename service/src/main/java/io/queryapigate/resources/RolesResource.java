package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Requires;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.http.ServerTime;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.roles.Roles;
import io.queryapigate.store.RoleRow;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code /api/v1/roles}: API-key roles, named grant templates of the caller's workspace, in the Python original's
 * shapes (a role's fields are a key's grant fields, plus {@code description}). Each role answer carries an {@code ETag}
 * that {@code If-Match} on a change or delete may name (412 when the role changed since). A role of another workspace
 * is 404 {@code role_not_found}. Administrators only.
 */
@Path("/api/v1/roles")
@Produces(MediaType.APPLICATION_JSON)
public class RolesResource {
    private static final Set<String> PATCH_FIELDS;
    private static final Set<String> CREATE_FIELDS;

    static {
        Set<String> fields = new HashSet<>(Roles.GRANT_FIELDS);
        fields.addAll(Roles.ROLE_FIELDS);
        PATCH_FIELDS = Set.copyOf(fields);
        fields.add("name");
        CREATE_FIELDS = Set.copyOf(fields);
    }

    private final Roles roles;
    private final ManagedObjects managed;
    private final ConnectionRegistry connections;
    private final ObjectMapper mapper;
    private final boolean hashMasking;

    /** @param hashMasking whether the server has a masking key (hash mask rules) */
    public RolesResource(Roles roles, ManagedObjects managed, ConnectionRegistry connections, ObjectMapper mapper,
            boolean hashMasking) {
        this.roles = roles;
        this.managed = managed;
        this.connections = connections;
        this.mapper = mapper;
        this.hashMasking = hashMasking;
    }

    @GET
    @Requires(Capability.ACCESS_READ)
    public ObjectNode list(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        for (RoleRow row : roles.list(caller.workspace())) {
            items.add(view(row));
        }
        return out;
    }

    /** A new role: 201; 400 {@code invalid_name} or {@code invalid_body} (every bad field named), 409 {@code role_exists}. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ACCESS_WRITE)
    public Response create(@Auth Caller caller, JsonNode node) {
        Body.of(node, true, CREATE_FIELDS);
        String name = Roles.checkName(node.path("name").isTextual() ? node.get("name").textValue() : null);
        Roles.State state = change(node, Roles.NONE);
        return answer(roles.create(caller.workspace(), name, state, caller.name()), 201);
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.ACCESS_READ)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return answer(roles.find(caller.workspace(), name), 200);
    }

    /** Changes some of the role's fields (null clears one); its keys get the change too. */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ACCESS_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch, JsonNode node) {
        Body.of(node, true, PATCH_FIELDS);
        return answer(roles.update(caller.workspace(), name, ifMatch, read -> change(node, read), caller.name()), 200);
    }

    /** Deletes the role: 204; 409 {@code role_in_use} while keys are made from it. */
    @DELETE
    @Path("/{name}")
    @Requires(Capability.ACCESS_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch) {
        roles.delete(caller.workspace(), name, ifMatch);
        return Response.noContent().build();
    }

    private Roles.State change(JsonNode node, Roles.State read) {
        return Roles.apply(node, read, c -> connections.get(c).isPresent(), hashMasking);
    }

    private Response answer(RoleRow row, int status) {
        return Response.status(status).entity(view(row)).header("ETag", Roles.etag(row)).build();
    }

    private ObjectNode view(RoleRow row) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", row.name());
        o.put("id", row.id());
        o.put("workspace", row.workspace());
        o.put("description", row.description());
        GrantsView.put(o, roles.grants(row), mapper);
        o.put("require_claim_binding", false);
        o.put("created_at", ServerTime.format(row.createdAt()));
        o.put("created_by", row.createdBy());
        o.put("updated_at", ServerTime.format(row.updatedAt()));
        o.put("updated_by", row.updatedBy());
        o.put("example", false);
        List<String> keys = roles.keysOf(row);
        o.put("keys_created", keys.size());
        o.set("keys", mapper.valueToTree(keys));
        o.put("managed_by", managed.owner(ManagedObjects.ROLES, row.name()).orElse(null));
        return o;
    }
}
