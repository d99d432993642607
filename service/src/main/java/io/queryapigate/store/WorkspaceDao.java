package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Workspaces, their members, and what each owns (to refuse removing one that is not empty). Names are the primary
 * key; a member is named by its administrator's id, answered with the administrator's name.
 */
@RegisterConstructorMapper(WorkspaceRow.class)
@RegisterConstructorMapper(MemberRow.class)
public interface WorkspaceDao {
    String COLUMNS = "w.name, w.description, w.created_at, w.created_by,"
            + " (SELECT COUNT(*) FROM workspace_members m WHERE m.workspace = w.name) AS members";
    String MEMBER_COLUMNS = "a.name AS admin, m.role, m.created_at, m.created_by";

    @SqlQuery("SELECT " + COLUMNS + " FROM workspaces w ORDER BY w.name")
    List<WorkspaceRow> list();

    @SqlQuery("SELECT " + COLUMNS + " FROM workspaces w WHERE w.name = :name")
    Optional<WorkspaceRow> find(@Bind("name") String name);

    @SqlQuery("SELECT name FROM workspaces")
    List<String> names();

    @SqlUpdate("INSERT INTO workspaces (name, description, created_at, created_by)"
            + " VALUES (:name, :description, :at, :by)")
    int insert(@Bind("name") String name, @Bind("description") String description, @Bind("at") long at,
            @Bind("by") String by);

    @SqlUpdate("UPDATE workspaces SET description = :description WHERE name = :name")
    int describe(@Bind("name") String name, @Bind("description") String description);

    @SqlUpdate("DELETE FROM workspaces WHERE name = :name")
    int delete(@Bind("name") String name);

    /** How many live connections, saved queries, API keys and roles the workspace owns, in that order. */
    @SqlQuery("SELECT (SELECT COUNT(*) FROM connections WHERE workspace = :name AND deleted_at IS NULL)"
            + " AS connections, (SELECT COUNT(*) FROM saved_queries WHERE workspace = :name) AS queries,"
            + " (SELECT COUNT(*) FROM api_keys WHERE workspace = :name AND deleted_at IS NULL) AS keys,"
            + " (SELECT COUNT(*) FROM roles WHERE workspace = :name) AS roles")
    @RegisterConstructorMapper(Contents.class)
    Contents contents(@Bind("name") String name);

    /** What a workspace owns: a workspace with any of it is not empty. */
    record Contents(long connections, long queries, long keys, long roles) {}

    @SqlUpdate("DELETE FROM workspace_members WHERE workspace = :name")
    int deleteMembers(@Bind("name") String name);

    @SqlQuery("SELECT " + MEMBER_COLUMNS + " FROM workspace_members m JOIN administrators a ON a.id = m.admin_id"
            + " WHERE m.workspace = :name ORDER BY a.name")
    List<MemberRow> members(@Bind("name") String workspace);

    @SqlQuery("SELECT " + MEMBER_COLUMNS + " FROM workspace_members m JOIN administrators a ON a.id = m.admin_id"
            + " WHERE m.workspace = :name AND m.admin_id = :admin")
    Optional<MemberRow> member(@Bind("name") String workspace, @Bind("admin") long adminId);

    @SqlUpdate("INSERT INTO workspace_members (workspace, admin_id, role, created_at, created_by)"
            + " VALUES (:name, :admin, :role, :at, :by)")
    int addMember(@Bind("name") String workspace, @Bind("admin") long adminId, @Bind("role") String role,
            @Bind("at") long at, @Bind("by") String by);

    @SqlUpdate("UPDATE workspace_members SET role = :role WHERE workspace = :name AND admin_id = :admin")
    int changeMember(@Bind("name") String workspace, @Bind("admin") long adminId, @Bind("role") String role);

    @SqlUpdate("DELETE FROM workspace_members WHERE workspace = :name AND admin_id = :admin")
    int removeMember(@Bind("name") String workspace, @Bind("admin") long adminId);
}
