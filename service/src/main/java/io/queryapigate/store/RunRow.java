package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * One call as the run history shows it: a saved-query run from {@code run_history} (its {@code sqlHash} null), or
 * any call from the event log ({@code queryId} and {@code version} null for ad-hoc SQL and for saved-query calls
 * refused before the query was found; {@code sqlHash} set for ad-hoc SQL only). {@code role}: the role the caller
 * acted under (the event log's; null in {@code run_history}). {@code traceId}: the trace the call was part of, when
 * tracing was on. {@code transport}: how the call arrived, null for REST, {@code mcp} for the MCP server.
 */
public record RunRow(
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
        String transport) {

    @JdbiConstructor
    public RunRow {
    }

    /** A run outside any trace (imports). */
    public RunRow(long id, Long queryId, Integer version, long atMs, String requestId, long keyId, String connection,
            int status, long rowsOut, long durationUs, String errorCode, Long sqlHash, String role) {
        this(id, queryId, version, atMs, requestId, keyId, connection, status, rowsOut, durationUs, errorCode, sqlHash,
                role, null, null);
    }

    /** True for ad-hoc SQL. */
    public boolean adHoc() {
        return sqlHash != null;
    }

    /** True when the call answered 2xx. */
    public boolean succeeded() {
        return status >= 200 && status < 300;
    }
}
