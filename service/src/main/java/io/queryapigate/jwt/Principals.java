package io.queryapigate.jwt;

import io.queryapigate.store.PrincipalDao;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The store id of each signed-in user (a {@code principals} row of kind {@code jwt}), written the first time they
 * are seen and then remembered in memory: a call by someone seen before reads nothing from the store.
 */
final class Principals {
    static final String KIND = "jwt";
    private static final int MAX_REMEMBERED = 100_000;

    private final PrincipalDao dao;
    private final LongSupplier clock;
    private final Map<Who, Long> ids = new ConcurrentHashMap<>();

    private record Who(String issuer, String subject) {}

    Principals(PrincipalDao dao, LongSupplier clock) {
        this.dao = dao;
        this.clock = clock;
    }

    /** The user's id, their row inserted on first sight (named {@code name} then). */
    long idOf(String issuer, String subject, String name) {
        Who who = new Who(issuer, subject);
        Long id = ids.get(who);
        if (id != null) {
            return id;
        }
        Optional<Long> inserted = dao.insert(KIND, issuer, subject, name, clock.getAsLong());
        long found = inserted.orElseGet(() -> dao.find(KIND, issuer, subject).orElseThrow().id());
        if (ids.size() >= MAX_REMEMBERED) {
            ids.clear(); // a bound, not an eviction policy: those seen again are read once more
        }
        ids.put(who, found);
        return found;
    }
}
