package io.queryapigate.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.queryapigate.http.ServerTime;
import io.queryapigate.scope.Scope;
import io.queryapigate.store.AuditDao;
import io.queryapigate.store.AuditLink;
import io.queryapigate.store.AuditRow;
import io.queryapigate.store.Store;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Appends one entry per administrative change, inside the transaction of the change (docs/audit.md): rolled back,
 * the entry never existed; an entry that cannot be written rolls the change back. The writer holds the chain's head
 * row (PostgreSQL: {@code SELECT ... FOR UPDATE}; SQLite: a write to it, so the transaction holds the store's write
 * lock), takes the next {@code seq}, links the entry to the head's hash ({@link AuditChain}), inserts it and moves the
 * head, so instances writing at once still make one chain without gaps. Past {@code maxEntries} the oldest entries
 * are trimmed and the anchor moved to the newest trimmed one (entries no SIEM output has delivered yet are kept, up
 * to ten times the cap). Secrets never enter an entry: a field named as one is recorded as {@code {"changed": true}}.
 */
public final class AuditLog {
    /** Actions about the server and the people who run it, not one workspace's things: recorded without one. */
    static final Set<String> SERVER_ACTIONS = Set.of("create_admin", "update_admin", "delete_admin",
            "issue_admin_token", "revoke_admin_token", "rekey", "forget_caller", "audit_key_set",
            "audit_key_rotated");
    /** Actions about a workspace itself, which belong to it: their target is the workspace's name. */
    private static final Set<String> WORKSPACE_ACTIONS = Set.of("create_workspace", "update_workspace",
            "delete_workspace", "set_workspace_member", "remove_workspace_member");
    /** Fields whose value is a secret: only that it changed is recorded. */
    private static final Set<String> SECRET_FIELDS = Set.of("password", "secret", "client_secret", "key_secret",
            "token_secret", "plaintext", "api_key", "secret_key");
    /** The marker a secret's value is replaced with. */
    public static final Map<String, Object> CHANGED = Map.of("changed", true);
    static final int MAX_BACKLOG_FACTOR = 10;
    private static final ThreadLocal<Boolean> QUIET = new ThreadLocal<>();

    private final Jdbi jdbi;
    private volatile Runnable appended = () -> {};
    private final boolean postgres;
    private final AuditChain chain;
    private final Clock clock;
    private final int maxEntries;
    private final ObjectMapper canonical = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    public AuditLog(Store store, AuditChain chain, Clock clock, int maxEntries) {
        this(store.jdbi(), store.url().startsWith("jdbc:postgresql:"), chain, clock, maxEntries);
    }

    /** An audit log on {@code jdbi} (a store's), PostgreSQL or SQLite. */
    public AuditLog(Jdbi jdbi, boolean postgres, AuditChain chain, Clock clock, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1");
        }
        this.jdbi = jdbi;
        this.postgres = postgres;
        this.chain = chain;
        this.clock = clock;
        this.maxEntries = maxEntries;
    }

    /** The chain's keys. */
    /**
     * Runs {@code listener} after each transaction that appended an entry commits (SIEM delivery sends it then,
     * rather than at its next poll). It must return at once.
     */
    public void onAppended(Runnable listener) {
        this.appended = listener;
    }

    public AuditChain chain() {
        return chain;
    }

    /** How many entries retention keeps. */
    public int maxEntries() {
        return maxEntries;
    }

    /** Runs {@code change} in one store transaction, for a change that appends its entry inside it. */
    public <T> T inTransaction(Supplier<T> change) {
        return jdbi.inTransaction(h -> change.get());
    }

    /** As {@link #inTransaction(Supplier)}, for a change without a result. */
    public void inTransaction(Runnable change) {
        jdbi.useTransaction(h -> change.run());
    }

    /**
     * Runs {@code work} (a whole configuration apply, import or example load) with the entries of the changes it is
     * made of left out: the caller appends one entry summarising them.
     */
    public static <T> T summarized(Supplier<T> work) {
        Boolean before = QUIET.get();
        QUIET.set(Boolean.TRUE);
        try {
            return work.get();
        } finally {
            QUIET.set(before);
        }
    }

    /** Appends an entry in the workspace this thread acts in (none for the server's own actions). */
    public void append(String action, String target, Map<String, ?> changes) {
        String workspace = SERVER_ACTIONS.contains(action) ? null
                : WORKSPACE_ACTIONS.contains(action) ? target : Scope.current();
        append(action, target, workspace, changes);
    }

    /**
     * Appends an entry for {@link Acting#current()}, inside the transaction open on this thread (a change made
     * outside one is a programming error: {@link IllegalStateException}).
     */
    public void append(String action, String target, String workspace, Map<String, ?> changes) {
        if (Boolean.TRUE.equals(QUIET.get())) {
            return;
        }
        jdbi.useHandle(h -> {
            if (!h.isInTransaction()) {
                throw new IllegalStateException("An audit entry is appended inside the transaction of its change");
            }
            write(h, Acting.current(), action, target, workspace, changes);
        });
    }

    /** Appends {@code audit_key_set} or {@code audit_key_rotated} when the key changed since the newest entry. */
    public void recordKeyAtStartup() {
        if (!chain.keyed()) {
            return;
        }
        jdbi.useTransaction(h -> Acting.as(Actor.STARTUP, () -> {
            AuditDao dao = h.attach(AuditDao.class);
            AuditLink head = lock(dao);
            AuditRow newest = dao.at(head.seq()).orElse(null);
            if (newest == null || !newest.hash().startsWith(AuditChain.HMAC)) {
                write(h, Actor.STARTUP, "audit_key_set", "audit_log", null,
                        Map.of("entries_before_unkeyed", dao.count()));
            } else if (chain.signedBy(newest.hash(), newest.prevHash(), newest.seq(), newest.entryJson()) != 0) {
                write(h, Actor.STARTUP, "audit_key_rotated", "audit_log", null, Map.of("keys", chain.keyCount()));
            }
            return null;
        }));
    }

    /**
     * What changed between two states of an object, field by field: {@code {"field": {"from": a, "to": b}}} for each
     * field whose value differs (a secret's as {@link #CHANGED}, once written).
     */
    public static Map<String, Object> diff(Map<String, ?> before, Map<String, ?> after) {
        Map<String, Object> changes = new TreeMap<>();
        java.util.Set<String> fields = new java.util.TreeSet<>(before.keySet());
        fields.addAll(after.keySet());
        for (String field : fields) {
            Object from = before.get(field);
            Object to = after.get(field);
            if (!java.util.Objects.equals(from, to)) {
                Map<String, Object> change = new LinkedHashMap<>();
                change.put("from", from);
                change.put("to", to);
                changes.put(field, change);
            }
        }
        return changes;
    }

    private void write(Handle h, Actor actor, String action, String target, String workspace,
            Map<String, ?> changes) {
        AuditDao dao = h.attach(AuditDao.class);
        AuditLink head = lock(dao);
        long seq = head.seq() + 1;
        long now = clock.millis();
        String clippedTarget = clip(target == null ? "-" : target, 300);
        String name = clip(actor.name(), 200);
        Map<String, Object> entry = new TreeMap<>();
        entry.put("seq", seq);
        entry.put("timestamp", ServerTime.format(now));
        entry.put("at_ms", now);
        entry.put("actor", name);
        entry.put("actor_kind", actor.kind());
        entry.put("via", actor.via());
        entry.put("credential_id", actor.credentialId() == 0 ? null : actor.credentialId());
        entry.put("address", actor.address());
        entry.put("request_id", actor.requestId());
        entry.put("action", action);
        entry.put("target", clippedTarget);
        entry.put("workspace", workspace);
        entry.put("changes", changes == null ? null : withoutSecrets(canonical.convertValue(changes, Object.class)));
        String json = json(entry);
        String hash = chain.hash(head.hash(), seq, json);
        dao.insert(new AuditRow(seq, now, actor.kind(), name, actor.address(), action, clippedTarget, workspace,
                actor.requestId(), json, head.hash(), hash));
        dao.moveLink(AuditDao.HEAD, seq, hash);
        trim(dao, seq);
        h.afterCommit(appended);
    }

    private AuditLink lock(AuditDao dao) {
        if (postgres) {
            return dao.lockHead();
        }
        dao.touchHead();
        return dao.link(AuditDao.HEAD).orElseThrow();
    }

    private void trim(AuditDao dao, long newest) {
        long cut = newest - maxEntries;
        Long floor = dao.deliveryFloor();
        if (floor != null && floor < cut) { // not delivered to a SIEM yet: kept, up to ten times the cap
            cut = Math.max(floor, newest - (long) maxEntries * MAX_BACKLOG_FACTOR);
        }
        AuditLink anchor = dao.link(AuditDao.ANCHOR).orElseThrow();
        if (cut <= anchor.seq()) {
            return;
        }
        AuditRow last = dao.at(cut).orElse(null);
        if (last != null) {
            dao.moveLink(AuditDao.ANCHOR, last.seq(), last.hash());
            dao.deleteThrough(cut);
        }
    }

    @SuppressWarnings("unchecked")
    private static Object withoutSecrets(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((k, v) -> out.put(k,
                    SECRET_FIELDS.contains(k) && v != null && !CHANGED.equals(v) ? CHANGED : withoutSecrets(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(AuditLog::withoutSecrets).toList();
        }
        return value;
    }

    private String json(Object value) {
        try {
            return canonical.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("An audit entry must be JSON", e);
        }
    }

    private static String clip(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
