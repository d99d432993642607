package io.queryapigate.store;

/**
 * One call, for the event log. {@code queryId}/{@code version} for saved queries, {@code sqlHash} (the first 64 bits
 * of the SQL's SHA-256) for ad-hoc SQL; both null for calls refused before a query was known.
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
        String errorCode) {}
