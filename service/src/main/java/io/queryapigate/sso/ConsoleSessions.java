package io.queryapigate.sso;

import io.queryapigate.admins.AdminCallers;
import io.queryapigate.auth.ApiKeyAuthFilter;
import io.queryapigate.auth.ApiKeyAuthenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.errors.ApiException;
import io.queryapigate.store.AdminSessionRow;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.SsoDao;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Console sessions: a random session id in an HttpOnly cookie and a random CSRF token the console's page sends in
 * {@value ApiKeyAuthFilter.Sessions#CSRF_HEADER} on every request that uses the cookie; the store keeps only the
 * SHA-256 of each. Each request reads the session and its administrator from the store, so a sign-out, an expiry or
 * a deactivation ends it at once, on every instance. {@code last_seen_at} is written at most once a minute.
 *
 * <p>A session belongs to a named administrator (signed in through the identity provider or with a personal admin
 * token; {@code admin_sessions}) or to the administrator key of the YAML ({@code key_sessions}): such a session
 * holds a check of the key it was started with and ends when the YAML's key changes or goes.
 */
public final class ConsoleSessions implements ApiKeyAuthFilter.Sessions {
    static final Duration SEEN_INTERVAL = Duration.ofMinutes(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A new session's secrets, given to the browser once: the store has only their hashes. */
    public record Issued(long id, String sessionId, String csrfToken, long expiresAt) {}

    /**
     * A live session and who it belongs to.
     *
     * @param administrator null for a session of the administrator key
     */
    public record Live(AdminSessionRow session, AdministratorRow administrator, Caller caller) {
        /** Started with the administrator key of the YAML. */
        public boolean adminKey() {
            return administrator == null;
        }
    }

    private final Jdbi jdbi;
    private final Duration ttl;
    private final Clock clock;
    private final String keyCheck;

    /**
     * @param adminKey the administrator key of the YAML, or null when it has none (no session of the key is live)
     */
    public ConsoleSessions(Jdbi jdbi, Duration ttl, Clock clock, String adminKey) {
        this.jdbi = jdbi;
        this.ttl = ttl;
        this.clock = clock;
        this.keyCheck = adminKey == null ? null
                : KeyHasher.hashHex(java.util.HexFormat.of().formatHex(KeyHasher.sha256(adminKey)));
    }

    /** How long a session lasts. */
    public Duration ttl() {
        return ttl;
    }

    /** Starts a session for the administrator key of the YAML; fails when there is none. */
    public Issued startWithAdminKey() {
        if (keyCheck == null) {
            throw new IllegalStateException("no administrator key in the YAML");
        }
        return issue((dao, sessionHash, csrfHash, now, expiresAt) -> {
            dao.forgetExpiredKeySessions(now);
            return dao.startKeySession(sessionHash, keyCheck, csrfHash, now, expiresAt);
        });
    }

    /** Starts a session for the administrator {@code adminId}; expired sessions of anyone are removed on the way. */
    public Issued start(long adminId) {
        return issue((dao, sessionHash, csrfHash, now, expiresAt) -> {
            dao.forgetExpiredSessions(now);
            return dao.startSession(sessionHash, adminId, csrfHash, now, expiresAt);
        });
    }

    /** A new session id and CSRF token, stored hashed by {@code row} in one transaction. */
    private Issued issue(SessionRow row) {
        String sessionId = random();
        String csrf = random();
        long now = clock.millis();
        long expiresAt = now + ttl.toMillis();
        long id = jdbi.inTransaction(h -> row.insert(h.attach(SsoDao.class), KeyHasher.hashHex(sessionId),
                KeyHasher.hashHex(csrf), now, expiresAt));
        return new Issued(id, sessionId, csrf, expiresAt);
    }

    private interface SessionRow {
        long insert(SsoDao dao, String sessionHash, String csrfHash, long now, long expiresAt);
    }

    @Override
    public Caller authenticate(String sessionId, String csrfToken) {
        Live live = find(sessionId).orElseThrow(ApiException::unauthorized);
        if (csrfToken == null || !MessageDigest.isEqual(live.session().csrfHash().getBytes(StandardCharsets.US_ASCII),
                KeyHasher.hashHex(csrfToken).getBytes(StandardCharsets.US_ASCII))) {
            throw ApiException.forbidden("csrf_failed", "A request signed in with the console's session cookie needs"
                    + " the session's CSRF token in the " + CSRF_HEADER + " header.");
        }
        noteSeen(live);
        return live.caller();
    }

    /** The live session with this id: unexpired, its administrator active; else empty. */
    public Optional<Live> find(String sessionId) {
        if (sessionId == null || sessionId.isEmpty() || sessionId.length() > 200) {
            return Optional.empty();
        }
        String idHash = KeyHasher.hashHex(sessionId);
        return jdbi.withHandle(h -> {
            SsoDao dao = h.attach(SsoDao.class);
            Optional<AdminSessionRow> session = dao.session(idHash).filter(s -> s.expiresAt() > clock.millis());
            if (session.isEmpty()) {
                return keyCheck == null ? Optional.empty() : dao.keySession(idHash, keyCheck)
                        .filter(s -> s.expiresAt() > clock.millis())
                        .map(s -> new Live(s, null, ApiKeyAuthenticator.adminKeyCaller()));
            }
            AdministratorDao admins = h.attach(AdministratorDao.class);
            Optional<AdministratorRow> admin = admins.findById(session.get().adminId())
                    .filter(AdministratorRow::active);
            return admin.map(a -> new Live(session.get(), a, AdminCallers.of(a, admins.memberships(a.id()),
                    Identity.DEFAULT_WORKSPACE, session.get().id())));
        });
    }

    /** Ends the session with this id, if there is one. */
    public void end(String sessionId) {
        if (sessionId != null && !sessionId.isEmpty() && sessionId.length() <= 200) {
            String idHash = KeyHasher.hashHex(sessionId);
            jdbi.useTransaction(h -> {
                SsoDao dao = h.attach(SsoDao.class);
                dao.endSession(idHash);
                dao.endKeySession(idHash);
            });
        }
    }

    private void noteSeen(Live live) {
        long now = clock.millis();
        if (now - live.session().lastSeenAt() < SEEN_INTERVAL.toMillis()) {
            return;
        }
        jdbi.useTransaction(h -> {
            SsoDao dao = h.attach(SsoDao.class);
            if (live.adminKey()) {
                dao.noteKeySessionSeen(live.session().id(), now, now - SEEN_INTERVAL.toMillis());
            } else if (dao.noteSessionSeen(live.session().id(), now, now - SEEN_INTERVAL.toMillis()) == 1) {
                dao.noteAdministratorSeen(live.administrator().id(), now);
            }
        });
    }

    /** 32 random bytes, URL-safe base64: session ids, CSRF tokens, a sign-in's state, nonce, verifier, binding. */
    static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
