package io.queryapigate.store;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;

/**
 * A stored API-key role (schema 8): a named grant template in one workspace. {@code grants} is the JSON of its
 * {@code auth.Grants}; times are epoch milliseconds.
 */
public record RoleRow(
        long id,
        String name,
        String workspace,
        String description,
        String grants,
        long createdAt,
        String createdBy,
        long updatedAt,
        String updatedBy) {

    @JdbiConstructor
    public RoleRow {}
}
