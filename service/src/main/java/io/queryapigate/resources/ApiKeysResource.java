package io.queryapigate.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.IpRange;
import io.queryapigate.auth.MaskRule;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.limits.Rate;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.ApiKeyDao;
import io.queryapigate.store.ApiKeyRow;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * {@code /api/v1/api-keys}: scoped keys. The secret is returned once, by the create call, with {@code
 * Cache-Control: no-store}; only its SHA-256 is stored. Administrators only.
 */
@Path("/api/v1/api-keys")
@Produces(MediaType.APPLICATION_JSON)
public class ApiKeysResource {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final Set<String> FIELDS = Set.of("name", "connections", "queries", "adhoc_sql", "expires_at",
            "allow_writes", "allowed_write_ops", "allowed_tables", "allowed_ips", "mask", "rate_limit", "quota");
    private static final Set<String> WRITE_OPS = Set.of("insert", "update", "delete", "merge", "replace", "upsert",
            "create", "drop", "alter", "truncate", "call", "copy", "grant", "revoke", "comment", "rename");
    private static final Set<String> MASK_FIELDS = Set.of("column", "action", "value", "keep", "strict");
    private static final Set<String> MASK_ACTIONS = Set.of("null", "fixed", "last", "hash");
    private static final Set<String> RESERVED = Set.of("admin", "cli", "startup");

    private final ApiKeyDao keys;
    private final MetadataCache cache;
    private final ConnectionRegistry connections;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final boolean hashMasking;

    public ApiKeysResource(ApiKeyDao keys, MetadataCache cache, ConnectionRegistry connections, ObjectMapper mapper,
            Clock clock, boolean hashMasking) {
        this.keys = keys;
        this.cache = cache;
        this.connections = connections;
        this.mapper = mapper;
        this.clock = clock;
        this.hashMasking = hashMasking;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@Auth Caller caller, JsonNode node) {
        Admin.require(caller);
        Body body = Body.of(node, true, FIELDS);
        String name = body.text("name");
        if (name == null) {
            throw Body.fieldError("name", "is required");
        }
        if (!NAME.matcher(name).matches() || RESERVED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
            throw Body.fieldError("name", "must be 1-100 letters, digits, '.', '_' or '-' and not a reserved name");
        }
        List<String> conns = body.names("connections");
        if (conns != null) {
            for (String c : conns) {
                if (!c.equals("*") && connections.get(c).isEmpty()) {
                    throw Body.fieldError("connections", "names an unknown connection '" + c + "'");
                }
            }
        }
        List<String> queries = body.names("queries");
        boolean adhoc = Boolean.TRUE.equals(body.bool("adhoc_sql"));
        String expires = body.text("expires_at");
        if (expires != null) {
            try {
                LocalDate date = LocalDate.parse(expires);
                if (date.isBefore(LocalDate.now(clock.withZone(ZoneOffset.UTC)))) {
                    throw Body.fieldError("expires_at", "is in the past");
                }
            } catch (DateTimeParseException e) {
                throw Body.fieldError("expires_at", "must be a date (YYYY-MM-DD)");
            }
        }
        List<String> writeOps = body.names("allowed_write_ops");
        if (writeOps != null) {
            for (String op : writeOps) {
                if (!WRITE_OPS.contains(op.toLowerCase(java.util.Locale.ROOT))) {
                    throw Body.fieldError("allowed_write_ops", "names an unknown operation '" + op + "' (one of "
                            + String.join(", ", new java.util.TreeSet<>(WRITE_OPS)) + ")");
                }
            }
            writeOps = writeOps.stream().map(op -> op.toLowerCase(java.util.Locale.ROOT)).toList();
        }
        List<String> tables = body.names("allowed_tables");
        if (tables != null && tables.contains("*")) {
            throw Body.fieldError("allowed_tables", "must list tables (omit it for no restriction)");
        }
        if (tables != null) {
            for (String t : tables) {
                if (!t.matches("[^.\\s]+(\\.[^.\\s]+){0,2}")) {
                    throw Body.fieldError("allowed_tables", "has an invalid table name '" + t + "'");
                }
            }
        }
        List<String> ips = body.list("allowed_ips");
        if (ips != null) {
            for (String ip : ips) {
                try {
                    IpRange.parse(ip);
                } catch (IllegalArgumentException e) {
                    throw Body.fieldError("allowed_ips", e.getMessage());
                }
            }
        }
        List<MaskRule> mask = masks(body.get("mask"));
        String rateLimit = body.text("rate_limit");
        String quota = body.text("quota");
        try {
            if (rateLimit != null) {
                Rate.parse(rateLimit);
            }
        } catch (IllegalArgumentException e) {
            throw Body.fieldError("rate_limit", e.getMessage());
        }
        try {
            if (quota != null && Rate.parse(quota).period().toHours() < 24) {
                throw Body.fieldError("quota", "must be N/day or N/month");
            }
        } catch (IllegalArgumentException e) {
            throw Body.fieldError("quota", e.getMessage());
        }
        Grants grants = new Grants(conns, queries, adhoc, Boolean.TRUE.equals(body.bool("allow_writes")), writeOps,
                tables, ips, mask, rateLimit, quota);
        String secret = KeyHasher.newSecret();
        ApiKeyRow row = new ApiKeyRow(0, name, KeyHasher.hashHex(secret), KeyHasher.displayPrefix(secret),
                json(grants), expires, true, clock.millis(), null);
        if (keys.findByName(name).isPresent()) {
            throw new ApiException(409, "key_exists", "A key named '" + name + "' already exists.");
        }
        try {
            keys.insert(row);
            cache.invalidateKey(row.keyHash());
        } catch (UnableToExecuteStatementException e) {
            if (keys.findByName(name).isPresent()) {
                throw new ApiException(409, "key_exists", "A key named '" + name + "' already exists.");
            }
            throw e;
        }
        ObjectNode out = view(keys.findByName(name).orElseThrow());
        out.put("secret", secret);
        return Response.status(201).entity(out).header("Cache-Control", "no-store").build();
    }

    @GET
    public ObjectNode list(@Auth Caller caller) {
        Admin.require(caller);
        ObjectNode out = mapper.createObjectNode();
        ArrayNode items = out.putArray("items");
        for (ApiKeyRow row : keys.list()) {
            items.add(view(row));
        }
        return out;
    }

    @GET
    @Path("/{name}")
    public ObjectNode get(@Auth Caller caller, @PathParam("name") String name) {
        Admin.require(caller);
        return view(find(name));
    }

    /** Revokes the key at once; it stays listed as inactive. */
    @DELETE
    @Path("/{name}")
    public Response revoke(@Auth Caller caller, @PathParam("name") String name) {
        Admin.require(caller);
        ApiKeyRow row = find(name);
        keys.revoke(name, clock.millis());
        cache.invalidateKey(row.keyHash());
        return Response.noContent().build();
    }

    private List<MaskRule> masks(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (!node.isArray()) {
            throw Body.fieldError("mask", "must be a list of rules");
        }
        List<MaskRule> out = new java.util.ArrayList<>();
        for (JsonNode r : node) {
            if (!r.isObject()) {
                throw Body.fieldError("mask", "must be a list of rules");
            }
            r.fieldNames().forEachRemaining(f -> {
                if (!MASK_FIELDS.contains(f)) {
                    throw Body.fieldError("mask", "rule has an unknown field '" + f + "'");
                }
            });
            String column = r.path("column").asText("");
            if (!column.matches("[^.\\s]+(\\.[^.\\s]+){1,3}")) {
                throw Body.fieldError("mask", "column must be table.column or schema.table.column, got '" + column
                        + "'");
            }
            String action = r.path("action").asText("");
            if (!MASK_ACTIONS.contains(action)) {
                throw Body.fieldError("mask", "action must be one of null, fixed, last, hash");
            }
            String value = r.hasNonNull("value") ? r.get("value").asText() : null;
            Integer keep = r.hasNonNull("keep") ? r.get("keep").asInt(-1) : null;
            if (action.equals("fixed") && value == null) {
                throw Body.fieldError("mask", "a fixed rule needs a value");
            }
            if (action.equals("last") && (keep == null || keep < 0 || keep > 64)) {
                throw Body.fieldError("mask", "a last rule needs keep between 0 and 64");
            }
            if (action.equals("hash") && !hashMasking) {
                throw Body.fieldError("mask", "hash rules need security.maskingKey in the server configuration");
            }
            JsonNode strict = r.get("strict");
            if (strict != null && !strict.isBoolean() && !strict.isNull()) {
                throw Body.fieldError("mask", "strict must be true or false");
            }
            out.add(new MaskRule(column, action, value, keep, strict != null && strict.asBoolean() ? true : null));
        }
        return out;
    }

    private ApiKeyRow find(String name) {
        return keys.findByName(name).orElseThrow(() ->
                ApiException.notFound("key_not_found", "No API key named '" + name + "'."));
    }

    private ObjectNode view(ApiKeyRow row) {
        ObjectNode o = mapper.createObjectNode();
        o.put("id", row.id());
        o.put("name", row.name());
        o.put("prefix", row.keyPrefix());
        try {
            Grants g = mapper.readValue(row.grants(), Grants.class);
            o.set("connections", mapper.valueToTree(g.connections()));
            o.set("queries", mapper.valueToTree(g.queries()));
            o.put("adhoc_sql", g.adhocSql());
            o.put("allow_writes", g.allowWrites());
            o.set("allowed_write_ops", mapper.valueToTree(g.allowedWriteOps()));
            o.set("allowed_tables", mapper.valueToTree(g.allowedTables()));
            o.set("allowed_ips", mapper.valueToTree(g.allowedIps()));
            o.set("mask", mapper.valueToTree(g.mask()));
            o.put("rate_limit", g.rateLimit());
            o.put("quota", g.quota());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (row.expiresAt() == null) {
            o.putNull("expires_at");
        } else {
            o.put("expires_at", row.expiresAt());
        }
        o.put("active", row.active());
        o.put("created_at", Instant.ofEpochMilli(row.createdAt()).toString());
        if (row.revokedAt() != null) {
            o.put("revoked_at", Instant.ofEpochMilli(row.revokedAt()).toString());
        }
        return o;
    }

    private String json(Grants grants) {
        try {
            return mapper.writeValueAsString(grants);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
