package io.queryapigate.limits;

import io.queryapigate.cache.RedisOutage;
import com.codahale.metrics.MetricRegistry;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/**
 * One budget across instances: token buckets kept in Redis and updated atomically by Lua
 * scripts, with Redis's own clock. While Redis fails, the local limiter counts instead (still enforced, per
 * process), failures are counted ({@code limits.redis.failures}) and logged at most once a minute.
 */
public final class RedisLimiter implements Limiter {
    private static final Logger LOG = LoggerFactory.getLogger(RedisLimiter.class);

    // KEYS[1] bucket; ARGV: capacity, period micros. Returns {allowed, remaining, retry_after_ms}.
    private static final String BUCKET = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local cap = tonumber(ARGV[1])
            local period = tonumber(ARGV[2])
            local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
            local tokens = tonumber(state[1])
            local ts = tonumber(state[2])
            if tokens == nil then tokens = cap; ts = now end
            tokens = math.min(cap, tokens + (now - ts) * cap / period)
            local allowed = 0
            local retry = 0
            if tokens >= 1 then
              tokens = tokens - 1
              allowed = 1
            else
              retry = math.ceil((1 - tokens) * period / cap / 1000)
            end
            redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
            redis.call('PEXPIRE', KEYS[1], math.ceil(period / 1000) + 1000)
            return {allowed, math.floor(tokens), retry}
            """;

    private final RedisClient redis;
    private final String prefix;
    private final LocalLimiter fallback;
    private final Clock clock;
    private final RedisOutage outage;

    public RedisLimiter(RedisClient redis, String keyPrefix, LocalLimiter fallback, Clock clock, long retryMillis,
            MetricRegistry metrics) {
        this.redis = redis;
        this.prefix = keyPrefix;
        this.fallback = fallback;
        this.clock = clock;
        this.outage = new RedisOutage(clock, retryMillis, metrics, "limits.redis.failures", LOG,
                "Redis rate limiting unavailable", "counting locally");
    }

    @Override
    public Decision tryAcquire(String bucket, Rate rate) {
        if (!outage.up()) {
            return fallback.tryAcquire(bucket, rate);
        }
        try {
            @SuppressWarnings("unchecked")
            List<Long> r = (List<Long>) redis.eval(BUCKET, List.of(prefix + "rate:" + bucket + "|" + rate.text()),
                    List.of(Long.toString(rate.count()), Long.toString(rate.period().toNanos() / 1000)));
            return new Decision(r.get(0) == 1, rate.count(), r.get(1), r.get(2));
        } catch (RuntimeException e) {
            outage.failed(e);
            return fallback.tryAcquire(bucket, rate);
        }
    }
}
