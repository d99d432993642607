package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDataSize;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** Server-wide limits. A request may lower the time limit, never raise it. */
public class LimitsConfig {
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    private Duration queryTimeout = Duration.seconds(30);

    @Min(1)
    @Max(10_000_000)
    private long maxRows = 10_000;

    @NotNull
    @MinDataSize(1024)
    private DataSize maxSqlLength = DataSize.kibibytes(64);

    @NotNull
    @MinDataSize(1024)
    private DataSize maxRequestBody = DataSize.mebibytes(1);

    /** Calls per client address (N/second|minute|hour|day), before authentication; null = unlimited. */
    private String perAddress;

    @JsonProperty
    public String getPerAddress() {
        return perAddress;
    }

    @JsonProperty
    public void setPerAddress(String perAddress) {
        this.perAddress = perAddress;
    }

    @JsonProperty
    public Duration getQueryTimeout() {
        return queryTimeout;
    }

    @JsonProperty
    public void setQueryTimeout(Duration queryTimeout) {
        this.queryTimeout = queryTimeout;
    }

    @JsonProperty
    public long getMaxRows() {
        return maxRows;
    }

    @JsonProperty
    public void setMaxRows(long maxRows) {
        this.maxRows = maxRows;
    }

    @JsonProperty
    public DataSize getMaxSqlLength() {
        return maxSqlLength;
    }

    @JsonProperty
    public void setMaxSqlLength(DataSize maxSqlLength) {
        this.maxSqlLength = maxSqlLength;
    }

    @JsonProperty
    public DataSize getMaxRequestBody() {
        return maxRequestBody;
    }

    @JsonProperty
    public void setMaxRequestBody(DataSize maxRequestBody) {
        this.maxRequestBody = maxRequestBody;
    }
}
