package io.queryapigate.call;

import io.queryapigate.auth.Caller;
import io.queryapigate.errors.ApiException;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * A request's {@code timeout} (seconds) may lower the connection's limit, never raise it; so may the key's own
 * {@code query_timeout}.
 */
public final class Timeouts {
    private Timeouts() {}

    /** The connection's limit, or the caller's {@code query_timeout} when that is lower. */
    public static Duration forCaller(Duration limit, Caller caller) {
        BigDecimal own = caller.grants().queryTimeout();
        if (own == null) {
            return limit;
        }
        long millis = Math.max(1, own.movePointRight(3).longValue());
        return millis < limit.toMillis() ? Duration.ofMillis(millis) : limit;
    }

    public static Duration effective(Duration limit, String requested) {
        if (requested == null || requested.isBlank()) {
            return limit;
        }
        BigDecimal seconds;
        try {
            seconds = new BigDecimal(requested.strip());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_timeout", "timeout must be a positive number of seconds.");
        }
        if (seconds.signum() <= 0 || seconds.compareTo(BigDecimal.valueOf(86_400)) > 0) {
            throw ApiException.badRequest("invalid_timeout", "timeout must be a positive number of seconds.");
        }
        long millis = Math.max(1, seconds.movePointRight(3).longValue());
        return Duration.ofMillis(Math.min(millis, limit.toMillis()));
    }
}
