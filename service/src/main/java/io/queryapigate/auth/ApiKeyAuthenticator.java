package io.queryapigate.auth;

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
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a presented secret: the administrator key, when there is one (compared in constant time through its
 * hash), else the key with that SHA-256, through the metadata cache (one indexed store read per TTL). The secret a key
 * had before its last rotation is accepted until its grace period ends. Inactive keys and keys past their expiry date
 * (valid through the end of that day, UTC) are treated exactly like unknown ones.
 */
public final class ApiKeyAuthenticator implements Authenticator<String, Caller> {
    private static final Logger LOG = LoggerFactory.getLogger(ApiKeyAuthenticator.class);
    private static final Grants ALL = new Grants(List.of("*"), List.of("*"), true, true, null, null, null, null, null,
            null, null, null, null);

    private final byte[] adminHash;
    private final MetadataCache keys;
    private final ObjectMapper mapper;
    private final Clock clock;

    public ApiKeyAuthenticator(String adminKey, MetadataCache keys, ObjectMapper mapper, Clock clock) {
        this.adminHash = adminKey == null ? null : KeyHasher.sha256(adminKey);
        this.keys = keys;
        this.mapper = mapper;
        this.clock = clock;
    }

    @Override
    public Optional<Caller> authenticate(String secret) {
        if (secret == null || secret.isEmpty() || secret.length() > 512) {
            return Optional.empty();
        }
        byte[] hash = KeyHasher.sha256(secret);
        if (adminHash != null && MessageDigest.isEqual(hash, adminHash)) {
            return Optional.of(new Caller(Caller.ADMIN_KEY_ID, "admin", true, ALL));
        }
        String hex = java.util.HexFormat.of().formatHex(hash);
        Optional<Key> key = keys.keyByHash(hex, row -> load(row, hex));
        if (key.isEmpty() || key.get().caller() == null || !key.get().active() || expired(key.get().expiresAt())
                || clock.millis() >= key.get().acceptedUntil()) {
            return Optional.empty();
        }
        return Optional.of(key.get().caller());
    }

    /**
     * A stored key as the hot path needs it: grants parsed once per metadata-cache load. {@code acceptedUntil} is
     * when the presented secret stops working: never for the current one, the end of the grace period for the one
     * it had before its last rotation.
     */
    private record Key(Caller caller, boolean active, LocalDate expiresAt, long acceptedUntil) {}

    private Key load(ApiKeyRow row, String presentedHash) {
        long acceptedUntil = presentedHash.equals(row.keyHash()) ? Long.MAX_VALUE
                : row.previousExpiresAt() == null ? Long.MIN_VALUE : row.previousExpiresAt();
        try {
            Grants grants = mapper.readValue(row.grants(), Grants.class);
            return new Key(new Caller(row.id(), row.name(), false, grants, Identity.key().in(row.workspace())),
                    row.active(),
                    row.expiresAt() == null ? null : LocalDate.parse(row.expiresAt()), acceptedUntil);
        } catch (IOException | RuntimeException e) {
            LOG.error("API key {} has unreadable grants; refusing it", row.name(), e);
            return new Key(null, false, null, Long.MIN_VALUE);
        }
    }

    private boolean expired(LocalDate expiresAt) {
        return expiresAt != null && LocalDate.now(clock.withZone(ZoneOffset.UTC)).isAfter(expiresAt);
    }
}
