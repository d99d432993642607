package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * API-key roles. A name is unique on the server; every lookup the management API makes names the workspace too, so a
 * role of another workspace is never found through it.
 */
@RegisterConstructorMapper(RoleRow.class)
public interface RoleDao {
    String COLUMNS = "id, name, workspace, description, grants, created_at, created_by, updated_at, updated_by";

    @SqlQuery("INSERT INTO roles (name, workspace, description, grants, created_at, created_by, updated_at,"
            + " updated_by) VALUES (:name, :workspace, :description, :grants, :createdAt, :createdBy, :updatedAt,"
            + " :updatedBy) RETURNING id")
    long insert(@BindMethods RoleRow row);

    /** The role of this name, in any workspace: for authentication, which checks the workspace itself. */
    @SqlQuery("SELECT " + COLUMNS + " FROM roles WHERE name = :name")
    Optional<RoleRow> findByName(@Bind("name") String name);

    @SqlQuery("SELECT " + COLUMNS + " FROM roles WHERE workspace = :workspace AND name = :name")
    Optional<RoleRow> find(@Bind("workspace") String workspace, @Bind("name") String name);

    @SqlQuery("SELECT " + COLUMNS + " FROM roles WHERE workspace = :workspace ORDER BY name")
    List<RoleRow> list(@Bind("workspace") String workspace);

    /** Replaces description and grants if the row is still as read; 0 when it changed meanwhile. */
    @SqlUpdate("UPDATE roles SET description = :description, grants = :grants, updated_at = :at, updated_by = :by"
            + " WHERE id = :id AND updated_at = :readUpdatedAt AND grants = :readGrants")
    int update(@Bind("id") long id, @Bind("readUpdatedAt") long readUpdatedAt, @Bind("readGrants") String readGrants,
            @Bind("description") String description, @Bind("grants") String grants, @Bind("at") long at,
            @Bind("by") String by);

    @SqlUpdate("DELETE FROM roles WHERE id = :id")
    int delete(@Bind("id") long id);

    /** The live keys made from the role, by name. */
    @SqlQuery("SELECT name FROM api_keys WHERE role_name = :name AND workspace = :workspace AND deleted_at IS NULL"
            + " ORDER BY name")
    List<String> keysOf(@Bind("workspace") String workspace, @Bind("name") String name);
}
