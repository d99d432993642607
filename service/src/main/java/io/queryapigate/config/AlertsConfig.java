package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** The thresholds of {@code GET /api/v1/alerts}, and how often the connections' health is checked for it. */
public class AlertsConfig {
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.DAYS)
    private Duration healthCheckInterval = Duration.seconds(60);

    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    private Duration healthCheckTimeout = Duration.seconds(5);

    @Min(0)
    @Max(365)
    private int keyExpiryDays = 7;

    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
    private Duration slowQuery = Duration.seconds(1);

    @DecimalMin("1.5")
    @DecimalMax("1000")
    private double slowdownFactor = 3;

    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
    private Duration slowdownMinimum = Duration.milliseconds(100);

    @Min(1)
    @Max(1_000_000)
    private int refusalsPerHour = 10;

    @JsonProperty
    public Duration getHealthCheckInterval() {
        return healthCheckInterval;
    }

    @JsonProperty
    public void setHealthCheckInterval(Duration healthCheckInterval) {
        this.healthCheckInterval = healthCheckInterval;
    }

    @JsonProperty
    public Duration getHealthCheckTimeout() {
        return healthCheckTimeout;
    }

    @JsonProperty
    public void setHealthCheckTimeout(Duration healthCheckTimeout) {
        this.healthCheckTimeout = healthCheckTimeout;
    }

    @JsonProperty
    public int getKeyExpiryDays() {
        return keyExpiryDays;
    }

    @JsonProperty
    public void setKeyExpiryDays(int keyExpiryDays) {
        this.keyExpiryDays = keyExpiryDays;
    }

    @JsonProperty
    public Duration getSlowQuery() {
        return slowQuery;
    }

    @JsonProperty
    public void setSlowQuery(Duration slowQuery) {
        this.slowQuery = slowQuery;
    }

    @JsonProperty
    public double getSlowdownFactor() {
        return slowdownFactor;
    }

    @JsonProperty
    public void setSlowdownFactor(double slowdownFactor) {
        this.slowdownFactor = slowdownFactor;
    }

    @JsonProperty
    public Duration getSlowdownMinimum() {
        return slowdownMinimum;
    }

    @JsonProperty
    public void setSlowdownMinimum(Duration slowdownMinimum) {
        this.slowdownMinimum = slowdownMinimum;
    }

    @JsonProperty
    public int getRefusalsPerHour() {
        return refusalsPerHour;
    }

    @JsonProperty
    public void setRefusalsPerHour(int refusalsPerHour) {
        this.refusalsPerHour = refusalsPerHour;
    }

    public java.time.Duration healthInterval() {
        return java.time.Duration.ofMillis(healthCheckInterval.toMilliseconds());
    }

    public java.time.Duration healthTimeout() {
        return java.time.Duration.ofMillis(healthCheckTimeout.toMilliseconds());
    }
}
