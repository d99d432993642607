package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** The heartbeat each instance writes to the store ({@code GET /api/v1/instances}). */
public class InstancesConfig {
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.HOURS)
    private Duration heartbeatInterval = Duration.seconds(30);

    @JsonProperty
    public Duration getHeartbeatInterval() {
        return heartbeatInterval;
    }

    @JsonProperty
    public void setHeartbeatInterval(Duration heartbeatInterval) {
        this.heartbeatInterval = heartbeatInterval;
    }

    public java.time.Duration heartbeat() {
        return java.time.Duration.ofMillis(heartbeatInterval.toMilliseconds());
    }
}
