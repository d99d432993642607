package io.queryapigate.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.admins.Administrators;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.CapabilityFeature;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.Requires;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.store.AdminTokenRow;
import io.queryapigate.store.AdministratorRow;
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
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /api/v1/administrators}: named administrators and their personal admin tokens, in the Python original's
 * shapes. Reading and changing administrators takes {@code admins.read} / {@code admins.write} (owners); anyone signed
 * in as an administrator lists, issues and revokes their own tokens, someone else's take those capabilities too
 * (checked here, as the original does). A token's secret is in the answer that issues it and never again.
 */
@Path("/api/v1/administrators")
@Produces(MediaType.APPLICATION_JSON)
public class AdministratorsResource {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "role", "email");
    private static final Set<String> PATCH_FIELDS = Set.of("role", "email", "active");
    private static final Set<String> TOKEN_FIELDS = Set.of("label", "expires_at");

    private final Administrators admins;
    private final ObjectMapper mapper;
    private final Clock clock;

    public AdministratorsResource(Administrators admins, ObjectMapper mapper, Clock clock) {
        this.admins = admins;
        this.mapper = mapper;
        this.clock = clock;
    }

    @GET
    @Requires(Capability.ADMINS_READ)
    public ObjectNode list(@Auth Caller caller) {
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        admins.list().forEach(row -> items.add(view(row)));
        return out;
    }

    /** A new administrator; it signs in with a token issued next ({@code POST .../tokens}). */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ADMINS_WRITE)
    public Response create(@Auth Caller caller, JsonNode node) {
        Body body = Body.of(node, true, CREATE_FIELDS);
        if (!node.has("role")) { // null is a choice (roles only in workspaces), so it is made, never assumed
            throw new ApiException(400, "invalid_body", "role is required: owner, admin, developer or auditor - or"
                    + " null, for an administrator with roles only in workspaces", Map.of("role", "is required"));
        }
        JsonNode name = node.get("name");
        AdministratorRow row = admins.create(name != null && name.isTextual() ? name.textValue() : null,
                body.text("role"), body.text("email"), caller.name());
        return answer(row, 201);
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.ADMINS_READ)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return answer(admins.find(name), 200);
    }

    /** Changes the role, email or {@code active} (false stops every one of their tokens and sessions at once). */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ADMINS_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch, JsonNode node) {
        Body body = Body.of(node, true, PATCH_FIELDS);
        JsonNode active = node.get("active");
        if (active != null && !active.isBoolean()) {
            throw Body.fieldError("active", "must be true or false");
        }
        Administrators.Change change = new Administrators.Change(
                node.has("role") ? Optional.ofNullable(body.text("role")) : null,
                node.has("email") ? Optional.ofNullable(body.text("email")) : null,
                active == null ? null : active.booleanValue());
        return answer(admins.update(name, ifMatch, change), 200);
    }

    /** Removes them, every token they hold and their workspace memberships. */
    @DELETE
    @Path("/{name}")
    @Requires(Capability.ADMINS_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch) {
        admins.delete(name, ifMatch);
        return Response.noContent().build();
    }

    @GET
    @Path("/{name}/tokens")
    @Requires(Capability.SELF)
    public ObjectNode tokens(@Auth Caller caller, @PathParam("name") String name) {
        requireSelfOr(caller, name, Capability.ADMINS_READ);
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        admins.tokens(name).forEach(token -> items.add(view(name, token)));
        return out;
    }

    /** A new token (body optional: {@code label}, {@code expires_at}); its {@code secret} is shown this once. */
    @POST
    @Path("/{name}/tokens")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.SELF)
    public Response issue(@Auth Caller caller, @PathParam("name") String name, String text) {
        requireSelfOr(caller, name, Capability.ADMINS_WRITE);
        Body body = Body.of(Body.optionalJson(mapper, text), false, TOKEN_FIELDS);
        Administrators.Issued issued = admins.issue(name, body.text("label"), body.text("expires_at"));
        ObjectNode out = view(name, issued.token());
        out.put("secret", issued.secret());
        return Response.status(201).entity(out).header("Cache-Control", "no-store").build();
    }

    @DELETE
    @Path("/{name}/tokens/{token}")
    @Requires(Capability.SELF)
    public Response revoke(@Auth Caller caller, @PathParam("name") String name, @PathParam("token") String token) {
        requireSelfOr(caller, name, Capability.ADMINS_WRITE);
        admins.revoke(name, token);
        return Response.noContent().build();
    }

    // your own tokens whatever your role; someone else's need the capability, server-wide
    private static void requireSelfOr(Caller caller, String name, Capability capability) {
        if (caller.identity().kind() == Identity.Kind.ADMINISTRATOR && caller.name().equals(name)) {
            return;
        }
        CapabilityFeature.check(caller, capability);
    }

    private Response answer(AdministratorRow row, int status) {
        return Response.status(status).entity(view(row)).header("ETag", Administrators.etag(row)).build();
    }

    private ObjectNode view(AdministratorRow row) {
        ObjectNode o = mapper.createObjectNode();
        o.put("name", row.name());
        o.put("role", row.role());
        o.put("active", row.active());
        o.put("created_at", ServerTime.format(row.createdAt()));
        o.put("email", row.email());
        o.put("created_by", row.createdBy());
        o.put("last_seen_at", row.lastSeenAt() == null ? null : ServerTime.format(row.lastSeenAt()));
        if (row.subject() == null) {
            o.putNull("sso");
        } else { // the provider, never the subject
            o.putObject("sso").put("status", "linked").put("issuer", row.issuer());
        }
        o.put("tokens", admins.tokenCount(row));
        o.set("workspaces", mapper.valueToTree(new java.util.TreeMap<>(admins.memberships(row))));
        return o;
    }

    private ObjectNode view(String admin, AdminTokenRow token) {
        ObjectNode o = mapper.createObjectNode();
        o.put("id", Administrators.tokenId(token));
        o.put("admin", admin);
        o.put("label", token.label());
        o.put("created_at", ServerTime.format(token.createdAt()));
        o.put("expires_at", token.expiresAt());
        o.put("last_used_at", token.lastUsedAt() == null ? null : ServerTime.format(token.lastUsedAt()));
        o.put("expired", Administrators.expired(token, clock));
        return o;
    }
}
