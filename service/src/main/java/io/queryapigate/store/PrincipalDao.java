package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindList;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * People who are not keys ({@code principals}, schema 8): signed-in users, by (kind, issuer, subject). A row is
 * written once, the first time someone is seen, and never changes.
 */
@RegisterConstructorMapper(PrincipalRow.class)
public interface PrincipalDao {
    String COLUMNS = "id, kind, issuer, subject, name, first_seen_at";

    @SqlQuery("SELECT " + COLUMNS + " FROM principals WHERE kind = :kind AND issuer = :issuer AND subject = :subject")
    Optional<PrincipalRow> find(@Bind("kind") String kind, @Bind("issuer") String issuer,
            @Bind("subject") String subject);

    /** Inserts a principal unless one with that (kind, issuer, subject) exists (another instance may have). */
    @SqlQuery("INSERT INTO principals (kind, issuer, subject, name, first_seen_at)"
            + " VALUES (:kind, :issuer, :subject, :name, :at) ON CONFLICT (kind, issuer, subject) DO NOTHING"
            + " RETURNING id")
    Optional<Long> insert(@Bind("kind") String kind, @Bind("issuer") String issuer, @Bind("subject") String subject,
            @Bind("name") String name, @Bind("at") long at);

    @SqlQuery("SELECT " + COLUMNS + " FROM principals WHERE id IN (<ids>)")
    List<PrincipalRow> byIds(@BindList("ids") List<Long> ids);

    @SqlQuery("SELECT " + COLUMNS + " FROM principals WHERE name = :name ORDER BY id")
    List<PrincipalRow> byName(@Bind("name") String name);
}
