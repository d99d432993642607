package io.queryapigate.keys;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.audit.AuditLog;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ETags;
import io.queryapigate.http.ServerTime;
import io.queryapigate.limits.Quotas;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.ApiKeyDao;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.RoleDao;
import io.queryapigate.store.UniqueViolation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The API-key lifecycle, as the Python original has it: create (the secret returned once), change grants, limits,
 * expiry or {@code active}, rotate the secret (the previous one keeps working for a grace period), end that grace
 * period, delete. A deleted key never authenticates again and frees its name; its row stays, so its id still names it
 * in the event log. Every change reaches this instance's metadata cache at once (others within its TTL). Changes are
 * checked against the row as read, so two administrators cannot silently overwrite each other. A key a
 * configuration-as-code directory owns changes only through an apply (409 {@code managed_by_file} otherwise).
 * A key made from a role (of the key's workspace) may do what the role allows, narrowed by its own grants
 * ({@link Narrowing}); its own may name nothing the role does not reach. A key no longer made from its role keeps
 * what it had through it, as its own grants.
 */
public final class ApiKeys {
    public static final int DEFAULT_GRACE_MINUTES = 60;
    public static final int MAX_GRACE_MINUTES = 7 * 24 * 60;
    private static final int ATTEMPTS = 5;

    private static final Grants NOTHING = new Grants(null, null, false, false, null, null, null, null, null, null,
            null, null, null);

    private final ApiKeyDao keys;
    private final RoleDao roles;
    private final MetadataCache cache;
    private final Quotas quotas;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final ManagedObjects managed;
    private final AuditLog audit;

    public ApiKeys(ApiKeyDao keys, RoleDao roles, MetadataCache cache, Quotas quotas, ObjectMapper mapper, Clock clock,
            ManagedObjects managed, AuditLog audit) {
        this.audit = audit;
        this.keys = keys;
        this.roles = roles;
        this.managed = managed;
        this.cache = cache;
        this.quotas = quotas;
        this.mapper = mapper;
        this.clock = clock;
    }

    /**
     * What a key may be changed to: its grants (limits included; for a key made from a role, what narrows the
     * role's), expiry, whether it is active, the role it is made from (null: none) and its fixed claims.
     */
    public record State(Grants grants, String expiresAt, boolean active, String role, Map<String, Object> claims) {
        public State {
            claims = claims == null ? Map.of() : java.util.Collections.unmodifiableSortedMap(
                    new java.util.TreeMap<>(claims));
        }

        /** A key made from no role, without claims. */
        public State(Grants grants, String expiresAt, boolean active) {
            this(grants, expiresAt, active, null, Map.of());
        }
    }

    /** A key and its new secret, shown this once. */
    public record Issued(ApiKeyRow key, String secret) {}

    /** The keys of the workspace this thread acts in ({@link Scope}). */
    public List<ApiKeyRow> list() {
        return keys.list().stream().filter(k -> Scope.owns(k.workspace())).toList();
    }

    /** Calls, failures and rows per key, from the event log (as far back as it keeps events). */
    public List<ApiKeyDao.KeyUsage> usage() {
        return keys.usage();
    }

    /** The key of the workspace this thread acts in, or 404 {@code key_not_found} (another's too). */
    public ApiKeyRow find(String name) {
        return keys.findByName(name).filter(k -> Scope.owns(k.workspace())).orElseThrow(() ->
                ApiException.notFound("key_not_found", "API key '" + name + "' not found"));
    }

    /** The key's own grants (for a key made from a role, what narrows the role's). */
    public Grants grants(ApiKeyRow row) {
        return parse(row.grants());
    }

    /** What the key may do: its own grants, or for a key made from a role, the role's narrowed by them. */
    public Grants effective(ApiKeyRow row) {
        if (row.roleName() == null) {
            return grants(row);
        }
        return roleGrants(row.workspace(), row.roleName()).map(role -> Narrowing.apply(role, grants(row)))
                .orElse(NOTHING);
    }

    /** The key's fixed values for {@code from_claim} parameters, by name. */
    public Map<String, Object> claims(ApiKeyRow row) {
        if (row.claims() == null) {
            return Map.of();
        }
        try {
            return KeyFields.claims(mapper.readTree(row.claims()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The key's state as stored. */
    public State state(ApiKeyRow row) {
        return new State(grants(row), row.expiresAt(), row.active(), row.roleName(), claims(row));
    }

    /**
     * Creates a key in the default workspace; 409 {@code key_exists} when one of that name exists, {@code name_taken}
     * when an administrator has it.
     */
    public Issued create(String name, State state) {
        return create(io.queryapigate.auth.Identity.DEFAULT_WORKSPACE, name, state);
    }

    /**
     * Creates a key in {@code workspace} (a role it is made from must be of that workspace: 404 {@code
     * role_not_found} otherwise); 409 {@code key_exists} when one of that name exists.
     */
    public Issued create(String workspace, String name, State state) {
        return audit.inTransaction(() -> {
            String secret = KeyHasher.newSecret();
            insert(workspace, name, KeyHasher.hashHex(secret), KeyHasher.displayPrefix(secret), state);
            ApiKeyRow created = find(name);
            audit.append("create_key", name, audited(created));
            return new Issued(created, secret);
        });
    }

    /**
     * Creates a key whose secret is known only by its SHA-256 (a configuration-as-code file's {@code
     * secret_sha256}); its listed prefix is {@link KeyHasher#PREFIX} alone. 409 {@code key_exists} as {@link #create}.
     */
    public ApiKeyRow createWithHash(String name, String secretSha256, State state) {
        insert(io.queryapigate.auth.Identity.DEFAULT_WORKSPACE, name, secretSha256, KeyHasher.PREFIX, state);
        return find(name);
    }

    /**
     * Replaces the key's secret by one known only by its SHA-256, as a rotation does: the one it replaces keeps
     * working for {@code graceMinutes} (0: it stops at once), replacing any earlier rotation's grace.
     */
    public ApiKeyRow setSecretHash(String name, String secretSha256, int graceMinutes) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        ApiKeyRow row = find(name);
        Long until = graceMinutes == 0 ? null : clock.millis() + Duration.ofMinutes(graceMinutes).toMillis();
        if (keys.rotate(row.id(), row.keyHash(), secretSha256, KeyHasher.PREFIX, until == null ? null
                : row.keyHash(), until) != 1) {
            throw changedMeanwhile(name);
        }
        invalidate(row);
        cache.invalidateKey(secretSha256);
        return find(name);
    }

    private void insert(String workspace, String name, String hash, String prefix, State state) {
        if (keys.findByName(name).isPresent()) {
            throw exists(name);
        }
        if (keys.administratorNamed(name)) { // a name in the logs and the history always means one caller
            throw new ApiException(409, "name_taken", "'" + name + "' is an administrator's name - choose another");
        }
        State checked = withRole(workspace, null, state);
        ApiKeyRow row = new ApiKeyRow(0, name, hash, prefix, json(checked.grants()), checked.expiresAt(),
                checked.active(), clock.millis(), null, null, null, null, workspace, checked.role(),
                claimsJson(checked.claims()));
        try {
            keys.insert(row);
        } catch (UnableToExecuteStatementException e) {
            if (UniqueViolation.in(e)) {
                throw exists(name);
            }
            throw e;
        }
        cache.invalidateKey(row.keyHash());
    }

    /**
     * Changes a key: {@code change} maps its state as read to the new one (it may run again if the key changed
     * meanwhile). {@code ifMatch} (an {@link #etag}, or null) must name the state read: 412 otherwise.
     */
    public ApiKeyRow update(String name, String ifMatch, UnaryOperator<State> change) {
        return audit.inTransaction(() -> {
            ApiKeyRow before = find(name);
            ApiKeyRow after = updated(name, ifMatch, change);
            Map<String, Object> changes = AuditLog.diff(audited(before), audited(after));
            if (!changes.isEmpty()) {
                audit.append("update_key", name, changes);
            }
            return after;
        });
    }

    private ApiKeyRow updated(String name, String ifMatch, UnaryOperator<State> change) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ApiKeyRow row = find(name);
            checkMatch(row, ifMatch);
            State read = state(row);
            State next = withRole(row.workspace(), read, change.apply(read));
            Long revokedAt = next.active() ? null : row.active() ? Long.valueOf(clock.millis()) : row.revokedAt();
            if (keys.update(row.id(), row, json(next.grants()), next.role(), claimsJson(next.claims()),
                    next.expiresAt(), next.active(), revokedAt) == 1) {
                invalidate(row);
                return find(name);
            }
        }
        throw changedMeanwhile(name);
    }

    /**
     * A new secret for the key; the one it replaces keeps working for {@code graceMinutes} (0: it stops at once).
     * 409 {@code key_rotation_pending} while the secret of an earlier rotation still works.
     */
    public Issued rotate(String name, int graceMinutes) {
        return audit.inTransaction(() -> {
            Issued issued = rotated(name, graceMinutes);
            Map<String, Object> changes = new java.util.LinkedHashMap<>();
            changes.put("secret", AuditLog.CHANGED);
            changes.put("grace_minutes", graceMinutes);
            changes.put("previous_valid_until", issued.key().previousExpiresAt() == null ? null
                    : ServerTime.format(issued.key().previousExpiresAt()));
            audit.append("rotate_api_key", name, changes);
            return issued;
        });
    }

    private Issued rotated(String name, int graceMinutes) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ApiKeyRow row = find(name);
            long now = clock.millis();
            if (row.previousWorks(now)) {
                String until = ServerTime.format(row.previousExpiresAt());
                throw new ApiException(409, "key_rotation_pending", "The secret this key had before its last rotation"
                        + " works until " + until + " - end that first (DELETE .../previous), or wait for it")
                        .with("previous_expires_at", until);
            }
            String secret = KeyHasher.newSecret();
            Long until = graceMinutes == 0 ? null : now + Duration.ofMinutes(graceMinutes).toMillis();
            if (keys.rotate(row.id(), row.keyHash(), KeyHasher.hashHex(secret), KeyHasher.displayPrefix(secret),
                    until == null ? null : row.keyHash(), until) == 1) {
                invalidate(row);
                return new Issued(find(name), secret);
            }
        }
        throw changedMeanwhile(name);
    }

    /** Stops the previous secret now; 404 {@code previous_secret_not_found} when none works. */
    public ApiKeyRow endPrevious(String name) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        ApiKeyRow row = find(name);
        if (!row.previousWorks(clock.millis())) {
            throw ApiException.notFound("previous_secret_not_found", "API key '" + name
                    + "' has no old secret still working");
        }
        return audit.inTransaction(() -> {
            keys.endPrevious(row.id());
            invalidate(row);
            audit.append("end_previous_secret", name, Map.of("was_valid_until",
                    ServerTime.format(row.previousExpiresAt())));
            return find(name);
        });
    }

    /** Deletes the key: it stops working at once here, its name is free, its quota counts are forgotten. */
    public void delete(String name, String ifMatch) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        ApiKeyRow row = find(name);
        checkMatch(row, ifMatch);
        audit.inTransaction(() -> {
            if (keys.delete(row.id(), clock.millis()) != 1) {
                throw ApiException.notFound("key_not_found", "API key '" + name + "' not found");
            }
            audit.append("delete_key", name, audited(row));
        });
        invalidate(row);
        quotas.forget(row.id());
    }

    /** A key's state as its audit entries record it: never its secret or hash. */
    private Map<String, Object> audited(ApiKeyRow row) {
        Map<String, Object> state = new java.util.TreeMap<>();
        state.put("grants", row.grants() == null ? null : mapper.convertValue(parse(row.grants()), Map.class));
        state.put("role", row.roleName());
        state.put("expires_at", row.expiresAt());
        state.put("active", row.active());
        state.put("claims", row.claims() == null ? null : claims(row));
        state.put("prefix", row.keyPrefix());
        return state;
    }

    /** The key's version for {@code ETag}/{@code If-Match}: it changes with every change to the key. */
    public static String etag(ApiKeyRow row) {
        return ETags.of(row.name(), row.grants(), row.expiresAt(), row.active(), row.keyHash(), row.previousHash(),
                row.previousExpiresAt(), row.roleName(), row.claims());
    }

    private static void checkMatch(ApiKeyRow row, String ifMatch) {
        if (!ETags.matches(ifMatch, etag(row))) {
            throw new ApiException(412, "precondition_failed", "This API key changed since you loaded it - reload it"
                    + " and try again");
        }
    }

    private void invalidate(ApiKeyRow row) {
        cache.invalidateKey(row.keyHash());
        if (row.previousHash() != null) {
            cache.invalidateKey(row.previousHash());
        }
    }

    /**
     * {@code next} as it is stored, given the key's state as read ({@code read}, null for a new key): a role it names
     * must be of the key's workspace (404 {@code role_not_found}), and its own grants may name no connection, query
     * or address range the role does not reach (400 naming each field; what the key already had is not checked
     * again, so a role that shrank never blocks revoking its keys). A key leaving its role keeps what it had through
     * it.
     */
    private State withRole(String workspace, State read, State next) {
        if (next.role() == null) {
            if (read == null || read.role() == null) {
                return next;
            }
            Grants had = roleGrants(workspace, read.role()).map(role -> Narrowing.apply(role, next.grants()))
                    .orElse(NOTHING);
            return new State(had, next.expiresAt(), next.active(), null, next.claims());
        }
        Grants role = roleGrants(workspace, next.role()).orElseThrow(() -> new ApiException(404, "role_not_found",
                "Role '" + next.role() + "' not found", Map.of("role", "names no role of this workspace")));
        State before = read != null && next.role().equals(read.role()) ? read : null;
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        beyond(errors, "connections", Narrowing.beyond(role.connections(), next.grants().connections()),
                before == null ? List.of() : Narrowing.beyond(role.connections(), before.grants().connections()),
                next.role());
        beyond(errors, "queries", Narrowing.beyond(role.queries(), next.grants().queries()),
                before == null ? List.of() : Narrowing.beyond(role.queries(), before.grants().queries()), next.role());
        beyond(errors, "allowed_ips", Narrowing.rangesBeyond(role.allowedIps(), next.grants().allowedIps()),
                before == null ? List.of() : Narrowing.rangesBeyond(role.allowedIps(), before.grants().allowedIps()),
                next.role());
        if (role.quota() != null && next.grants().quota() != null
                && !role.quota().per().equals(next.grants().quota().per())
                && (before == null || !next.grants().quota().equals(before.grants().quota()))) {
            errors.put("quota", "must count per " + role.quota().per() + ", as role '" + next.role() + "' does");
        }
        if (!errors.isEmpty()) {
            throw KeyBody.fieldErrors(errors);
        }
        return next;
    }

    private static void beyond(Map<String, String> errors, String field, List<String> now, List<String> before,
            String role) {
        List<String> added = new java.util.ArrayList<>(now);
        added.removeAll(before);
        if (!added.isEmpty()) {
            errors.put(field, "reaches " + String.join(", ", added) + ", which role '" + role + "' does not: a key"
                    + " made from a role only narrows it");
        }
    }

    private java.util.Optional<Grants> roleGrants(String workspace, String name) {
        return roles.find(workspace, name).map(r -> parse(r.grants()));
    }

    private Grants parse(String grants) {
        try {
            return mapper.readValue(grants, Grants.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String claimsJson(Map<String, Object> claims) {
        if (claims.isEmpty()) {
            return null;
        }
        try {
            return mapper.writeValueAsString(claims);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
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
        return new ApiException(409, "key_exists", "An API key named '" + name + "' already exists");
    }

    private static ApiException changedMeanwhile(String name) {
        return new ApiException(409, "conflict", "API key '" + name + "' kept changing while this change was made;"
                + " try again");
    }
}
