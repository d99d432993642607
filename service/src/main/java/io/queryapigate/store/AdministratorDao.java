package io.queryapigate.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.KeyColumn;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.config.ValueColumn;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/** Named administrators and their workspace memberships, as authentication reads them. */
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
}
