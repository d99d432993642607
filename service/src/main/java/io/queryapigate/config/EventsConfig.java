package io.queryapigate.config;

import org.jdbi.v3.core.Jdbi;
import java.time.Clock;
import io.queryapigate.events.EventLog;
import io.dropwizard.core.setup.Environment;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** The event log and run history writer: batched, off the request path. */
public class EventsConfig {
    @Min(100)
    @Max(10_000_000)
    private int queueCapacity = 50_000;

    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    private Duration flushInterval = Duration.milliseconds(500);

    @Min(1)
    @Max(10_000)
    private int historyPerVersion = 50;

    @Min(1)
    @Max(24 * 366)
    private int retentionHours = 24;

    @NotNull
    @jakarta.validation.Valid
    private LiveConfig live = new LiveConfig();

    @JsonProperty
    public int getQueueCapacity() {
        return queueCapacity;
    }

    @JsonProperty
    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    @JsonProperty
    public Duration getFlushInterval() {
        return flushInterval;
    }

    @JsonProperty
    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    @JsonProperty
    public int getHistoryPerVersion() {
        return historyPerVersion;
    }

    @JsonProperty
    public void setHistoryPerVersion(int historyPerVersion) {
        this.historyPerVersion = historyPerVersion;
    }

    @JsonProperty
    public int getRetentionHours() {
        return retentionHours;
    }

    @JsonProperty
    public void setRetentionHours(int retentionHours) {
        this.retentionHours = retentionHours;
    }

    @JsonProperty
    public LiveConfig getLive() {
        return live;
    }

    @JsonProperty
    public void setLive(LiveConfig live) {
        this.live = live;
    }

    /** The event log, writing in the background while the application runs. */
    public EventLog build(Jdbi jdbi, Clock clock, Environment environment) {
        return build(jdbi, clock, environment, new io.queryapigate.store.StoreFaults(clock));
    }

    /** As the other build, telling store outages apart through {@code faults}. */
    public EventLog build(Jdbi jdbi, Clock clock, Environment environment, io.queryapigate.store.StoreFaults faults) {
        EventLog events = new EventLog(jdbi, queueCapacity,
                java.time.Duration.ofMillis(flushInterval.toMilliseconds()), historyPerVersion,
                java.time.Duration.ofHours(retentionHours), clock, environment.metrics(), faults);
        environment.lifecycle().manage(events);
        return events;
    }
}
