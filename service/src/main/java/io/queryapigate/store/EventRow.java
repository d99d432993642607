package io.queryapigate.store;

/**
 * One call, for the event log. {@code queryId}/{@code version} for saved queries (null when the call was refused
 * before its query was found), {@code sqlHash} (the first 64 bits of the SQL's SHA-256) for every ad-hoc call and
 * only for those: the history tells the two kinds apart by it. {@code role}: the role the caller acted under (a
 * signed-in user's or a role-made key's API-key role, an administrator's role), null for a plain key. {@code
 * traceId}: the trace the call was part of when tracing is on (32 hex digits), else null. {@code transport}: null for
 * the REST API, {@code mcp} for the MCP server. {@code cacheHit}: answered from the response cache.
 */
public record EventRow(
        long atMs,
        String requestId,
        long keyId,
        Long queryId,
        Integer version,
        Long sqlHash,
        String connection,
        int status,
        long rowsOut,
        long durationUs,
        long bytesOut,
        String errorCode,
        String role,
        String traceId,
        String transport,
        boolean cacheHit) {

    /** A call not answered from the response cache. */
    public EventRow(long atMs, String requestId, long keyId, Long queryId, Integer version, Long sqlHash,
            String connection, int status, long rowsOut, long durationUs, long bytesOut, String errorCode,
            String role, String traceId, String transport) {
        this(atMs, requestId, keyId, queryId, version, sqlHash, connection, status, rowsOut, durationUs, bytesOut,
                errorCode, role, traceId, transport, false);
    }

    /** A call outside any trace. */
    public EventRow(long atMs, String requestId, long keyId, Long queryId, Integer version, Long sqlHash,
            String connection, int status, long rowsOut, long durationUs, long bytesOut, String errorCode,
            String role) {
        this(atMs, requestId, keyId, queryId, version, sqlHash, connection, status, rowsOut, durationUs, bytesOut,
                errorCode, role, null, null, false);
    }
}
