package io.queryapigate.connections;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.config.ConnectionConfig;
import io.queryapigate.dialect.ConnectionRegistry;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.secrets.SecretBox;
import io.queryapigate.secrets.SecretResolver;
import io.queryapigate.store.ConnectionRow;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stored connection's row turned into the settings its dialect opens with, as the YAML would declare them: the
 * password opened ({@link SecretBox}) or resolved ({@link SecretResolver}), references in properties resolved too,
 * and until when those values may be used.
 */
final class ConnectionSettings {
    private final ConnectionRegistry registry;
    private final SecretBox box;
    private final SecretResolver secrets;
    private final ObjectMapper mapper;

    /** A connection opened from its row, when its secrets must be resolved again, and a digest of their values. */
    record Opened(Connection connection, Instant refreshAt, String secretDigest) {}

    /** The row's secrets resolved, without opening anything. */
    record Resolved(ConnectionConfig config, Instant refreshAt, String secretDigest) {}

    ConnectionSettings(ConnectionRegistry registry, SecretBox box, SecretResolver secrets, ObjectMapper mapper) {
        this.registry = registry;
        this.box = box;
        this.secrets = secrets;
        this.mapper = mapper;
    }

    SecretBox box() {
        return box;
    }

    SecretResolver secrets() {
        return secrets;
    }

    /** What the sealed password of {@code connection} is bound to. */
    static String context(String connection) {
        return "connection:" + connection + ":password";
    }

    /**
     * Resolves the row's secrets.
     *
     * @throws io.queryapigate.secrets.SecretUnavailableException naming the reference (or the key), never a value
     */
    Resolved resolve(ConnectionRow row, int poolSize) {
        Instant refreshAt = Instant.MAX;
        StringBuilder digest = new StringBuilder();
        String password = null;
        if (row.passwordSealed() != null) {
            password = box.open(row.passwordSealed(), context(row.name()));
        } else if (row.passwordRef() != null) {
            SecretResolver.Resolved r = secrets.resolve(row.name(), row.passwordRef());
            password = r.value();
            refreshAt = min(refreshAt, r.refreshAt());
        }
        digest.append(password).append('\u0000');
        Map<String, String> properties = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : properties(row).entrySet()) {
            String value = p.getValue();
            if (value != null && secrets.isReference(value)) {
                SecretResolver.Resolved r = secrets.resolve(row.name(), value);
                value = r.value();
                refreshAt = min(refreshAt, r.refreshAt());
                digest.append(p.getKey()).append('=').append(value).append('\u0000');
            }
            properties.put(p.getKey(), value);
        }
        ConnectionConfig c = new ConnectionConfig();
        c.setDialect(row.dialect());
        c.setUrl(row.url());
        c.setUser(row.username());
        c.setPassword(password);
        c.setPoolSize(poolSize > 0 ? poolSize : row.poolSize());
        c.setQueryTimeout(row.queryTimeoutMs() == null ? null
                : io.dropwizard.util.Duration.milliseconds(row.queryTimeoutMs()));
        c.setProperties(properties);
        c.setAllowedFunctions(allowedFunctions(row));
        return new Resolved(c, refreshAt, sha256(digest.toString()));
    }

    /** Opens the row's connection (not registered); {@code poolSize} 0 keeps the row's. */
    Opened open(ConnectionRow row, int poolSize) {
        Resolved r = resolve(row, poolSize);
        return new Opened(registry.open(row.name(), r.config()), r.refreshAt(), r.secretDigest());
    }

    /** A copy of a YAML connection's settings with another pool size. */
    static ConnectionConfig withPoolSize(ConnectionConfig from, int poolSize) {
        ConnectionConfig c = new ConnectionConfig();
        c.setDialect(from.getDialect());
        c.setUrl(from.getUrl());
        c.setUser(from.getUser());
        c.setPassword(from.getPassword());
        c.setQueryTimeout(from.getQueryTimeout());
        c.setPoolSize(poolSize);
        c.setProperties(new LinkedHashMap<>(from.getProperties()));
        c.setAllowedFunctions(new ArrayList<>(from.getAllowedFunctions()));
        return c;
    }

    /**
     * What decides how a row's pool is opened: a change to any of it replaces the pool, a change elsewhere (its
     * description) does not.
     */
    static String fingerprint(ConnectionRow row) {
        return sha256(String.join("\u0000", row.dialect(), row.url(), String.valueOf(row.username()),
                String.valueOf(row.passwordSealed()), String.valueOf(row.passwordRef()),
                Integer.toString(row.poolSize()), String.valueOf(row.queryTimeoutMs()), row.properties(),
                row.allowedFunctions()));
    }

    Map<String, String> properties(ConnectionRow row) {
        try {
            return mapper.readValue(row.properties(), new TypeReference<LinkedHashMap<String, String>>() {});
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<String> allowedFunctions(ConnectionRow row) {
        try {
            return mapper.readValue(row.allowedFunctions(), new TypeReference<ArrayList<String>>() {});
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instant min(Instant a, Instant b) {
        return b == null || a.isBefore(b) ? a : b;
    }

    static String sha256(String text) {
        return KeyHasher.hashHex(text);
    }
}
