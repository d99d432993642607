package io.queryapigate.config;

import redis.clients.jedis.RedisClient;
import io.queryapigate.cache.Redis;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.core.setup.Environment;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotNull;

/**
 * Redis, shared by instances for the response cache and the rate limits. Without a URL both stay in process.
 * While Redis fails, both fall back to this instance's own memory and try Redis again after {@code retry}.
 */
public class RedisConfig {
    private String url;

    /** Prefix of every key this gateway writes; instances that should share budgets and cache use the same. */
    @NotNull
    private String keyPrefix = "qag:";

    @NotNull
    private Duration timeout = Duration.milliseconds(250);

    @NotNull
    private Duration retry = Duration.seconds(5);

    @JsonProperty
    public String getUrl() {
        return url;
    }

    @JsonProperty
    public void setUrl(String url) {
        this.url = url;
    }

    @JsonProperty
    public String getKeyPrefix() {
        return keyPrefix;
    }

    @JsonProperty
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    @JsonProperty
    public Duration getTimeout() {
        return timeout;
    }

    @JsonProperty
    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    @JsonProperty
    public Duration getRetry() {
        return retry;
    }

    @JsonProperty
    public void setRetry(Duration retry) {
        this.retry = retry;
    }

    /** The Redis client shared by the response cache and the rate limits, or null when no URL is configured. */
    public RedisClient build(Environment environment) {
        if (url == null || url.isBlank()) {
            return null;
        }
        RedisClient redis;
        try {
            redis = Redis.client(url, (int) timeout.toMilliseconds());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("redis.url: " + e.getMessage(), e);
        }
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                redis.close();
            }
        });
        return redis;
    }
}
