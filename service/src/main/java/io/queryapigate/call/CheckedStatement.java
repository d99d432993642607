package io.queryapigate.call;

import io.queryapigate.cache.CachedResponse;
import io.queryapigate.dialect.ConnectionRegistry.Connection;
import io.queryapigate.dialect.spi.Parameter;
import io.queryapigate.guard.GuardResult;
import io.queryapigate.guard.Masking;
import java.time.Duration;
import java.util.List;

/**
 * What a call runs, once authorised, resolved and checked by the guard.
 *
 * @param connection where it runs
 * @param sql the statement with {@code ?} markers
 * @param parameters the bound values, in marker order
 * @param verdict the guard's classification (a read or a write)
 * @param timeout the time limit
 * @param mask the caller's masking plan
 * @param cacheKey the response cache's key, or null when the answer is not cached
 * @param cacheTtl how long a cached answer lives, in seconds
 * @param cacheAbout what a cached answer answers (the management API's cache browser), or null when not cached
 * @param maxAffectedRows an agent write's ceiling of changed rows (rolled back above it), or 0 for none
 */
record CheckedStatement(Connection connection, String sql, List<Parameter> parameters, GuardResult verdict,
        Duration timeout, Masking.Plan mask, String cacheKey, int cacheTtl, CachedResponse.About cacheAbout,
        long maxAffectedRows) {

    CheckedStatement(Connection connection, String sql, List<Parameter> parameters, GuardResult verdict,
            Duration timeout, Masking.Plan mask, String cacheKey, int cacheTtl, CachedResponse.About cacheAbout) {
        this(connection, sql, parameters, verdict, timeout, mask, cacheKey, cacheTtl, cacheAbout, 0);
    }

    /** The same statement, run as a write rolled back when it changes more than {@code ceiling} rows. */
    CheckedStatement withCeiling(long ceiling) {
        return new CheckedStatement(connection, sql, parameters, verdict, timeout, mask, null, 0, null, ceiling);
    }
}
