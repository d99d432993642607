package io.queryapigate.auth;

import java.security.Principal;

/**
 * The authenticated caller of one request: the administrator key ({@code keyId} 0), a scoped key from the store
 * (positive ids), or a person (a signed-in user, {@link #principalKeyId}, or a named administrator,
 * {@link #administratorKeyId}: negative ids).
 * {@code admin} means the caller may run SQL on every connection of its workspace, as the administrator key can;
 * what it may do in the management API is its {@link Identity}'s role.
 */
public record Caller(long keyId, String name, boolean admin, Grants grants, Identity identity) implements Principal {
    public static final long ADMIN_KEY_ID = 0;
    /** Recorded for calls refused before a key was known. */
    public static final long NO_KEY_ID = -1;

    /** A scoped key of the default workspace, or the administrator key. */
    public Caller(long keyId, String name, boolean admin, Grants grants) {
        this(keyId, name, admin, grants, keyId == ADMIN_KEY_ID && admin
                ? Identity.breakGlass(Identity.DEFAULT_WORKSPACE) : Identity.key());
    }

    private static final long ADMINISTRATORS = 1L << 40;

    /**
     * The key id a signed-in user is counted under in events, history, limits and quotas: {@code -1 - principalId}
     * (a row of the store's {@code principals}).
     */
    public static long principalKeyId(long principalId) {
        return -1 - principalId;
    }

    /** The key id a named administrator is counted under: {@code -2^40 - administratorId}. */
    public static long administratorKeyId(long administratorId) {
        return -ADMINISTRATORS - administratorId;
    }

    /** The administrator id behind a key id, or 0 when the key id is not an administrator's. */
    public static long administratorId(long keyId) {
        return keyId <= -ADMINISTRATORS ? -ADMINISTRATORS - keyId : 0;
    }

    /** The principal id behind a key id, or 0 when the key id is not a signed-in user's. */
    public static long principalId(long keyId) {
        return keyId < NO_KEY_ID && keyId > -ADMINISTRATORS ? -1 - keyId : 0;
    }

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

    /** The workspace this request acts in. */
    public String workspace() {
        return identity.workspace();
    }
}
