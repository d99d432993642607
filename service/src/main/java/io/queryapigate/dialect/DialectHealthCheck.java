package io.queryapigate.dialect;

import com.codahale.metrics.health.HealthCheck;
import io.queryapigate.dialect.spi.Dialect;
import io.queryapigate.dialect.spi.DialectException;
import java.time.Duration;

/** One per connection, on the admin port: the dialect's own check, bounded by a timeout. */
public final class DialectHealthCheck extends HealthCheck {
    private final Dialect dialect;
    private final Duration timeout;

    public DialectHealthCheck(Dialect dialect, Duration timeout) {
        this.dialect = dialect;
        this.timeout = timeout;
    }

    @Override
    protected Result check() {
        try {
            dialect.checkHealth(timeout);
            return Result.healthy();
        } catch (DialectException e) {
            return Result.unhealthy(e.error() + ": " + e.getMessage());
        }
    }
}
