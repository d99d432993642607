package io.queryapigate.config;

import io.queryapigate.store.Store;
import io.queryapigate.store.MetadataCache;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * How long this instance trusts what it read from the store (keys, saved queries and their published version).
 * Changes made through this instance apply at once here; other instances see them within the TTL. 0 turns it off.
 */
public class MetadataCacheConfig {
    @NotNull
    private Duration ttl = Duration.seconds(5);

    @Min(100)
    @Max(10_000_000)
    private int maxEntries = 100_000;

    /** How long the schema browser keeps a connection's described catalogue. */
    @NotNull
    private Duration schemaTtl = Duration.seconds(60);

    @JsonProperty
    public Duration getTtl() {
        return ttl;
    }

    @JsonProperty
    public void setTtl(Duration ttl) {
        this.ttl = ttl;
    }

    @JsonProperty
    public int getMaxEntries() {
        return maxEntries;
    }

    @JsonProperty
    public void setMaxEntries(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    @JsonProperty
    public Duration getSchemaTtl() {
        return schemaTtl;
    }

    @JsonProperty
    public void setSchemaTtl(Duration schemaTtl) {
        this.schemaTtl = schemaTtl;
    }

    /** {@link #getSchemaTtl()} as a {@link java.time.Duration}. */
    public java.time.Duration schemaTtlValue() {
        return java.time.Duration.ofMillis(schemaTtl.toMilliseconds());
    }

    public MetadataCache build(Store store, MetricRegistry metrics) {
        return new MetadataCache(store, java.time.Duration.ofMillis(ttl.toMilliseconds()), maxEntries, metrics);
    }
}
