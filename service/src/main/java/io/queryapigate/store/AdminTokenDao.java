package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** Personal admin tokens ({@code qagadm_...}), found by the SHA-256 of the secret. */
@RegisterConstructorMapper(AdminTokenRow.class)
public interface AdminTokenDao {
    String COLUMNS = "id, admin_id, token_hash, token_prefix, label, expires_at, created_at, last_used_at";

    @SqlQuery("INSERT INTO admin_tokens (admin_id, token_hash, token_prefix, label, expires_at, created_at)"
            + " VALUES (:adminId, :tokenHash, :tokenPrefix, :label, :expiresAt, :createdAt) RETURNING id")
    long insert(@BindMethods AdminTokenRow row);

    @SqlQuery("SELECT " + COLUMNS + " FROM admin_tokens WHERE token_hash = :hash")
    Optional<AdminTokenRow> findByHash(@Bind("hash") String hash);

    @SqlQuery("SELECT " + COLUMNS + " FROM admin_tokens WHERE id = :id")
    Optional<AdminTokenRow> findById(@Bind("id") long id);

    @SqlQuery("SELECT " + COLUMNS + " FROM admin_tokens WHERE admin_id = :adminId ORDER BY created_at, id")
    List<AdminTokenRow> list(@Bind("adminId") long adminId);

    @SqlQuery("SELECT COUNT(*) FROM admin_tokens WHERE admin_id = :adminId")
    int count(@Bind("adminId") long adminId);

    @SqlUpdate("DELETE FROM admin_tokens WHERE id = :id AND admin_id = :adminId")
    int delete(@Bind("adminId") long adminId, @Bind("id") long id);

    @SqlUpdate("DELETE FROM admin_tokens WHERE admin_id = :adminId")
    int deleteAll(@Bind("adminId") long adminId);

    @SqlUpdate("UPDATE admin_tokens SET last_used_at = :at WHERE id = :id")
    int used(@Bind("id") long id, @Bind("at") long at);
}
