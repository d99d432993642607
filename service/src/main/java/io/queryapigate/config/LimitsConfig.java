package io.queryapigate.config;

import redis.clients.jedis.RedisClient;
import java.time.Clock;
import io.queryapigate.limits.RedisLimiter;
import io.queryapigate.limits.Rate;
import io.queryapigate.limits.LocalLimiter;
import io.queryapigate.limits.Limits;
import io.queryapigate.limits.Quotas;
import io.queryapigate.store.UsageDao;
import io.dropwizard.core.setup.Environment;
import java.time.ZoneId;
import io.queryapigate.limits.Limiter;
import io.queryapigate.auth.ClientAddress;
import com.codahale.metrics.MetricRegistry;
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

    /**
     * Calls of one connection that may wait for one of its {@code poolSize} sessions; one more is refused at once
     * with 503 {@code overloaded}. -1: no bound and no gate (every call waits for the pool within its time limit).
     */
    @Min(-1)
    @Max(1_000_000)
    private int maxWaitingCalls = 64;

    /** The longest a call waits for a session of its connection before 503 {@code overloaded} (and its time limit). */
    @NotNull
    private Duration maxWait = Duration.seconds(2);

    /** How long a request's line and headers may take to arrive (slowloris); 0 = only the idle timeout. */
    @NotNull
    private Duration headerTimeout = Duration.seconds(10);

    /** The slowest a request body may arrive, in bytes a second, after its first 2 s; 0 = only the idle timeout. */
    @NotNull
    private DataSize minRequestBodyRate = DataSize.bytes(256);

    /** The most connections one client address holds open on a connector; 0 = no bound. */
    @Min(0)
    private int maxConnectionsPerAddress = 1000;

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
    public Duration getHeaderTimeout() {
        return headerTimeout;
    }

    @JsonProperty
    public void setHeaderTimeout(Duration headerTimeout) {
        this.headerTimeout = headerTimeout;
    }

    @JsonProperty
    public DataSize getMinRequestBodyRate() {
        return minRequestBodyRate;
    }

    @JsonProperty
    public void setMinRequestBodyRate(DataSize minRequestBodyRate) {
        this.minRequestBodyRate = minRequestBodyRate;
    }

    @JsonProperty
    public int getMaxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    @JsonProperty
    public void setMaxConnectionsPerAddress(int maxConnectionsPerAddress) {
        this.maxConnectionsPerAddress = maxConnectionsPerAddress;
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

    @JsonProperty
    public int getMaxWaitingCalls() {
        return maxWaitingCalls;
    }

    @JsonProperty
    public void setMaxWaitingCalls(int maxWaitingCalls) {
        this.maxWaitingCalls = maxWaitingCalls;
    }

    @JsonProperty
    public Duration getMaxWait() {
        return maxWait;
    }

    @JsonProperty
    public void setMaxWait(Duration maxWait) {
        this.maxWait = maxWait;
    }

    /** The per-connection load shedding of {@link #getMaxWaitingCalls()} and {@link #getMaxWait()}. */
    public io.queryapigate.limits.Admission buildAdmission(MetricRegistry metrics) {
        return new io.queryapigate.limits.Admission(maxWaitingCalls,
                java.time.Duration.ofMillis(maxWait.toMilliseconds()), metrics);
    }

    /** The time limit per call. */
    public java.time.Duration queryTimeoutValue() {
        return java.time.Duration.ofMillis(queryTimeout.toMilliseconds());
    }

    /** Rate limits: per address, and per key once the key is known; shared through Redis when set. */
    public Limits build(RedisClient redis, RedisConfig redisConfig, ClientAddress addresses, Clock clock,
            MetricRegistry metrics) {
        Rate rate;
        try {
            rate = perAddress == null ? null : Rate.parse(perAddress);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("limits.perAddress: " + e.getMessage(), e);
        }
        LocalLimiter local = new LocalLimiter();
        Limiter limiter = redis == null ? local : new RedisLimiter(redis, redisConfig.getKeyPrefix(), local, clock,
                redisConfig.getRetry().toMilliseconds(), metrics);
        return new Limits(limiter, rate, addresses, metrics, new io.queryapigate.limits.Refusals(clock));
    }

    /**
     * The usage quotas, their counters in the store (and in Redis when set), written once a second while running.
     */
    public Quotas buildQuotas(UsageDao usage, RedisClient redis, RedisConfig redisConfig, Clock clock,
            Environment environment) {
        Quotas quotas = new Quotas(usage, clock, ZoneId.systemDefault(), redis, redisConfig.getKeyPrefix(),
                redisConfig.getRetry().toMilliseconds(), environment.metrics());
        environment.lifecycle().manage(quotas);
        return quotas;
    }
}
