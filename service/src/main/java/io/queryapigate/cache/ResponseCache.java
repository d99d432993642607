package io.queryapigate.cache;

import java.util.Optional;

/** Where cached responses live. Implementations never fail a request: an unreachable backend is a miss. */
public interface ResponseCache extends AutoCloseable {
    Optional<CachedResponse> get(String key);

    void put(String key, CachedResponse response);

    @Override
    default void close() {}
}
