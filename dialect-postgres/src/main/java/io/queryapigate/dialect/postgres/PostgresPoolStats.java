package io.queryapigate.dialect.postgres;

/**
 * A snapshot of one dialect's connection pool, free of any metrics library, for the service to export (as gauges,
 * for example). Taken from HikariCP's {@code HikariPoolMXBean}; the counts are read one after another, so they may
 * not add up exactly under load.
 *
 * @param active connections lent to running calls
 * @param idle connections waiting in the pool
 * @param total all connections the pool holds
 * @param waiting calls waiting for a connection
 * @param maximumSize the pool's size ({@code DialectContext.poolSize})
 */
public record PostgresPoolStats(int active, int idle, int total, int waiting, int maximumSize) {}
