package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

@RegisterConstructorMapper(ApiKeyRow.class)
public interface ApiKeyDao {
    String COLUMNS = "id, name, key_hash, key_prefix, grants, expires_at, active, created_at, revoked_at";

    @SqlQuery("INSERT INTO api_keys (name, key_hash, key_prefix, grants, expires_at, active, created_at)"
            + " VALUES (:name, :keyHash, :keyPrefix, :grants, :expiresAt, :active, :createdAt) RETURNING id")
    long insert(@BindMethods ApiKeyRow row);

    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys WHERE key_hash = :hash")
    Optional<ApiKeyRow> findByHash(@Bind("hash") String hash);

    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys WHERE name = :name")
    Optional<ApiKeyRow> findByName(@Bind("name") String name);

    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys ORDER BY name")
    List<ApiKeyRow> list();

    @SqlUpdate("UPDATE api_keys SET active = FALSE, revoked_at = :at WHERE name = :name AND active = TRUE")
    int revoke(@Bind("name") String name, @Bind("at") long at);

    @SqlUpdate("UPDATE api_keys SET grants = :grants, expires_at = :expiresAt, active = :active WHERE name = :name")
    int update(@Bind("name") String name, @Bind("grants") String grants, @Bind("expiresAt") String expiresAt,
            @Bind("active") boolean active);
}
