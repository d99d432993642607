package io.queryapigate.store;

/**
 * A write an AI agent asked to make through a saved query marked {@code agent_writes} (schema 20). Times are epoch
 * milliseconds; {@code arguments} and {@code result} are JSON.
 *
 * @param callerKeyId the caller's key id (negative for a person: a signed-in user or an administrator)
 * @param caller the caller's name as the run history shows it
 * @param argumentsHash SHA-256 of the canonical JSON of query, version and arguments, hex
 * @param status pending, approved, running, done, failed or rejected (expired is worked out from {@code expiresAt})
 * @param idempotencyHash an insert's idempotency key, hashed with its caller and query; null when none (or older
 *     than a day)
 */
public record WriteRequestRow(String id, String workspace, long callerKeyId, String caller, long queryId,
        String queryName, int version, String connectionName, String mode, String sqlText, String arguments,
        String argumentsHash, int maxAffectedRows, String status, long createdAt, long expiresAt, Long decidedAt,
        String decidedBy, String decidedVia, String reason, Long finishedAt, String result, String idempotencyHash) {}
