package io.queryapigate.store;

/**
 * One call of the event log as the live stream reads it: the run ({@link RunRow}, its trace id too) and the
 * workspace it belongs to (its saved query's, else its connection's, else {@code default}: the rule of {@code GET /api/v1/history}).
 */
public record LiveRow(
        long id,
        Long queryId,
        Integer version,
        long atMs,
        String requestId,
        long keyId,
        String connection,
        int status,
        long rowsOut,
        long durationUs,
        String errorCode,
        Long sqlHash,
        String role,
        String traceId,
        String workspace) {

    /** The call as the run history shows it. */
    public RunRow run() {
        return new RunRow(id, queryId, version, atMs, requestId, keyId, connection, status, rowsOut, durationUs,
                errorCode, sqlHash, role, traceId);
    }
}
