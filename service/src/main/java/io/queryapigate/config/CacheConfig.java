package io.queryapigate.config;

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
}
