package io.queryapigate.store;

import java.util.Optional;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/**
 * Console sign-in's part of the store: sign-ins under way ({@code sso_logins}), console sessions
 * ({@code admin_sessions}), and the administrators an identity provider's accounts are linked to (found by issuer and
 * subject, created at a first sign-in, their role set from their groups at every sign-in).
 */
@RegisterConstructorMapper(SsoLoginRow.class)
@RegisterConstructorMapper(AdminSessionRow.class)
@RegisterConstructorMapper(AdministratorRow.class)
public interface SsoDao {
    String SESSION_COLUMNS = "id, id_hash, admin_id, csrf_hash, created_at, expires_at, last_seen_at";

    @SqlUpdate("DELETE FROM sso_logins WHERE expires_at < :now")
    int forgetExpiredLogins(@Bind("now") long now);

    @SqlQuery("SELECT COUNT(*) FROM sso_logins")
    long pendingLogins();

    @SqlUpdate("INSERT INTO sso_logins (state_hash, browser_hash, nonce, code_verifier, return_to, created_at,"
            + " expires_at) VALUES (:stateHash, :browserHash, :nonce, :codeVerifier, :returnTo, :createdAt,"
            + " :expiresAt)")
    void startLogin(@Bind("stateHash") String stateHash, @Bind("browserHash") String browserHash,
            @Bind("nonce") String nonce, @Bind("codeVerifier") String codeVerifier,
            @Bind("returnTo") String returnTo, @Bind("createdAt") long createdAt, @Bind("expiresAt") long expiresAt);

    @SqlQuery("SELECT state_hash, browser_hash, nonce, code_verifier, return_to, created_at, expires_at"
            + " FROM sso_logins WHERE state_hash = :stateHash")
    Optional<SsoLoginRow> login(@Bind("stateHash") String stateHash);

    /** Removes a sign-in under way; 1 only for the one request that took it. */
    @SqlUpdate("DELETE FROM sso_logins WHERE state_hash = :stateHash")
    int takeLogin(@Bind("stateHash") String stateHash);

    @SqlQuery("SELECT " + AdministratorDao.COLUMNS + " FROM administrators WHERE issuer = :issuer"
            + " AND subject = :subject")
    Optional<AdministratorRow> linked(@Bind("issuer") String issuer, @Bind("subject") String subject);

    /** Whether an administrator or a live API key already has this name. */
    @SqlQuery("SELECT (SELECT COUNT(*) FROM administrators WHERE name = :name)"
            + " + (SELECT COUNT(*) FROM api_keys WHERE name = :name AND revoked_at IS NULL) > 0")
    boolean nameTaken(@Bind("name") String name);

    @SqlQuery("INSERT INTO administrators (name, role, active, email, issuer, subject, created_at, created_by)"
            + " VALUES (:name, :role, TRUE, :email, :issuer, :subject, :createdAt, 'sso') RETURNING id")
    long createLinked(@Bind("name") String name, @Bind("role") String role, @Bind("email") String email,
            @Bind("issuer") String issuer, @Bind("subject") String subject, @Bind("createdAt") long createdAt);

    @SqlUpdate("UPDATE administrators SET role = :role WHERE id = :id")
    void setRole(@Bind("id") long id, @Bind("role") String role);

    @SqlUpdate("DELETE FROM admin_sessions WHERE expires_at < :now")
    int forgetExpiredSessions(@Bind("now") long now);

    @SqlQuery("INSERT INTO admin_sessions (id_hash, admin_id, csrf_hash, created_at, expires_at, last_seen_at)"
            + " VALUES (:idHash, :adminId, :csrfHash, :now, :expiresAt, :now) RETURNING id")
    long startSession(@Bind("idHash") String idHash, @Bind("adminId") long adminId,
            @Bind("csrfHash") String csrfHash, @Bind("now") long now, @Bind("expiresAt") long expiresAt);

    @SqlQuery("SELECT " + SESSION_COLUMNS + " FROM admin_sessions WHERE id_hash = :idHash")
    Optional<AdminSessionRow> session(@Bind("idHash") String idHash);

    /** Notes the session (and its administrator) as seen, once per {@code before}; 1 when it was noted now. */
    @SqlUpdate("UPDATE admin_sessions SET last_seen_at = :now WHERE id = :id AND last_seen_at <= :before")
    int noteSessionSeen(@Bind("id") long id, @Bind("now") long now, @Bind("before") long before);

    @SqlUpdate("UPDATE administrators SET last_seen_at = :now WHERE id = :id")
    void noteAdministratorSeen(@Bind("id") long id, @Bind("now") long now);

    @SqlUpdate("DELETE FROM admin_sessions WHERE id_hash = :idHash")
    int endSession(@Bind("idHash") String idHash);

    @SqlUpdate("DELETE FROM key_sessions WHERE expires_at < :now")
    int forgetExpiredKeySessions(@Bind("now") long now);

    @SqlQuery("INSERT INTO key_sessions (id_hash, key_check, csrf_hash, created_at, expires_at, last_seen_at)"
            + " VALUES (:idHash, :keyCheck, :csrfHash, :now, :expiresAt, :now) RETURNING id")
    long startKeySession(@Bind("idHash") String idHash, @Bind("keyCheck") String keyCheck,
            @Bind("csrfHash") String csrfHash, @Bind("now") long now, @Bind("expiresAt") long expiresAt);

    /** A session started with the administrator key, while that key is still {@code keyCheck}'s (admin id 0). */
    @SqlQuery("SELECT id, id_hash, 0 AS admin_id, csrf_hash, created_at, expires_at, last_seen_at FROM key_sessions"
            + " WHERE id_hash = :idHash AND key_check = :keyCheck")
    Optional<AdminSessionRow> keySession(@Bind("idHash") String idHash, @Bind("keyCheck") String keyCheck);

    @SqlUpdate("UPDATE key_sessions SET last_seen_at = :now WHERE id = :id AND last_seen_at <= :before")
    int noteKeySessionSeen(@Bind("id") long id, @Bind("now") long now, @Bind("before") long before);

    @SqlUpdate("DELETE FROM key_sessions WHERE id_hash = :idHash")
    int endKeySession(@Bind("idHash") String idHash);
}
