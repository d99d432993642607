package io.queryapigate.store;

/**
 * One gateway process using this store, as its heartbeat last wrote it (epoch milliseconds).
 *
 * @param sharedLimits whether it shares rate limits, quota counts and the response cache through Redis
 * @param storeKind    {@code sqlite} or {@code postgresql}
 */
public record InstanceRow(String id, String host, long pid, String version, String storeKind, boolean sharedLimits,
        long startedAt, long lastSeen) {}
