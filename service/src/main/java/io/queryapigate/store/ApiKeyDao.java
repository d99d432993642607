package io.queryapigate.store;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.customizer.BindMethods;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * API keys. Deleted keys stay as rows ({@code deleted_at}) that no query here returns: they never authenticate,
 * and their name may be taken again.
 */
@RegisterConstructorMapper(ApiKeyRow.class)
public interface ApiKeyDao {
    String COLUMNS = "id, name, key_hash, key_prefix, grants, expires_at, active, created_at, revoked_at,"
            + " previous_hash, previous_expires_at, last_used_at, workspace, role_name, claims";
    String LIVE = " deleted_at IS NULL";

    @SqlQuery("INSERT INTO api_keys (name, key_hash, key_prefix, grants, expires_at, active, created_at, workspace,"
            + " role_name, claims) VALUES (:name, :keyHash, :keyPrefix, :grants, :expiresAt, :active, :createdAt,"
            + " :workspace, :roleName, :claims) RETURNING id")
    long insert(@BindMethods ApiKeyRow row);

    /** The key whose current or previous secret has this hash (the caller checks the previous one's grace). */
    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys WHERE (key_hash = :hash OR previous_hash = :hash) AND" + LIVE
            + " ORDER BY CASE WHEN key_hash = :hash THEN 0 ELSE 1 END LIMIT 1")
    Optional<ApiKeyRow> findByHash(@Bind("hash") String hash);

    /** Whether a deleted key had this secret (its hash stays taken: a deleted key's secret never works again). */
    @SqlQuery("SELECT COUNT(*) > 0 FROM api_keys WHERE key_hash = :hash AND deleted_at IS NOT NULL")
    boolean deletedWithHash(@Bind("hash") String hash);

    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys WHERE name = :name AND" + LIVE)
    Optional<ApiKeyRow> findByName(@Bind("name") String name);

    /** Whether a named administrator has this name (a key may not take it). */
    @SqlQuery("SELECT COUNT(*) > 0 FROM administrators WHERE name = :name")
    boolean administratorNamed(@Bind("name") String name);

    @SqlQuery("SELECT " + COLUMNS + " FROM api_keys WHERE" + LIVE + " ORDER BY name")
    List<ApiKeyRow> list();

    /**
     * Replaces grants, role, claims, expiry and state if the row is still as read ({@code grants}, role and claims
     * unchanged); 0 when it was not.
     */
    @SqlUpdate("UPDATE api_keys SET grants = :grants, role_name = :roleName, claims = :claims,"
            + " expires_at = :expiresAt, active = :active, revoked_at = :revokedAt WHERE id = :id"
            + " AND grants = :read.grants AND COALESCE(role_name, '') = COALESCE(:read.roleName, '')"
            + " AND COALESCE(claims, '') = COALESCE(:read.claims, '') AND" + LIVE)
    int update(@Bind("id") long id, @BindMethods("read") ApiKeyRow read, @Bind("grants") String grants,
            @Bind("roleName") String roleName, @Bind("claims") String claims, @Bind("expiresAt") String expiresAt,
            @Bind("active") boolean active, @Bind("revokedAt") Long revokedAt);

    /** A new secret, the old one kept until {@code previousExpiresAt} (null: not kept); 0 when rotated meanwhile. */
    @SqlUpdate("UPDATE api_keys SET key_hash = :newHash, key_prefix = :prefix, previous_hash = :previousHash,"
            + " previous_expires_at = :previousExpiresAt WHERE id = :id AND key_hash = :readHash AND" + LIVE)
    int rotate(@Bind("id") long id, @Bind("readHash") String readHash, @Bind("newHash") String newHash,
            @Bind("prefix") String prefix, @Bind("previousHash") String previousHash,
            @Bind("previousExpiresAt") Long previousExpiresAt);

    @SqlUpdate("UPDATE api_keys SET previous_hash = NULL, previous_expires_at = NULL WHERE id = :id")
    int endPrevious(@Bind("id") long id);

    @SqlUpdate("UPDATE api_keys SET deleted_at = :at, active = FALSE, previous_hash = NULL,"
            + " previous_expires_at = NULL WHERE id = :id AND" + LIVE)
    int delete(@Bind("id") long id, @Bind("at") long at);

    /** Calls per key in the event log (its retention): {@code key_id, calls, errors, rows}. */
    @SqlQuery("SELECT key_id, COUNT(*) AS calls, SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,"
            + " COALESCE(SUM(rows_out), 0) AS rows_out FROM events WHERE key_id > 0 GROUP BY key_id")
    @RegisterConstructorMapper(KeyUsage.class)
    List<KeyUsage> usage();

    /** One key's calls in the event log (its retention). */
    record KeyUsage(long keyId, long calls, long errors, long rowsOut) {}
}
