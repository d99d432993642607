package io.queryapigate.auth;

import java.util.Optional;

/**
 * The API-key roles (named grant templates) as callers are authenticated with them: a signed-in user's role claim
 * names one, a key made from one narrows it. Answers from memory, refreshed per metadata-cache TTL (hot path).
 */
public interface RoleGrants {
    /** A role by name: its grants and workspace, if it exists. */
    Optional<Role> role(String name);

    /** A role as authentication needs it. */
    record Role(long id, String name, String workspace, Grants grants) {}
}
