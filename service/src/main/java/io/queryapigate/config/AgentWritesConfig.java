package io.queryapigate.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * Writes AI agents make through saved queries marked {@code agent_writes} (docs/agent-writes.md): how long a request
 * waits for a person to approve it, and, once approved, for the agent to run it (the original's
 * {@code QUERYAPIGATE_WRITE_APPROVAL_MINUTES}, 15 minutes).
 */
public class AgentWritesConfig {
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MINUTES)
    @MaxDuration(value = 7, unit = TimeUnit.DAYS)
    private Duration approvalTtl = Duration.minutes(15);

    @JsonProperty
    public Duration getApprovalTtl() {
        return approvalTtl;
    }

    @JsonProperty
    public void setApprovalTtl(Duration approvalTtl) {
        this.approvalTtl = approvalTtl;
    }

    public java.time.Duration approval() {
        return java.time.Duration.ofMillis(approvalTtl.toMilliseconds());
    }
}
