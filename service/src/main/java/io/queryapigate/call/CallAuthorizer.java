package io.queryapigate.call;

import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;

/**
 * Every grant check of a call, in one place: which saved queries a key may look up and run, on which connections,
 * and whether it may send ad-hoc SQL. (What the SQL itself may do is the guard's: {@code guard.Guarding}.)
 * Stateless.
 */
public final class CallAuthorizer {

    /**
     * Before the store is read: a key that can reach no query by this name and holds no connection grant learns
     * nothing from a lookup (not even whether the query exists).
     */
    public void mayLookUp(Caller caller, String queryName) {
        if (!caller.admin() && !caller.grants().hasQueryByName(queryName) && !caller.grants().hasAnyConnection()) {
            throw notGranted(queryName);
        }
    }

    /**
     * The connection a saved query runs on for this caller: its own, or the one the caller names, which needs a
     * grant of that connection.
     *
     * @param own the query version's connection
     * @param requested the connection the caller named, or null
     */
    public String savedQueryConnection(Caller caller, String queryName, String own, String requested) {
        if (!caller.canRunQuery(queryName, own)) {
            throw notGranted(queryName);
        }
        if (requested == null || requested.isBlank() || requested.equals(own)) {
            return own;
        }
        if (!caller.canUseConnection(requested)) {
            throw ApiException.forbidden("connection_not_granted", "This API key may not use the connection '"
                    + requested + "'.");
        }
        return requested;
    }

    /** Ad-hoc SQL on a connection: a named connection and a key allowed ad-hoc SQL there. */
    public String adHocConnection(Caller caller, String connection) {
        if (connection == null || connection.isBlank()) {
            throw ApiException.badRequest("connection_required", "connection_name is required.");
        }
        if (!caller.canRunAdHoc(connection)) {
            throw ApiException.forbidden("adhoc_not_granted",
                    "This API key may not run ad-hoc SQL on the connection '" + connection + "'.");
        }
        return connection;
    }

    private static ApiException notGranted(String queryName) {
        return ApiException.forbidden("query_not_granted", "This API key may not run the query '" + queryName + "'.");
    }
}
