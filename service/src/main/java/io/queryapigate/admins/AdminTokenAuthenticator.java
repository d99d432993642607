package io.queryapigate.admins;

import io.dropwizard.auth.Authenticator;
import io.queryapigate.auth.Caller;
import io.queryapigate.auth.Identity;
import io.queryapigate.auth.KeyHasher;
import io.queryapigate.store.AdminTokenDao;
import io.queryapigate.store.AdminTokenRow;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.AdministratorRow;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates a personal admin token: its hash finds the token, the token its administrator, who must be active,
 * the token not past its last day. Both are read from the store on every request, never cached, so a revoked token or
 * a deactivated administrator fails on its very next request on every instance sharing the store (the management
 * API is not the hot path; a scoped key's call never comes here). When a token was last used and its administrator
 * last seen are written at most once a minute per token, by this instance.
 */
public final class AdminTokenAuthenticator implements Authenticator<String, Caller> {
    private static final Logger LOG = LoggerFactory.getLogger(AdminTokenAuthenticator.class);
    static final long USE_RECORD_INTERVAL_MILLIS = 60_000;

    private final Jdbi jdbi;
    private final AdminTokenDao tokens;
    private final AdministratorDao admins;
    private final Clock clock;
    private final Map<Long, Long> lastRecorded = new ConcurrentHashMap<>();

    public AdminTokenAuthenticator(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.tokens = jdbi.onDemand(AdminTokenDao.class);
        this.admins = jdbi.onDemand(AdministratorDao.class);
        this.clock = clock;
    }

    @Override
    public Optional<Caller> authenticate(String secret) {
        if (secret == null || secret.length() > 512) {
            return Optional.empty();
        }
        Optional<AdminTokenRow> token = tokens.findByHash(KeyHasher.hashHex(secret));
        if (token.isEmpty() || Administrators.expired(token.get(), clock)) {
            return Optional.empty();
        }
        Optional<AdministratorRow> admin = admins.findById(token.get().adminId());
        if (admin.isEmpty() || !admin.get().active()) {
            return Optional.empty();
        }
        recordUse(token.get().id(), admin.get().id());
        return Optional.of(AdminCallers.of(admin.get(), admins.memberships(admin.get().id()),
                Identity.DEFAULT_WORKSPACE, token.get().id()));
    }

    private void recordUse(long tokenId, long adminId) {
        long now = clock.millis();
        Long last = lastRecorded.get(tokenId);
        if (last != null && now - last < USE_RECORD_INTERVAL_MILLIS
                || !(last == null ? lastRecorded.putIfAbsent(tokenId, now) == null
                        : lastRecorded.replace(tokenId, last, now))) {
            return; // recorded within the minute, or another request is recording it now
        }
        try {
            jdbi.useTransaction(h -> {
                h.attach(AdminTokenDao.class).used(tokenId, now);
                h.attach(AdministratorDao.class).seen(adminId, now);
            });
        } catch (RuntimeException e) { // when it was seen is for people to read: never fail the request over it
            LOG.warn("Could not record the use of admin token {}: {}", tokenId, e.toString());
        }
    }
}
