package io.queryapigate.keys;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.Grants;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.errors.ApiException;
import io.queryapigate.http.ServerTime;
import io.queryapigate.limits.Quotas;
import io.queryapigate.managed.ManagedObjects;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.ApiKeyDao;
import io.queryapigate.store.ApiKeyRow;
import io.queryapigate.store.MetadataCache;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The API-key lifecycle, as the Python original has it: create (the secret returned once), change grants, limits,
 * expiry or {@code active}, rotate the secret (the previous one keeps working for a grace period), end that grace
 * period, delete. A deleted key never authenticates again and frees its name; its row stays, so its id still names it
 * in the event log. Every change reaches this instance's metadata cache at once (others within its TTL). Changes are
 * checked against the row as read, so two administrators cannot silently overwrite each other. A key a
 * configuration-as-code directory owns changes only through an apply (409 {@code managed_by_file} otherwise).
 */
public final class ApiKeys {
    public static final int DEFAULT_GRACE_MINUTES = 60;
    public static final int MAX_GRACE_MINUTES = 7 * 24 * 60;
    private static final int ATTEMPTS = 5;

    private final ApiKeyDao keys;
    private final MetadataCache cache;
    private final Quotas quotas;
    private final ObjectMapper mapper;
    private final Clock clock;
    private final ManagedObjects managed;

    public ApiKeys(ApiKeyDao keys, MetadataCache cache, Quotas quotas, ObjectMapper mapper, Clock clock,
            ManagedObjects managed) {
        this.keys = keys;
        this.managed = managed;
        this.cache = cache;
        this.quotas = quotas;
        this.mapper = mapper;
        this.clock = clock;
    }

    /** What a key may be changed to: its grants (limits included), expiry and whether it is active. */
    public record State(Grants grants, String expiresAt, boolean active) {}

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

    public Grants grants(ApiKeyRow row) {
        try {
            return mapper.readValue(row.grants(), Grants.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates a key; 409 {@code key_exists} when one of that name exists, {@code name_taken} when an administrator
     * has it.
     */
    public Issued create(String name, State state) {
        String secret = KeyHasher.newSecret();
        insert(name, KeyHasher.hashHex(secret), KeyHasher.displayPrefix(secret), state);
        return new Issued(find(name), secret);
    }

    /**
     * Creates a key whose secret is known only by its SHA-256 (a configuration-as-code file's {@code
     * secret_sha256}); its listed prefix is {@link KeyHasher#PREFIX} alone. 409 {@code key_exists} as {@link #create}.
     */
    public ApiKeyRow createWithHash(String name, String secretSha256, State state) {
        insert(name, secretSha256, KeyHasher.PREFIX, state);
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

    private void insert(String name, String hash, String prefix, State state) {
        ApiKeyRow row = new ApiKeyRow(0, name, hash, prefix, json(state.grants()), state.expiresAt(), state.active(),
                clock.millis(), null, Scope.current());
        if (keys.findByName(name).isPresent()) {
            throw exists(name);
        }
        if (keys.administratorNamed(name)) { // a name in the logs and the history always means one caller
            throw new ApiException(409, "name_taken", "'" + name + "' is an administrator's name - choose another");
        }
        try {
            keys.insert(row);
        } catch (UnableToExecuteStatementException e) {
            if (keys.findByName(name).isPresent()) {
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
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            ApiKeyRow row = find(name);
            checkMatch(row, ifMatch);
            State next = change.apply(new State(grants(row), row.expiresAt(), row.active()));
            Long revokedAt = next.active() ? null : row.active() ? Long.valueOf(clock.millis()) : row.revokedAt();
            if (keys.update(row.id(), row.grants(), json(next.grants()), next.expiresAt(), next.active(),
                    revokedAt) == 1) {
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
        keys.endPrevious(row.id());
        invalidate(row);
        return find(name);
    }

    /** Deletes the key: it stops working at once here, its name is free, its quota counts are forgotten. */
    public void delete(String name, String ifMatch) {
        find(name); // another workspace's key is not found before anything else is said of it
        managed.check(ManagedObjects.API_KEYS, name);
        ApiKeyRow row = find(name);
        checkMatch(row, ifMatch);
        if (keys.delete(row.id(), clock.millis()) != 1) {
            throw ApiException.notFound("key_not_found", "API key '" + name + "' not found");
        }
        invalidate(row);
        quotas.forget(row.id());
    }

    /** The key's version for {@code ETag}/{@code If-Match}: it changes with every change to the key. */
    public static String etag(ApiKeyRow row) {
        String state = row.name() + '\u0000' + row.grants() + '\u0000' + row.expiresAt() + '\u0000' + row.active()
                + '\u0000' + row.keyHash() + '\u0000' + row.previousHash() + '\u0000' + row.previousExpiresAt();
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(state.getBytes(StandardCharsets.UTF_8));
            return "\"" + HexFormat.of().formatHex(d).substring(0, 32) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void checkMatch(ApiKeyRow row, String ifMatch) {
        if (ifMatch != null && !ifMatch.isBlank() && !ifMatch.strip().equals("*")
                && !ifMatch.strip().equals(etag(row))) {
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
