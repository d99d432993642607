package io.queryapigate.store;

/** One run of a saved-query version, as kept in the run history. */
public record RunRow(
        long id,
        long queryId,
        int version,
        long atMs,
        String requestId,
        long keyId,
        int status,
        long rowsOut,
        long durationUs,
        String errorCode) {}
