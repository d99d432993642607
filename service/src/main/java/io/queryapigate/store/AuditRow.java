package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * One audit log entry (schema 13). {@code entryJson} is the canonical JSON the hash covers (actor, action, target,
 * workspace, request id, time, before/after with secrets only marked as changed); the other columns repeat what
 * filters need. {@code hash} is {@code sha256:<hex>} or {@code hmac-sha256:<hex>} over {@code prevHash}, {@code seq}
 * and {@code entryJson}.
 */
public record AuditRow(
        long seq,
        long atMs,
        String actorKind,
        String actor,
        String address,
        String action,
        String target,
        String workspace,
        String requestId,
        String entryJson,
        String prevHash,
        String hash) {

    @JdbiConstructor
    public AuditRow {}
}
