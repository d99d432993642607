package io.queryapigate.store;

/**
 * One call as the run history shows it: a saved-query run from {@code run_history} (its {@code sqlHash} null), or
 * any call from the event log ({@code queryId} and {@code version} null for ad-hoc SQL and for saved-query calls
 * refused before the query was found; {@code sqlHash} set for ad-hoc SQL only). {@code role}: the role the caller
 * acted under (the event log's; null in {@code run_history}).
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
        String role) {

    /** True for ad-hoc SQL. */
    public boolean adHoc() {
        return sqlHash != null;
    }

    /** True when the call answered 2xx. */
    public boolean succeeded() {
        return status >= 200 && status < 300;
    }
}
