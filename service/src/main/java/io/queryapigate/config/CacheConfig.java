package io.queryapigate.config;

import redis.clients.jedis.RedisClient;
import java.time.Clock;
import io.queryapigate.cache.ResponseCache;
import io.queryapigate.cache.RedisResponseCache;
import io.queryapigate.cache.LocalResponseCache;
import io.dropwizard.core.setup.Environment;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import jakarta.validation.constraints.NotNull;

/**
 * The response cache for saved queries with a {@code cache_ttl}: in-process and bounded by bytes, and shared
 * through Redis when {@code redis.url} is set (the local cache then serves while Redis is down).
 */
public class CacheConfig {
    @NotNull
    private DataSize maxSize = DataSize.mebibytes(64);

    @JsonProperty
    public DataSize getMaxSize() {
        return maxSize;
    }

    @JsonProperty
    public void setMaxSize(DataSize maxSize) {
        this.maxSize = maxSize;
    }

    /** The response cache: in this instance's memory, shared through Redis when {@code redis} is configured. */
    public ResponseCache build(RedisClient redis, RedisConfig redisConfig, Clock clock, Environment environment) {
        LocalResponseCache local = new LocalResponseCache(maxSize.toBytes(), clock);
        environment.metrics().gauge("cache.entries", () -> local::size);
        if (redis == null) {
            return local;
        }
        return new RedisResponseCache(redis, redisConfig.getKeyPrefix(), redisConfig.getRetry().toMilliseconds(),
                local, clock, environment.metrics());
    }
}
