package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import io.queryapigate.history.RunHistory;
import io.queryapigate.live.LiveTail;
import io.queryapigate.store.Store;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;

/** {@code events.live}: the live stream, {@code GET /events} (docs/observability.md, "Live events"). */
public class LiveConfig {
    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    private Duration pollInterval = Duration.seconds(1);

    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    private Duration heartbeat = Duration.seconds(15);

    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    private Duration recheck = Duration.seconds(60);

    @Min(0)
    @Max(1_000_000)
    private int maxStreams = 10_000;

    @Min(10)
    @Max(1_000_000)
    private int queueSize = 1_000;

    @JsonProperty
    public Duration getPollInterval() {
        return pollInterval;
    }

    @JsonProperty
    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    @JsonProperty
    public Duration getHeartbeat() {
        return heartbeat;
    }

    @JsonProperty
    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    @JsonProperty
    public Duration getRecheck() {
        return recheck;
    }

    @JsonProperty
    public void setRecheck(Duration recheck) {
        this.recheck = recheck;
    }

    @JsonProperty
    public int getMaxStreams() {
        return maxStreams;
    }

    @JsonProperty
    public void setMaxStreams(int maxStreams) {
        this.maxStreams = maxStreams;
    }

    @JsonProperty
    public int getQueueSize() {
        return queueSize;
    }

    @JsonProperty
    public void setQueueSize(int queueSize) {
        this.queueSize = queueSize;
    }

    /** The tail of the event log this instance's streams share, reading while the application runs. */
    public LiveTail build(Store store, StoreConfig storeConfig, RunHistory history, Environment environment) {
        LiveTail tail = new LiveTail(store.jdbi(), store.url(), storeConfig.getUser(), storeConfig.getPassword(),
                history, environment.getObjectMapper(), new LiveTail.Settings(pollInterval.toMilliseconds(),
                        heartbeat.toMilliseconds(), recheck.toMilliseconds(), maxStreams, queueSize),
                environment.metrics());
        environment.lifecycle().manage(tail);
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStopping(LifeCycle server) {
                if (server instanceof Server) { // before Jetty waits for its open requests to finish
                    tail.endStreams();
                }
            }
        });
        return tail;
    }
}
