package io.queryapigate.auth;

import java.security.Principal;

/**
 * The authenticated caller of one request: the administrator key ({@code keyId} 0) or a scoped key from the store.
 */
public record Caller(long keyId, String name, boolean admin, Grants grants) implements Principal {
    public static final long ADMIN_KEY_ID = 0;
    /** Recorded for calls refused before a key was known. */
    public static final long NO_KEY_ID = -1;

    @Override
    public String getName() {
        return name;
    }

    /** May run this saved query, on the query's own connection. */
    public boolean canRunQuery(String query, String connection) {
        return admin || grants.hasQueryByName(query) || grants.hasConnection(connection);
    }

    /** May run a saved query on a connection other than its own (needs a real connection grant). */
    public boolean canUseConnection(String connection) {
        return admin || grants.hasConnection(connection);
    }

    /** May run a write, given the server-wide ceiling. */
    public boolean canWrite(boolean serverAllowsWrites) {
        return serverAllowsWrites && (admin || grants.allowWrites());
    }

    public boolean canRunAdHoc(String connection) {
        return admin || (grants.adhocSql() && grants.hasConnection(connection));
    }
}
