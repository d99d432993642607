package io.queryapigate.roles;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Grants;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ETags;
import io.queryapigate.keys.ApiKeys;
import io.queryapigate.keys.KeyBody;
import io.queryapigate.keys.KeyFields;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.RoleDao;
import io.queryapigate.store.RoleRow;
import io.queryapigate.store.UniqueViolation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * API-key roles: named grant templates, each in one workspace. A role's grants are a key's grant fields, checked by
 * the keys' own rules ({@link KeyBody}); a key made from one is narrowed by its own ({@code keys.Narrowing}), and a
 * change to the role reaches its keys at once on this instance (others within the metadata cache's TTL). Every
 * lookup names the caller's workspace: a role of another workspace is 404 {@code role_not_found}. A role keys are made
 * from cannot be deleted (409 {@code role_in_use}, naming them); one a configuration-as-code directory owns changes
 * only through an apply (409 {@code managed_by_file}).
 */
public final class Roles {
    /** The grant fields a role has: a key's. */
    public static final Set<String> GRANT_FIELDS = KeyBody.GRANT_FIELDS;
    /** A role's fields beyond its grants. */
    public static final Set<String> ROLE_FIELDS = Set.of("description", "require_claim_binding");
    public static final int MAX_DESCRIPTION = 2000;
    private static final int ATTEMPTS = 5;

    private final RoleDao roles;
    private final MetadataCache cache;
    private final ManagedObjects managed;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final AuditLog audit;

    public Roles(RoleDao roles, MetadataCache cache, ManagedObjects managed, ObjectMapper mapper, Clock clock,
            AuditLog audit) {
        this.audit = audit;
        this.roles = roles;
        this.cache = cache;
        this.managed = managed;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** What a role may be changed to: its description and grants. */
    public record State(String description, Grants grants) {}

    /** A new role's state before its body: no reach, no restrictions. */
    public static final State NONE = new State(null, KeyBody.NONE.grants());

    /**
     * The state {@code node}'s fields make of {@code read}, every bad field named at once (400 {@code
     * invalid_body}). Fields other than a role's are not looked at: the caller refuses them first.
     */
    public static State apply(JsonNode node, State read, Predicate<String> knownConnection, boolean hashMasking) {
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        String description = read.description();
        JsonNode d = node.get("description");
        if (d != null) {
            if (d.isNull()) {
                description = null;
            } else if (!d.isTextual() || d.textValue().length() > MAX_DESCRIPTION) {
                errors.put("description", "must be text of at most " + MAX_DESCRIPTION + " characters, or null");
            } else {
                description = d.textValue().isBlank() ? null : d.textValue();
            }
        }
        JsonNode binding = node.get("require_claim_binding");
        if (binding != null && !binding.isNull() && !(binding.isBoolean() && !binding.booleanValue())) {
            errors.put("require_claim_binding", binding.isBoolean() ? "is not supported: this server binds signed-in"
                    + " users' rows through from_claim parameters only" : "must be true or false");
        }
        ObjectNode grantFields = JsonNodeFactory.instance.objectNode();
        node.fields().forEachRemaining(e -> {
            if (GRANT_FIELDS.contains(e.getKey())) {
                grantFields.set(e.getKey(), e.getValue());
            }
        });
        Grants grants = read.grants();
        try {
            grants = KeyBody.applyAll(grantFields, new ApiKeys.State(read.grants(), null, true), knownConnection,
                    hashMasking).grants();
        } catch (ApiException e) {
            if (e.errors() == null || e.errors().isEmpty()) {
                throw e;
            }
            errors.putAll(e.errors());
        }
        if (!errors.isEmpty()) {
            throw KeyBody.fieldErrors(errors);
        }
        return new State(description, grants);
    }

    /** The workspace's roles, by name. */
    public List<RoleRow> list(String workspace) {
        return roles.list(workspace);
    }

    /** The role, or 404 {@code role_not_found} (a role of another workspace too). */
    public RoleRow find(String workspace, String name) {
        return roles.find(workspace, name).orElseThrow(() ->
                ApiException.notFound("role_not_found", "Role '" + name + "' not found"));
    }

    /** The live keys made from the role, by name. */
    public List<String> keysOf(RoleRow role) {
        return roles.keysOf(role.workspace(), role.name());
    }

    public Grants grants(RoleRow row) {
        try {
            return mapper.readValue(row.grants(), Grants.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The role's state as stored. */
    public State state(RoleRow row) {
        return new State(row.description(), grants(row));
    }

    /**
     * Creates a role in {@code workspace}: 400 {@code invalid_name}, 409 {@code role_exists} (role names are unique on
     * the server).
     */
    public RoleRow create(String workspace, String name, State state, String actor) {
        return audit.inTransaction(() -> {
            RoleRow created = created(workspace, name, state, actor);
            audit.append("create_role", name, audited(created));
            return created;
        });
    }

    private RoleRow created(String workspace, String name, State state, String actor) {
        checkName(name);
        if (roles.findByName(name).isPresent()) {
            throw exists(name);
        }
        long now = clock.millis();
        try {
            roles.insert(new RoleRow(0, name, workspace, state.description(), json(state.grants()), now, actor, now,
                    actor));
        } catch (UnableToExecuteStatementException e) {
            if (UniqueViolation.in(e)) {
                throw exists(name);
            }
            throw e;
        }
        cache.invalidateRole(name);
        return find(workspace, name);
    }

    /**
     * Changes a role: {@code change} maps its state as read to the new one (it may run again if the role changed
     * meanwhile). {@code ifMatch} (an {@link #etag}, or null) must name the state read: 412 otherwise.
     */
    public RoleRow update(String workspace, String name, String ifMatch, UnaryOperator<State> change, String actor) {
        return audit.inTransaction(() -> {
            RoleRow before = find(workspace, name);
            RoleRow after = updated(workspace, name, ifMatch, change, actor);
            Map<String, Object> changes = AuditLog.diff(audited(before), audited(after));
            if (!changes.isEmpty()) {
                audit.append("update_role", name, changes);
            }
            return after;
        });
    }

    private RoleRow updated(String workspace, String name, String ifMatch, UnaryOperator<State> change,
            String actor) {
        find(workspace, name);
        managed.check(ManagedObjects.ROLES, name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RoleRow row = find(workspace, name);
            checkMatch(row, ifMatch);
            State next = change.apply(state(row));
            long now = Math.max(clock.millis(), row.updatedAt() + 1);
            if (roles.update(row.id(), row.updatedAt(), row.grants(), next.description(), json(next.grants()), now,
                    actor) == 1) {
                cache.invalidateRole(name);
                return find(workspace, name);
            }
        }
        throw new ApiException(409, "conflict", "Role '" + name + "' kept changing while this change was made; try"
                + " again");
    }

    /** Deletes the role; 409 {@code role_in_use} while keys are made from it, naming them. */
    public void delete(String workspace, String name, String ifMatch) {
        RoleRow row = find(workspace, name);
        managed.check(ManagedObjects.ROLES, name);
        checkMatch(row, ifMatch);
        List<String> keys = keysOf(row);
        if (!keys.isEmpty()) {
            throw new ApiException(409, "role_in_use", "Role '" + name + "' is the role of API key(s) "
                    + String.join(", ", keys) + " - give them another role or none first (PATCH"
                    + " /api/v1/api-keys/{name} with \"role\"), or delete them").with("keys", keys);
        }
        audit.inTransaction(() -> {
            roles.delete(row.id());
            audit.append("delete_role", name, audited(row));
        });
        cache.invalidateRole(name);
    }

    /** A role as its audit entries record it. */
    private Map<String, Object> audited(RoleRow row) {
        Map<String, Object> state = new java.util.TreeMap<>();
        state.put("description", row.description());
        state.put("grants", mapper.convertValue(grants(row), Map.class));
        return state;
    }

    /** A role's name: 1-100 letters, digits, spaces, '.', '_' or '-'; 400 {@code invalid_name} otherwise. */
    public static String checkName(String name) {
        try {
            return KeyFields.objectName(name);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "invalid_name", "A role name " + e.getMessage() + ".",
                    Map.of("name", e.getMessage()));
        }
    }

    /** The role's version for {@code ETag}/{@code If-Match}: it changes with every change to the role. */
    public static String etag(RoleRow row) {
        return ETags.of(row.name(), row.workspace(), row.description(), row.grants(), row.updatedAt());
    }

    private static void checkMatch(RoleRow row, String ifMatch) {
        if (!ETags.matches(ifMatch, etag(row))) {
            throw new ApiException(412, "precondition_failed", "This role changed since you loaded it - reload it and"
                    + " try again");
        }
    }

    private String json(Grants grants) {
        try {
            return mapper.writeValueAsString(grants);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ApiException exists(String name) {
        return new ApiException(409, "role_exists", "A role named '" + name + "' already exists");
    }
}
