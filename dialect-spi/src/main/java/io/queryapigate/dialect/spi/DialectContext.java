package io.queryapigate.dialect.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What the service hands a {@link DialectFactory} about one configured connection.
 *
 * @param connectionName the connection's name in YAML; used in error messages and metrics
 * @param url the connection URL as configured (a JDBC URL, an HTTP base URL or a file path, per dialect)
 * @param user the user name, or empty
 * @param password the password after environment substitution, or empty; never log it
 * @param defaultTimeout the time limit applied when a request gives none; positive
 * @param maxRows the most rows one call may return; positive
 * @param poolSize the number of pooled sessions the dialect may keep; at least 1
 * @param homeDirectory the service's data directory, for dialects that keep files (may be used to resolve
 *     relative paths)
 */
public record DialectContext(
        String connectionName,
        String url,
        Optional<String> user,
        Optional<String> password,
        Duration defaultTimeout,
        long maxRows,
        int poolSize,
        java.nio.file.Path homeDirectory) {

    /** Validates the fields. */
    public DialectContext {
        Objects.requireNonNull(connectionName, "connectionName is null");
        Objects.requireNonNull(url, "url is null");
        Objects.requireNonNull(user, "user is null");
        Objects.requireNonNull(password, "password is null");
        Objects.requireNonNull(defaultTimeout, "defaultTimeout is null");
        Objects.requireNonNull(homeDirectory, "homeDirectory is null");
        if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
            throw new IllegalArgumentException("defaultTimeout must be positive");
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1");
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be at least 1");
        }
    }

    /** Hides the password from logs. */
    @Override
    public String toString() {
        return "DialectContext[connectionName=" + connectionName + ", url=" + url + ", user=" + user.orElse("")
                + ", password=" + (password.isPresent() ? "****" : "") + ", defaultTimeout=" + defaultTimeout
                + ", maxRows=" + maxRows + ", poolSize=" + poolSize + ", homeDirectory=" + homeDirectory + "]";
    }
}
