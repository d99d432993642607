package io.queryapigate.history;

import io.queryapigate.auth.Caller;
import io.queryapigate.store.AdministratorDao;
import io.queryapigate.store.AdministratorRow;
import io.queryapigate.store.PrincipalDao;
import io.queryapigate.store.PrincipalRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The people behind negative key ids in events and run history: signed-in users ({@code jwt:<user>}, with their
 * token's issuer) and named administrators. A user's row never changes, so it is read once and kept; an
 * administrator's name is kept for a minute (it may be renamed). A history page reads at most one batch of each.
 */
final class People {
    private static final long ADMIN_TTL_MS = 60_000;
    private static final int MAX_KEPT = 100_000;

    /** Who a key id stands for. {@code issuer}: a signed-in user's token issuer, else null. */
    record Person(String name, String issuer) {}

    private record Kept(Person person, long at) {}

    private final PrincipalDao principals;
    private final AdministratorDao administrators;
    private final LongSupplier clock;
    private final Map<Long, Person> users = new ConcurrentHashMap<>();
    private final Map<Long, Kept> admins = new ConcurrentHashMap<>();

    People(PrincipalDao principals, AdministratorDao administrators, LongSupplier clock) {
        this.principals = principals;
        this.administrators = administrators;
        this.clock = clock;
    }

    /** The people among these key ids, by key id (ids that are no one's are left out). */
    Map<Long, Person> of(Collection<Long> keyIds) {
        Map<Long, Person> out = new HashMap<>();
        List<Long> unknownUsers = new ArrayList<>();
        long now = clock.getAsLong();
        for (long keyId : keyIds) {
            long user = Caller.principalId(keyId);
            long admin = Caller.administratorId(keyId);
            if (user > 0) {
                Person p = users.get(user);
                if (p != null) {
                    out.put(keyId, p);
                } else if (!unknownUsers.contains(user)) {
                    unknownUsers.add(user);
                }
            } else if (admin > 0) {
                Kept k = admins.get(admin);
                if (k == null || now - k.at() > ADMIN_TTL_MS) {
                    Optional<AdministratorRow> row = administrators.findById(admin);
                    k = new Kept(row.map(r -> new Person(r.name(), r.issuer())).orElse(null), now);
                    bound(admins).put(admin, k);
                }
                if (k.person() != null) {
                    out.put(keyId, k.person());
                }
            }
        }
        if (!unknownUsers.isEmpty()) {
            for (PrincipalRow r : principals.byIds(unknownUsers)) {
                Person p = new Person(r.name(), r.issuer());
                bound(users).put(r.id(), p);
                out.put(Caller.principalKeyId(r.id()), p);
            }
        }
        return out;
    }

    /**
     * The key id of a person by name: a signed-in user ({@code jwt:...}; the first seen of that name), else an
     * administrator.
     */
    Long keyIdOf(String name) {
        if (name.startsWith("jwt:")) {
            List<PrincipalRow> rows = principals.byName(name);
            return rows.isEmpty() ? null : Caller.principalKeyId(rows.get(0).id());
        }
        return administrators.findByName(name).map(r -> Caller.administratorKeyId(r.id())).orElse(null);
    }

    private static <V> Map<Long, V> bound(Map<Long, V> map) {
        if (map.size() >= MAX_KEPT) {
            map.clear();
        }
        return map;
    }
}
