package io.queryapigate.dialect.spi;

import java.util.Map;
import java.util.Set;

/**
 * Entry point of a dialect plugin, found through {@link java.util.ServiceLoader}.
 *
 * <p>One instance exists per JVM. It must have a public no-argument constructor, be stateless and cheap to
 * construct: the service instantiates every factory on the class path at startup, but calls {@link #create}
 * only for connections whose YAML names this factory.
 *
 * <p>Later SPI versions add methods here only as default methods.
 */
public interface DialectFactory {

    /**
     * The stable lowercase identifier operators write as {@code dialect:} in YAML, such as {@code duckdb},
     * {@code postgres}, {@code mysql}, {@code trino} or {@code clickhouse}. Two factories with the same name stop
     * the service at startup.
     *
     * @return the dialect name, matching {@code [a-z][a-z0-9_-]*}
     */
    String name();

    /**
     * The SPI version this factory was compiled against. Implementations return {@link DialectSpi#VERSION}
     * literally, so that the compiler inlines the constant of the SPI they were built with.
     *
     * @return a {@code major.minor} version string
     */
    String spiVersion();

    /**
     * Creates the dialect for one configured connection.
     *
     * <p>The factory validates {@code properties} before it returns: an unknown key, a missing required key or a
     * malformed value throws {@link IllegalArgumentException} whose message names the key (for example {@code
     * "duckdb.read_only: expected true or false, got 'maybe'"}). Creation may open connections; if it cannot reach
     * the database it should still return a dialect whose {@link Dialect#checkHealth} reports the problem, unless
     * the configuration itself is wrong.
     *
     * @param context what the service knows about the connection (name, URL, credentials, limits)
     * @param properties the connection's dialect-specific {@code properties} map from YAML, verbatim
     * @return a new dialect; the caller closes it
     * @throws IllegalArgumentException if the configuration is invalid; the message names the offending key
     */
    Dialect create(DialectContext context, Map<String, String> properties);

    /**
     * Property names whose values are secrets; the service masks them in logs and admin output.
     *
     * @return the secret property names; empty by default
     */
    default Set<String> sensitivePropertyNames() {
        return Set.of();
    }
}
