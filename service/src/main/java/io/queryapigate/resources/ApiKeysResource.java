package io.queryapigate.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Capability;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.Quota;
import io.queryapigate.auth.Requires;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.keys.KeyBody;
import io.queryapigate.keys.KeyFields;
import io.queryapigate.limits.Quotas;
import io.queryapigate.store.ApiKeyDao.KeyUsage;
import io.queryapigate.store.ApiKeyRow;
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
import java.math.BigDecimal;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/v1/api-keys}: scoped keys, in the Python original's shapes. A secret is shown once, by the create and
 * rotate answers, with {@code Cache-Control: no-store}; only its SHA-256 is stored. Each key answer carries an {@code
 * ETag} that {@code If-Match} on a change or delete may name (412 when the key changed since). A key may be made from
 * a role of the caller's workspace ({@code role}): its grant fields then narrow the role's, and {@code
 * effective_grants} says what it may do. {@code claims} are its fixed values for {@code from_claim} parameters.
 * Administrators only.
 */
@Path("/api/v1/api-keys")
@Produces(MediaType.APPLICATION_JSON)
public class ApiKeysResource {
    private static final Set<String> CREATE_FIELDS = union(KeyBody.GRANT_FIELDS, "name", "expires_at", "role",
            "claims");
    private static final Set<String> PATCH_FIELDS = union(KeyBody.GRANT_FIELDS, "active", "expires_at", "role",
            "claims");
    private static final Set<String> ALL_FIELDS = union(CREATE_FIELDS, "active");
    private static final Set<String> ROTATE_FIELDS = Set.of("grace_minutes");

    private final ApiKeys keys;
    private final Quotas quotas;
    private final ConnectionRegistry connections;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final boolean hashMasking;
    private final ServerLimits server;

    /**
     * The server's limits a key's own narrow, for {@code effective_limits}.
     *
     * @param queryTimeoutSeconds {@code limits.queryTimeout}
     * @param maxPageSize the largest page
     * @param streamMaxRows the stream ceiling, 0 for none
     */
    public record ServerLimits(double queryTimeoutSeconds, int maxPageSize, long streamMaxRows) {}

    public ApiKeysResource(ApiKeys keys, Quotas quotas, ConnectionRegistry connections, ObjectMapper mapper,
            Clock clock, boolean hashMasking, ServerLimits server) {
        this.keys = keys;
        this.quotas = quotas;
        this.connections = connections;
        this.mapper = mapper;
        this.clock = clock;
        this.hashMasking = hashMasking;
        this.server = server;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ACCESS_WRITE)
    public Response create(@Auth Caller caller, JsonNode node) {
        Body.of(node, true, CREATE_FIELDS);
        String name = node.path("name").isTextual() ? node.get("name").textValue() : null;
        try {
            KeyFields.name(name);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "invalid_name", "An API key name " + e.getMessage() + ".",
                    Map.of("name", e.getMessage()));
        }
        String role = node.path("role").isTextual() ? node.get("role").textValue() : null;
        ApiKeys.State state = change(node, role == null ? KeyBody.NONE : KeyBody.fromRole(role));
        ApiKeys.Issued issued = keys.create(caller.workspace(), name, state);
        return answer(issued.key(), 201, issued.secret());
    }

    @GET
    @Requires(Capability.ACCESS_READ)
    public ObjectNode list(@Auth Caller caller) {
        Map<Long, KeyUsage> usage = usage();
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        for (ApiKeyRow row : keys.list()) {
            items.add(view(row, usage));
        }
        return out;
    }

    @GET
    @Path("/{name}")
    @Requires(Capability.ACCESS_READ)
    public Response get(@Auth Caller caller, @PathParam("name") String name) {
        return answer(keys.find(name), 200, null);
    }

    /** Changes grants, limits, the expiry or {@code active} (false revokes the key at once); null clears a field. */
    @PATCH
    @Path("/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Requires(Capability.ACCESS_WRITE)
    public Response update(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch, JsonNode node) {
        Body.of(node, true, PATCH_FIELDS);
        return answer(keys.update(name, ifMatch, read -> change(node, read)), 200, null);
    }

    /**
     * A new secret, shown this once; the old one keeps working for {@code grace_minutes} (default 60, at most a
     * week, 0 stops it at once). The body is optional.
     */
    @POST
    @Path("/{name}/rotate")
    @Consumes(MediaType.WILDCARD)
    @Requires(Capability.ACCESS_WRITE)
    public Response rotate(@Auth Caller caller, @PathParam("name") String name, String text) {
        JsonNode node = optionalJson(text);
        Body.of(node, false, ROTATE_FIELDS);
        keys.find(name);
        int grace;
        try {
            grace = KeyFields.graceMinutes(node == null ? null : node.get("grace_minutes"),
                    ApiKeys.DEFAULT_GRACE_MINUTES, ApiKeys.MAX_GRACE_MINUTES);
        } catch (IllegalArgumentException e) {
            throw Body.fieldError("grace_minutes", e.getMessage());
        }
        ApiKeys.Issued issued = keys.rotate(name, grace);
        return answer(issued.key(), 200, issued.secret());
    }

    /** Stops the key's previous secret now, before its grace period ends. */
    @DELETE
    @Path("/{name}/previous")
    @Requires(Capability.ACCESS_WRITE)
    public Response endPrevious(@Auth Caller caller, @PathParam("name") String name) {
        return answer(keys.endPrevious(name), 200, null);
    }

    /** Deletes the key: anything still using it stops at once, and its name may be used again. */
    @DELETE
    @Path("/{name}")
    @Requires(Capability.ACCESS_WRITE)
    public Response delete(@Auth Caller caller, @PathParam("name") String name,
            @HeaderParam("If-Match") String ifMatch) {
        keys.delete(name, ifMatch);
        return Response.noContent().build();
    }

    // the fields present in the body applied to a key's state, by the rules a configuration file's keys follow too
    private ApiKeys.State change(JsonNode node, ApiKeys.State read) {
        Body.of(node, true, ALL_FIELDS);
        return KeyBody.applyAll(node, read, c -> connections.visible(c).isPresent(), hashMasking);
    }

    private JsonNode optionalJson(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_body", "Request body must be a JSON object");
        }
    }

    private Response answer(ApiKeyRow row, int status, String secret) {
        ObjectNode body = view(row, usage());
        Response.ResponseBuilder r = Response.status(status).entity(body).header("ETag", ApiKeys.etag(row));
        if (secret != null) {
            body.put("secret", secret);
            r.header("Cache-Control", "no-store"); // the one answer that carries a secret
        }
        return r.build();
    }

    private Map<Long, KeyUsage> usage() {
        Map<Long, KeyUsage> out = new java.util.HashMap<>();
        for (KeyUsage u : keys.usage()) {
            out.put(u.keyId(), u);
        }
        return out;
    }

    private ObjectNode view(ApiKeyRow row, Map<Long, KeyUsage> usage) {
        Grants g = keys.effective(row);
        long now = clock.millis();
        ObjectNode o = mapper.createObjectNode();
        o.put("name", row.name());
        o.put("id", row.id());
        o.put("prefix", row.keyPrefix());
        GrantsView.put(o, row.roleName() == null ? g : keys.grants(row), mapper);
        o.put("role", row.roleName());
        if (row.roleName() != null) {
            GrantsView.put(o.putObject("effective_grants"), g, mapper);
        }
        o.set("claims", mapper.valueToTree(keys.claims(row)));
        o.put("active", row.active());
        o.put("expires_at", row.expiresAt());
        o.put("expired", row.expiresAt() != null
                && LocalDate.parse(row.expiresAt()).isBefore(LocalDate.now(clock.withZone(ZoneOffset.UTC))));
        o.put("created_at", ServerTime.format(row.createdAt()));
        if (row.revokedAt() != null) {
            o.put("revoked_at", ServerTime.format(row.revokedAt()));
        }
        o.put("created_from_role", row.roleName());
        o.put("last_used_at", row.lastUsedAt() == null ? null : ServerTime.format(row.lastUsedAt()));
        o.put("previous_expires_at", row.previousWorks(now) ? ServerTime.format(row.previousExpiresAt()) : null);
        o.putNull("previous_last_used_at");
        o.put("example", false);
        KeyUsage u = usage.get(row.id());
        ObjectNode used = o.putObject("usage");
        used.put("queries", u == null ? 0 : u.calls());
        used.put("errors", u == null ? 0 : u.errors());
        used.put("rows", u == null ? 0 : u.rowsOut());
        o.set("effective_limits", effectiveLimits(g));
        o.set("usage_this_period", usageThisPeriod(row.id(), g.quota()));
        return o;
    }

    private ObjectNode effectiveLimits(Grants g) {
        ObjectNode o = mapper.createObjectNode();
        o.set("max_concurrent", mapper.valueToTree(g.maxConcurrent()));
        BigDecimal own = g.queryTimeout();
        // as the original's min(own, server): the key's own as written, or the server's as a float (30.0)
        boolean ownIsLower = own != null && own.doubleValue() < server.queryTimeoutSeconds();
        o.set("query_timeout", ownIsLower ? GrantsView.seconds(own, mapper)
                : mapper.getNodeFactory().numberNode(server.queryTimeoutSeconds()));
        ObjectNode rows = o.putObject("max_rows");
        Integer maxRows = g.maxRows();
        rows.put("page", maxRows == null ? server.maxPageSize() : Math.min(maxRows, server.maxPageSize()));
        long stream = server.streamMaxRows();
        if (maxRows == null && stream <= 0) {
            rows.putNull("stream");
        } else {
            rows.put("stream", maxRows == null ? stream : stream <= 0 ? maxRows : Math.min(maxRows, stream));
        }
        return o;
    }

    private ObjectNode usageThisPeriod(long keyId, Quota quota) {
        if (quota == null) {
            return null;
        }
        Quotas.Usage used = quotas.usage(keyId, quota);
        ObjectNode o = mapper.createObjectNode();
        o.put("per", quota.per());
        o.put("period_start", used.period().startText());
        o.put("resets_at", used.period().resetsText());
        o.put("calls", used.calls());
        o.put("rows", used.rows());
        o.set("calls_limit", mapper.valueToTree(quota.calls()));
        o.set("rows_limit", mapper.valueToTree(quota.rows()));
        return o;
    }

    private static Set<String> union(Set<String> base, String... more) {
        Set<String> out = new java.util.HashSet<>(base);
        out.addAll(List.of(more));
        return Set.copyOf(out);
    }
}
