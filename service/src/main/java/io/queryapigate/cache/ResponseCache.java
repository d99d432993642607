package io.queryapigate.cache;

import java.util.List;
import java.util.Optional;

/** Where cached responses live. Implementations never fail a request: an unreachable backend is a miss. */
public interface ResponseCache extends AutoCloseable {
    Optional<CachedResponse> get(String key);

    void put(String key, CachedResponse response);

    /** One live entry, for the management API: its key and response. */
    record Entry(String key, CachedResponse response) {}

    /** Every live entry (the management API lists them; never on a call's path). */
    List<Entry> entries();

    /** Evicts one entry; nothing happens when it is gone already. */
    void delete(String key);

    @Override
    default void close() {}
}
