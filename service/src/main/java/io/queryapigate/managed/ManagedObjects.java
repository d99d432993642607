package io.queryapigate.managed;

import io.queryapigate.errors.ApiException;
import io.queryapigate.store.ManagedDao;
import io.queryapigate.store.ManagedRow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which objects a configuration-as-code directory owns ({@code queryapigate config apply}), and the refusal the API
 * gives for changing one: 409 {@code managed_by_file}, naming the file that declares it. Each service that changes
 * such objects calls {@link #check} before it does; an apply itself runs inside {@link #applying}, where the check
 * lets it through. Read on the management path only, never by a call.
 */
public final class ManagedObjects {
    /** Saved queries. */
    public static final String QUERIES = "queries";
    /** API keys. */
    public static final String API_KEYS = "api_keys";
    /** Connections managed through the API. */
    public static final String CONNECTIONS = "connections";
    /** API-key roles. */
    public static final String ROLES = "roles";
    /** Descriptions of a connection's tables and columns, by connection. */
    public static final String DESCRIPTIONS = "descriptions";

    private static final Map<String, String> NOUNS = Map.of(QUERIES, "Saved query", API_KEYS, "API key",
            CONNECTIONS, "Connection", DESCRIPTIONS, "The descriptions of connection", ROLES, "Role");
    private static final ThreadLocal<Boolean> APPLYING = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final ManagedDao dao;

    public ManagedObjects(ManagedDao dao) {
        this.dao = dao;
    }

    /**
     * Refuses a change through the API to an object a directory owns: 409 {@code managed_by_file} with the file
     * ({@code file}). Passes for everything else, and for every change made by an apply.
     *
     * @param kind one of the kinds above
     * @param name the object's name
     */
    public void check(String kind, String name) {
        if (APPLYING.get()) {
            return;
        }
        Optional<ManagedRow> owner = dao.find(kind, name);
        if (owner.isPresent()) {
            String file = owner.get().file();
            throw new ApiException(409, "managed_by_file", NOUNS.getOrDefault(kind, kind) + " '" + name
                    + "' is managed by the configuration file " + file + " - change it there and apply the"
                    + " directory (queryapigate config apply)").with("file", file);
        }
    }

    /** {@code file:<path>} when a directory owns the object, for a {@code managed_by} field; empty otherwise. */
    public Optional<String> owner(String kind, String name) {
        return dao.find(kind, name).map(row -> "file:" + row.file());
    }

    /** Every owned object, by kind and name. */
    public List<ManagedRow> list() {
        return dao.list();
    }

    /** Runs an apply's changes: the services' {@link #check} lets them through on this thread meanwhile. */
    public <T> T applying(Supplier<T> work) {
        boolean outer = APPLYING.get();
        APPLYING.set(Boolean.TRUE);
        try {
            return work.get();
        } finally {
            APPLYING.set(outer);
        }
    }
}
