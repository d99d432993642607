package io.queryapigate.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.KeyColumn;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.config.ValueColumn;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Named administrators and their workspace memberships: as authentication reads them, and as the management API
 * and the {@code admins} command change them (each change in one of their transactions, {@code admins.Administrators}).
 */
@RegisterConstructorMapper(AdministratorRow.class)
public interface AdministratorDao {
    String COLUMNS = "id, name, role, active, email, issuer, subject, created_at, created_by, last_seen_at";

    @SqlQuery("SELECT " + COLUMNS + " FROM administrators WHERE id = :id")
    Optional<AdministratorRow> findById(@Bind("id") long id);

    @SqlQuery("SELECT " + COLUMNS + " FROM administrators WHERE name = :name")
    Optional<AdministratorRow> findByName(@Bind("name") String name);

    /** The administrator linked to this identity provider account. */
    @SqlQuery("SELECT " + COLUMNS + " FROM administrators WHERE issuer = :issuer AND subject = :subject")
    Optional<AdministratorRow> findBySso(@Bind("issuer") String issuer, @Bind("subject") String subject);

    @SqlQuery("SELECT " + COLUMNS + " FROM administrators ORDER BY name")
    List<AdministratorRow> list();

    /** The administrator's role in each workspace it is a member of. */
    @SqlQuery("SELECT workspace, role FROM workspace_members WHERE admin_id = :id")
    @KeyColumn("workspace")
    @ValueColumn("role")
    Map<String, String> memberships(@Bind("id") long adminId);

    @SqlQuery("SELECT COUNT(*) > 0 FROM administrators WHERE role = 'owner' AND active")
    boolean activeOwnerExists();

    @SqlQuery("INSERT INTO administrators (name, role, active, email, created_at, created_by)"
            + " VALUES (:name, :role, TRUE, :email, :createdAt, :createdBy) RETURNING id")
    long insert(@Bind("name") String name, @Bind("role") String role, @Bind("email") String email,
            @Bind("createdAt") long createdAt, @Bind("createdBy") String createdBy);

    @SqlUpdate("UPDATE administrators SET role = :role, email = :email, active = :active WHERE id = :id")
    int update(@Bind("id") long id, @Bind("role") String role, @Bind("email") String email,
            @Bind("active") boolean active);

    @SqlUpdate("DELETE FROM administrators WHERE id = :id")
    int delete(@Bind("id") long id);

    /**
     * Locks the rows of the active owners until the transaction ends (PostgreSQL; SQLite's transactions take the
     * write lock first anyway): two changes that each remove a different one of the last two owners then run one
     * after the other, and the second sees that the first left only one.
     */
    @SqlUpdate("UPDATE administrators SET role = role WHERE role = 'owner' AND active")
    int lockActiveOwners();

    @SqlUpdate("DELETE FROM workspace_members WHERE admin_id = :id")
    int deleteMemberships(@Bind("id") long adminId);

    /** Ends the administrator's console sessions. */
    @SqlUpdate("DELETE FROM admin_sessions WHERE admin_id = :id")
    int deleteSessions(@Bind("id") long adminId);

    @SqlUpdate("UPDATE administrators SET last_seen_at = :at WHERE id = :id")
    int seen(@Bind("id") long id, @Bind("at") long at);

    /** Whether a live API key has this name (an administrator may not take it, nor a key an administrator's). */
    @SqlQuery("SELECT COUNT(*) > 0 FROM api_keys WHERE name = :name AND deleted_at IS NULL")
    boolean keyNamed(@Bind("name") String name);
}
