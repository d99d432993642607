package io.queryapigate.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.auth.Authenticator;
import io.queryapigate.store.MetadataCache;
import io.queryapigate.store.ApiKeyRow;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BinaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a presented secret: the administrator key, when there is one (compared in constant time through its
 * hash), else the key with that SHA-256, through the metadata cache (one indexed store read per TTL). The secret a key had before its last
 * rotation is accepted until its grace period ends. Inactive keys and keys past their expiry date (valid through the
 * end of that day, UTC) are treated exactly like unknown ones. A key made from a role gets the role's grants (from
 * memory, {@link RoleGrants}) narrowed by its own, worked out again only when the role's cached entry is reloaded; a
 * key whose role is gone, or is of another workspace, reaches nothing. Its {@link Identity} carries the role's name
 * and the key's fixed claims.
 */
public final class ApiKeyAuthenticator implements Authenticator<String, Caller> {
    private static final Logger LOG = LoggerFactory.getLogger(ApiKeyAuthenticator.class);
    private static final Grants ALL = new Grants(List.of("*"), List.of("*"), true, true, null, null, null, null, null,
            null, null, null, null);

    private static final Grants NOTHING = Grants.reach(List.of(), List.of(), false);

    private final byte[] adminHash;
    private final MetadataCache keys;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final RoleGrants roles;
    private final BinaryOperator<Grants> narrowing;

    /** Keys without roles: a key made from a role reaches nothing. */
    public ApiKeyAuthenticator(String adminKey, MetadataCache keys, ObjectMapper mapper, Clock clock) {
        this(adminKey, keys, mapper, clock, name -> Optional.empty(), (role, own) -> NOTHING);
    }

    /**
     * @param roles the API-key roles, from memory
     * @param narrowing a role's grants and a key's own to what the key may do ({@code keys.Narrowing})
     */
    public ApiKeyAuthenticator(String adminKey, MetadataCache keys, ObjectMapper mapper, Clock clock,
            RoleGrants roles, BinaryOperator<Grants> narrowing) {
        this.adminHash = adminKey == null ? null : KeyHasher.sha256(adminKey);
        this.keys = keys;
        this.mapper = mapper;
        this.clock = clock;
        this.roles = roles;
        this.narrowing = narrowing;
    }

    /** The caller the administrator key of the YAML is: the break-glass owner, with every grant. */
    public static Caller adminKeyCaller() {
        return new Caller(Caller.ADMIN_KEY_ID, "admin", true, ALL);
    }

    @Override
    public Optional<Caller> authenticate(String secret) {
        if (secret == null || secret.isEmpty() || secret.length() > 512) {
            return Optional.empty();
        }
        byte[] hash = KeyHasher.sha256(secret);
        if (adminHash != null && MessageDigest.isEqual(hash, adminHash)) {
            return Optional.of(adminKeyCaller());
        }
        String hex = java.util.HexFormat.of().formatHex(hash);
        Optional<Key> key = keys.keyByHash(hex, row -> load(row, hex));
        if (key.isEmpty() || key.get().caller() == null || !key.get().active() || expired(key.get().expiresAt())
                || clock.millis() >= key.get().acceptedUntil()) {
            return Optional.empty();
        }
        Key k = key.get();
        return Optional.of(k.role() == null ? k.caller() : throughRole(k));
    }

    /**
     * A stored key as the hot path needs it: grants and claims parsed once per metadata-cache load. {@code
     * acceptedUntil} is when the presented secret stops working: never for the current one, the end of the grace
     * period for the one it had before its last rotation. For a key made from a role, {@code caller} carries the
     * key's own grants, and {@code throughRole} the caller worked out from the role's cached entry it names.
     */
    private record Key(Caller caller, boolean active, LocalDate expiresAt, long acceptedUntil, String role,
            AtomicReference<ThroughRole> throughRole) {}

    private record ThroughRole(RoleGrants.Role role, Caller caller) {}

    private Caller throughRole(Key k) {
        Optional<RoleGrants.Role> found = roles.role(k.role());
        RoleGrants.Role role = found.isPresent() && found.get().workspace().equals(k.caller().workspace())
                ? found.get() : null;
        ThroughRole through = k.throughRole().get();
        if (through == null || through.role() != role) {
            Caller own = k.caller();
            Grants grants = role == null ? NOTHING : narrowing.apply(role.grants(), own.grants());
            through = new ThroughRole(role, new Caller(own.keyId(), own.name(), false, grants, own.identity()));
            k.throughRole().set(through);
        }
        return through.caller();
    }

    private Key load(ApiKeyRow row, String presentedHash) {
        long acceptedUntil = presentedHash.equals(row.keyHash()) ? Long.MAX_VALUE
                : row.previousExpiresAt() == null ? Long.MIN_VALUE : row.previousExpiresAt();
        try {
            Grants grants = mapper.readValue(row.grants(), Grants.class);
            Identity identity = new Identity(Identity.Kind.KEY, row.roleName(), false, row.workspace(), Map.of(),
                    null, null, claims(row.claims()), 0);
            return new Key(new Caller(row.id(), row.name(), false, grants, identity), row.active(),
                    row.expiresAt() == null ? null : LocalDate.parse(row.expiresAt()), acceptedUntil, row.roleName(),
                    new AtomicReference<>());
        } catch (IOException | RuntimeException e) {
            LOG.error("API key {} has unreadable grants or claims; refusing it", row.name(), e);
            return new Key(null, false, null, Long.MIN_VALUE, null, null);
        }
    }

    // a key's claims as stored (a JSON object of text, numbers and booleans): whole numbers as Long
    private Map<String, Object> claims(String json) throws IOException {
        if (json == null) {
            return Map.of();
        }
        Map<String, Object> out = new java.util.TreeMap<>();
        for (var it = mapper.readTree(json).fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode v = e.getValue();
            out.put(e.getKey(), v.isTextual() ? v.textValue() : v.isBoolean() ? v.booleanValue()
                    : v.isIntegralNumber() && v.canConvertToLong() ? (Object) v.longValue() : v.decimalValue());
        }
        return out;
    }

    private boolean expired(LocalDate expiresAt) {
        return expiresAt != null && LocalDate.now(clock.withZone(ZoneOffset.UTC)).isAfter(expiresAt);
    }
}
